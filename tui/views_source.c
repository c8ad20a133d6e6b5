/* views_source.c - the source view: GLSL (or SPIR-V disassembly) with
 * each line's share of the predicted time and its findings.  See views.h. */
#include "views_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "theme.h"

/* ---- source view ---- */

void views_line_shares(const tui_kernel *k, line_weights *lw)
{
    /* Each prediction term is spread over the lines by the resource it
     * measures: memory terms by bytes, FP terms by FLOPs, the others
     * (issue, int, latency, barrier, atomics) by instructions; launch
     * belongs to no line.  Without terms: instructions + bytes + FLOPs. */
    memset(lw, 0, sizeof *lw);
    double sb = 0, sf = 0, si = 0;
    for (size_t i = 0; i < k->nlines; i++) {
        sb += k->lines[i].bytes;
        sf += k->lines[i].flops;
        si += k->lines[i].instructions;
    }
    const prediction *p = &k->kr.prediction;
    double tb = 0, tf = 0, ti = 0;
    for (size_t i = 0; p->valid && i < p->nterms; i++) {
        const char *n = p->terms[i].name ? p->terms[i].name : "";
        double t = p->terms[i].time_us > 0 ? p->terms[i].time_us : 0;
        if (!strcmp(n, "dram") || !strcmp(n, "l2") || !strcmp(n, "shared"))
            tb += t;
        else if (!strncmp(n, "fp", 2) || !strcmp(n, "sfu"))
            tf += t;
        else if (strcmp(n, "launch") != 0)
            ti += t;
    }
    if (tb + tf + ti <= 0) {
        tb = sb > 0 ? 1 : 0;
        tf = sf > 0 ? 1 : 0;
        ti = si > 0 ? 1 : 0;
    }
    lw->per_byte = sb > 0 ? tb / sb : 0;
    lw->per_flop = sf > 0 ? tf / sf : 0;
    lw->per_instr = si > 0 ? ti / si : 0;
    for (size_t i = 0; i < k->nlines; i++)
        lw->total += views_line_weight(lw, &k->lines[i]);
}

double views_line_weight(const line_weights *lw, const line_cost *lc)
{
    return lc->bytes * lw->per_byte + lc->flops * lw->per_flop +
           lc->instructions * lw->per_instr;
}

/* The bottom line: the finding on the cursor's line, else that line's
 * work over the dispatch, else where the cursor is. */
static void source_info_line(canvas *cv, const rect *body, const tui_state *st,
                             const tui_kernel *k, int nlines, int shares)
{
    int y = body->y + body->h - 2;
    canvas_fill(cv, y, body->x, body->w, 0x2500, EL_DIM);
    int ln2 = st->source_cursor + 1;
    const finding *f = k->source_glsl ? state_line_finding(k, ln2) : NULL;
    char b[1024];
    if (f) {
        snprintf(b, sizeof b, "line %d: %s %s: %s", ln2,
                 severity_name(f->sev), f->id ? f->id : "?",
                 f->message ? f->message : "");
        canvas_text(cv, y + 1, body->x + 1, body->w - 1,
                    (uint8_t)views_sev_el(f->sev), b);
    } else if (shares) {
        double fl = 0, by = 0, in = 0;
        for (size_t i = 0; i < k->nlines; i++)
            if (k->lines[i].line == ln2) {
                fl += k->lines[i].flops;
                by += k->lines[i].bytes;
                in += k->lines[i].instructions;
            }
        char a1[32], a2[32], a3[32];
        views_fmt_si(a1, sizeof a1, fl, "FLOP");
        views_fmt_si(a2, sizeof a2, by, "B");
        views_fmt_si(a3, sizeof a3, in, "instr");
        snprintf(b, sizeof b, "line %d: %s · %s · %s over the dispatch",
                 ln2, a1, a2, a3);
        canvas_text(cv, y + 1, body->x + 1, body->w - 1, EL_DIM, b);
    } else {
        snprintf(b, sizeof b, "line %d of %d", ln2, nlines);
        canvas_text(cv, y + 1, body->x + 1, body->w - 1, EL_DIM, b);
    }
}

