/* views_help.c - the help view and the key bar.  See views.h. */
#include "views_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keys.h"
#include "theme.h"

/* Arrows have no ASCII look-alike worth reading: words instead. */
static const char *key_text(const char *k, int utf8)
{
    if (utf8)
        return k;
    if (strcmp(k, "←→") == 0)
        return "[ ]";
    if (strcmp(k, "↑↓") == 0)
        return "j/k";
    if (strcmp(k, "↑ ↓  j k") == 0)
        return "Up Dn  j k";
    if (strcmp(k, "← →  [ ]") == 0)
        return "Lt Rt  [ ]";
    if (strcmp(k, "1 … 5") == 0)
        return "1 .. 5";
    return k;
}

/* The key bar: the entries of keys.def for the current mode, in its
 * order.  When they do not fit, entries before the last (Quit) go first,
 * from the end. */
void views_draw_keybar(canvas *cv, const rect *r, const tui_state *st)
{
    const tui_keydef *k[64];
    size_t n = 0;
    unsigned mode = keys_mode(st);
    for (size_t i = 0; i < keys_count && n < 64; i++)
        if ((keys_table[i].views & mode) && keys_table[i].bar_key[0])
            k[n++] = &keys_table[i];
    canvas_fill(cv, r->y, r->x, r->w, ' ', EL_KEYLABEL);
    int gap = 2;
    for (;;) {
        int total = 1;
        for (size_t i = 0; i < n; i++)
            total += canvas_width(key_text(k[i]->bar_key, cv->utf8)) + 1 +
                     canvas_width(k[i]->bar_label) + gap;
        total -= gap;
        if (total <= r->w)
            break;
        if (gap == 2)
            gap = 1;
        else if (n > 2)
            k[n - 2] = k[n - 1], n--;
        else
            break;
    }
    int x = r->x + 1;
    for (size_t i = 0; i < n; i++) {
        const char *key = key_text(k[i]->bar_key, cv->utf8);
        int kw = canvas_width(key), lw = canvas_width(k[i]->bar_label);
        if (x + kw + 1 + lw > r->x + r->w)
            break;
        x += canvas_text(cv, r->y, x, kw, EL_KEY, key);
        x++;
        x += canvas_text(cv, r->y, x, lw, EL_KEYLABEL, k[i]->bar_label);
        x += x + gap <= r->x + r->w ? gap : r->x + r->w - x;
    }
}

/* ---- help view ---- */

typedef struct legend_line {
    const char *key, *ascii_key, *text;
} legend_line;

/* What the kernel list, the source view and the roofline show. */
static const legend_line columns[] = {
    {"KERNEL", NULL, "the kernel's name in its plan"},
    {"BOUND", NULL, "what limits the predicted time: dram, l2, shared, fp32, "
                    "fp64, int, issue, latency, barrier, launch, ... (the "
                    "largest term of the prediction)"},
    {"IDEAL", NULL, "roofline time on the compulsory traffic and the FLOPs: "
                    "what the work needs at the device's ceilings"},
    {"PRED", NULL, "predicted time of the kernel as written (coalescing, "
                   "occupancy, barriers, launch...)"},
    {"MEASURED", NULL, "median of the warm samples; live while sampling"},
    {"±MAD", "+-MAD", "median absolute deviation of the samples, % of the "
                      "median"},
    {"RATIO", NULL, "measured / predicted"},
    {"SAMPLES", NULL, "sparkline of the latest samples (low = fast)"},
    {"FINDINGS", NULL, "E errors, W warnings, N notes (none: checked, "
                       "nothing found)"},
    {NULL, NULL, NULL}};

static const legend_line verdicts[] = {
    {"ok", NULL, "the ratio is inside the tolerance band (default ±25%, "
                 "widened by the samples' own spread): the model explains "
                 "the measurement"},
    {"slower", NULL, "measured above the band: something the model does not "
                     "see costs time; the detail view's verdict says what "
                     "the evidence points at"},
    {"faster", NULL, "measured below the band: the model overestimates (or "
                     "a ceiling in the profile is too low: calibrate)"},
    {"unknown", NULL, "no judgement: a side is missing, or the machine was "
                      "too busy to judge (the reason is in the detail view)"},
    {"not run", NULL, "error findings (or an invalid shader): not executed"},
    {"failed", NULL, "the run failed; the detail view says why"},
    {"… -", "... -", "… not analysed yet; - nothing to show"},
    {NULL, NULL, NULL}};

static const legend_line marks[] = {
    {"● ▲ •", "* ^ *", "source line with an error / warning / note finding"},
    {"12%", NULL, "source view: the line's share of the predicted time, with "
                  "a bar"},
    {"·", "~", "source view: the line costs next to nothing (under 0.05% of "
               "the predicted time)"},
    {"a A", NULL, "roofline: lower-case letter where the model puts the "
                  "kernel, upper-case where the measurement does"},
    {"changes", NULL, "edited plans and shaders are re-analysed and re-run "
                      "automatically"},
    {NULL, NULL, NULL}};

static void legend(pane *a, const char *title, const legend_line *l,
                   int utf8)
{
    pane_section(a, title);
    for (; l->key; l++) {
        const char *key = !utf8 && l->ascii_key ? l->ascii_key : l->key;
        canvas_text(&a->cv, a->y, 2, 12, EL_COLUMN, key);
        int save = a->y;
        pane_wrap(a, 15, 2, EL_NORMAL, l->text);
        if (a->y == save)
            a->y++;
    }
}

void views_render_help(canvas *cv, const rect *body, tui_state *st)
{
    pane a;
    pane_init(&a, body->w - 1, 120, cv->utf8);
    pane_section(&a, "Keys");
    for (size_t i = 0; i < keys_count; i++) {
        const tui_keydef *k = &keys_table[i];
        if (!k->help_key[0])
            continue;
        canvas_text(&a.cv, a.y, 2, 12, EL_KEY, key_text(k->help_key, cv->utf8));
        int save = a.y;
        pane_wrap(&a, 15, 2, EL_NORMAL, k->help_text);
        if (a.y == save)
            a.y++;
    }
    legend(&a, "Columns", columns, cv->utf8);
    legend(&a, "Verdict", verdicts, cv->utf8);
    legend(&a, "Marks", marks, cv->utf8);
    char b[160];
    snprintf(b, sizeof b, "theme %s · %s · Clockwork %s", st->theme_name,
             cv->utf8 ? "UTF-8" : "ASCII", st->version);
    pane_section(&a, "About");
    pane_wrap(&a, 2, 2, EL_DIM, b);
    int s = views_clamp_scroll(st, VIEW_HELP, a.y, body->h);
    rect ra = {body->y, body->x, body->h, body->w - 1};
    pane_blit(cv, &ra, &a, s);
    rect rs = {body->y, body->x, body->h, body->w};
    views_scrollbar(cv, &rs, s, a.y);
    canvas_free(&a.cv);
}