void views_render_source(canvas *cv, const rect *body, tui_state *st)
{
    tui_kernel *k = views_selected_kernel(cv, body, st);
    if (!k)
        return;
    /* split into lines (pointers into the text) */
    const char *src = k->source;
    int nlines = 0;
    if (src) {
        nlines = 1;
        for (const char *p = src; *p; p++)
            if (*p == '\n' && p[1])
                nlines++;
    }
    char title[512];
    snprintf(title, sizeof title, "%s · %s · %s · %d lines%s",
             k->kr.name ? k->kr.name : "?",
             k->kr.shader ? k->kr.shader : "-",
             !src ? "no source" : k->source_glsl ? "GLSL" : "SPIR-V disassembly",
             nlines, k->source_glsl && k->nlines ? " · share of predicted time"
                                                 : "");
    canvas_text(cv, body->y, body->x + 1, body->w - 1, EL_SECTION, title);
    if (!src) {
        canvas_text(cv, body->y + 2, body->x + 2, body->w - 2, EL_DIM,
                    k->state <= KS_CHECKING ? "analysing…"
                    : k->kr.kind && strcmp(k->kr.kind, "cpu") == 0
                        ? "a native CPU kernel: no shader source (the detail "
                          "view has its machine-code findings)"
                        : "no source: the shader could not be read");
        return;
    }
    int info_h = body->h >= 12 ? 2 : 0;
    int h = body->h - 1 - info_h;
    if (h <= 0)
        return;
    if (st->source_cursor >= nlines)
        st->source_cursor = nlines - 1;
    if (st->source_cursor < 0)
        st->source_cursor = 0;
    int *top = &st->scroll[VIEW_SOURCE];
    if (st->source_cursor < *top)
        *top = st->source_cursor;
    if (st->source_cursor >= *top + h)
        *top = st->source_cursor - h + 1;
    views_clamp_scroll(st, VIEW_SOURCE, nlines, h);
    double total = 0, mx = 0;
    int shares = k->source_glsl && k->nlines > 0;
    line_weights lwt;
    views_line_shares(k, &lwt);
    total = lwt.total;
    for (size_t i = 0; shares && i < k->nlines; i++) {
        double wgt = views_line_weight(&lwt, &k->lines[i]);
        if (wgt > mx)
            mx = wgt;
    }
    int barw = body->w >= 100 ? 10 : 0;
    int gut = 1 + 5 + 1 + (shares ? 6 + 1 : 0) + (shares && barw ? barw + 1 : 0);
    const char *p = src;
    int ln = 1;
    while (ln <= *top && *p) { /* skip to the first visible line */
        const char *nl = strchr(p, '\n');
        if (!nl)
            break;
        p = nl + 1;
        ln++;
    }
    for (int r = 0; r < h && ln <= nlines; r++, ln++) {
        int y = body->y + 1 + r;
        int cur = ln - 1 == st->source_cursor;
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        if (cur)
            canvas_fill(cv, y, body->x, body->w, ' ', EL_SELECTED);
        const finding *f = k->source_glsl ? state_line_finding(k, ln) : NULL;
        int x = body->x;
        if (f)
            canvas_putc(cv, y, x, f->sev == SEV_ERROR ? 0x25CF
                                  : f->sev == SEV_WARNING ? 0x25B2 : 0x2022,
                        cur ? EL_SELECTED : (uint8_t)views_sev_el(f->sev));
        x += 1;
        canvas_printf(cv, y, x, 5, cur ? EL_SELECTED : EL_LINENUM, "%5d", ln);
        x += 6;
        if (shares) {
            double wgt = 0;
            for (size_t i = 0; i < k->nlines; i++)
                if (k->lines[i].line == ln)
                    wgt += views_line_weight(&lwt, &k->lines[i]);
            if (wgt > 0 && total > 0) {
                double pct = 100 * wgt / total;
                char b[16];
                /* a line that costs next to nothing: a dim dot, no bar */
                if (pct < 0.05)
                    snprintf(b, sizeof b, "·");
                else
                    snprintf(b, sizeof b, pct >= 9.95 ? "%.0f%%" : "%.1f%%",
                             pct);
                canvas_text_right(cv, y, x, 6,
                                  cur ? EL_SELECTED
                                      : pct >= 20 ? EL_HOT
                                      : pct < 0.05 ? EL_DIM : EL_NORMAL, b);
                int n = barw ? (int)(wgt / mx * barw + 0.5) : 0;
                if (n < 1 && pct >= 1)
                    n = 1;
                if (n > 0)
                    canvas_fill(cv, y, x + 7, n > barw ? barw : n, 0x2588,
                                cur ? EL_SELECTED : EL_BAR);
            }
        }
        /* the code itself (after the gutter), tabs expanded to 4 */
        char code[1024];
        size_t o = 0;
        for (size_t i = 0; i < len && o + 5 < sizeof code; i++) {
            if (p[i] == '\t') {
                do
                    code[o++] = ' ';
                while (o % 4 && o + 1 < sizeof code);
            } else {
                code[o++] = p[i];
            }
        }
        code[o] = '\0';
        if (body->w - gut > 0)
            canvas_text(cv, y, body->x + gut, body->w - gut,
                        cur ? EL_SELECTED : EL_NORMAL, code);
        p = nl ? nl + 1 : p + len;
    }
    if (info_h)
        source_info_line(cv, body, st, k, nlines, shares);
}
