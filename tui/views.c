/* views.c - formatting, screen layout, the header and status lines, the
 * kernel list and its summary, and views_render().  The other views are in
 * views_detail.c, views_source.c, views_device.c, views_help.c and
 * roofline.c; panes in views_pane.c.  See views.h. */
#include "views.h"
#include "units.h"
#include "views_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "theme.h"

/* ---- formatting ---- */

void views_fmt_time(char *buf, size_t n, double us)
{
    units_time_compact(buf, n, us);
}

/* Through core/units: bytes in binary units, "X/s" as a rate, other units
 * (FLOP, instr) and none as counts. */
void views_fmt_si(char *buf, size_t n, double v, const char *unit)
{
    size_t len = strlen(unit);
    if (strcmp(unit, "B") == 0) {
        units_bytes(buf, n, v);
    } else if (len > 2 && strcmp(unit + len - 2, "/s") == 0) {
        char u[32];
        snprintf(u, sizeof u, "%.*s", (int)(len - 2), unit);
        units_rate(buf, n, v, u);
    } else {
        char c[40];
        units_count(c, sizeof c, v);
        snprintf(buf, n, "%s%s%s", c, *unit && !strchr(c, ' ') ? " " : "", unit);
    }
}

void views_fmt_ratio(char *buf, size_t n, double r)
{
    if (!isfinite(r) || r <= 0)
        snprintf(buf, n, "-");
    else if (r < 9.995)
        snprintf(buf, n, "%.2f×", r);
    else if (r < 99.95)
        snprintf(buf, n, "%.1f×", r);
    else
        snprintf(buf, n, "%.0f×", r);
}

void views_fmt_count(char *buf, size_t n, uint64_t v)
{
    char tmp[32];
    snprintf(tmp, sizeof tmp, "%llu", (unsigned long long)v);
    size_t len = strlen(tmp), o = 0;
    for (size_t i = 0; i < len && o + 2 < n; i++) {
        if (i && (len - i) % 3 == 0)
            buf[o++] = ',';
        buf[o++] = tmp[i];
    }
    buf[o] = '\0';
}

void views_sparkline(canvas *cv, int y, int x, int w, uint8_t el,
                     const double *v, size_t n)
{
    static const uint32_t lv[8] = {0x2581, 0x2582, 0x2583, 0x2584,
                                   0x2585, 0x2586, 0x2587, 0x2588};
    if (w <= 0 || n == 0)
        return;
    size_t first = n > (size_t)w ? n - (size_t)w : 0;
    double lo = v[first], hi = v[first];
    for (size_t i = first; i < n; i++) {
        if (v[i] < lo)
            lo = v[i];
        if (v[i] > hi)
            hi = v[i];
    }
    int cx = x;
    for (size_t i = first; i < n; i++, cx++) {
        int l = hi > lo ? (int)((v[i] - lo) / (hi - lo) * 7.0 + 0.5) : 3;
        if (l < 0)
            l = 0;
        if (l > 7)
            l = 7;
        canvas_putc(cv, y, cx, lv[l], el);
    }
}

/* "-29% (was 1.69ms)" against a kernel's previous value, or "" */
int views_fmt_change(char *buf, size_t n, const tui_kernel *k, int measured)
{
    double rel, prev;
    buf[0] = '\0';
    if (!state_change(k, measured, &rel, &prev))
        return 0;
    char a[32];
    views_fmt_time(a, sizeof a, prev);
    snprintf(buf, n, "%+.0f%% (was %s)", rel * 100, a);
    return 1;
}

/* ---- layout ---- */

void views_layout_screen(int rows, int cols, views_layout *l)
{
    memset(l, 0, sizeof *l);
    if (rows < VIEWS_MIN_ROWS || cols < VIEWS_MIN_COLS) {
        l->too_small = 1;
        l->body = (rect){0, 0, rows > 0 ? rows : 0, cols > 0 ? cols : 0};
        return;
    }
    l->header = (rect){0, 0, 1, cols};
    l->body = (rect){1, 0, rows - 3, cols};
    l->status = (rect){rows - 2, 0, 1, cols};
    l->keybar = (rect){rows - 1, 0, 1, cols};
}

void views_main_layout(const rect *body, size_t nkernels, views_main_geom *m)
{
    memset(m, 0, sizeof *m);
    if (body->h <= 0)
        return;
    m->titles = (rect){body->y, body->x, 1, body->w};
    int sum = 0;
    if (body->h >= 14) {
        /* 3 lines at least; everything the table does not need (it keeps
         * 8 rows, or all of its kernels): a tall summary shows the detail
         * view's sections (draw_summary) */
        int want_rows = (int)(nkernels < 8 ? 8 : nkernels > 1000 ? 1000
                                                                : nkernels);
        sum = body->h - 1 - want_rows;
        if (sum < 3)
            sum = 3;
    }
    int rows = body->h - 1 - sum;
    if (rows < 0)
        rows = 0;
    m->rows = (rect){body->y + 1, body->x, rows, body->w};
    m->summary = (rect){body->y + 1 + rows, body->x, sum, body->w};
}

static const struct {
    const char *title;
    int min, right; /* min width; right-aligned */
} colspec[COL_COUNT] = {
    [COL_NAME] = {"KERNEL", 10, 0},   [COL_BOUND] = {"BOUND", 7, 0},
    [COL_IDEAL] = {"IDEAL", 7, 1},    [COL_PRED] = {"PRED", 7, 1},
    [COL_MEAS] = {"MEASURED", 8, 1},  [COL_SPREAD] = {"±MAD", 6, 1},
    [COL_RATIO] = {"RATIO", 6, 1},    [COL_SPARK] = {"SAMPLES", 8, 0},
    [COL_FINDINGS] = {"FINDINGS", 8, 0}, [COL_VERDICT] = {"VERDICT", 7, 0},
};

const char *views_column_title(views_col_id id)
{
    return (unsigned)id < COL_COUNT ? colspec[id].title : "?";
}

int views_main_columns(int width, views_column *out)
{
    static const views_col_id drop[] = {COL_IDEAL, COL_SPREAD, COL_SPARK,
                                        COL_BOUND, COL_FINDINGS, COL_RATIO,
                                        COL_PRED, COL_VERDICT, COL_MEAS};
    int on[COL_COUNT], w[COL_COUNT];
    for (int i = 0; i < COL_COUNT; i++) {
        on[i] = 1;
        w[i] = colspec[i].min;
    }
    size_t d = 0;
    for (;;) {
        int total = -1;
        for (int i = 0; i < COL_COUNT; i++)
            if (on[i])
                total += w[i] + 1;
        if (total <= width || d == sizeof drop / sizeof drop[0])
            break;
        on[drop[d++]] = 0;
    }
    int total = -1;
    for (int i = 0; i < COL_COUNT; i++)
        if (on[i])
            total += w[i] + 1;
    if (total > width) { /* only the name is left: squeeze it */
        w[COL_NAME] = width;
        total = width;
    }
    int extra = width - total;
    /* grow the name to 24, the sparkline to 40, then the name to 32 */
    int grow = w[COL_NAME] < 24 ? 24 - w[COL_NAME] : 0;
    if (grow > extra)
        grow = extra;
    w[COL_NAME] += grow;
    extra -= grow;
    if (on[COL_SPARK]) {
        grow = 40 - w[COL_SPARK];
        if (grow > extra)
            grow = extra;
        w[COL_SPARK] += grow;
        extra -= grow;
    }
    grow = w[COL_NAME] < 32 ? 32 - w[COL_NAME] : 0;
    if (grow > extra)
        grow = extra;
    w[COL_NAME] += grow;
    int n = 0, x = 0;
    for (int i = 0; i < COL_COUNT; i++) {
        if (!on[i] || w[i] <= 0)
            continue;
        out[n].id = (views_col_id)i;
        out[n].x = x;
        out[n].w = w[i];
        x += w[i] + 1;
        n++;
    }
    return n;
}

/* ---- shared pieces ---- */

static const char *view_name(tui_view v)
{
    static const char *const n[VIEW_COUNT] = {"kernels", "detail", "source",
                                              "roofline", "device", "help"};
    return (unsigned)v < VIEW_COUNT ? n[v] : "?";
}

static void draw_header(canvas *cv, const rect *r, const tui_state *st)
{
    canvas_fill(cv, r->y, r->x, r->w, ' ', EL_HEADER);
    char left[96];
    snprintf(left, sizeof left, " Clockwork %s · %s ", st->version,
             view_name(st->view));
    int x = r->x;
    x += canvas_text(cv, r->y, x, r->w, EL_TITLE, left);
    /* right: profile source and sampling state; middle: device, driver */
    const report_device *d = &st->dev;
    char right[200];
    const char *samp = !st->measure && !st->sampling[0] ? "static only" : st->sampling;
    if (st->paused && st->measure)
        snprintf(right, sizeof right, " profile: %s │ paused · %s ",
                 st->have_dev && d->profile ? d->profile : "?", samp);
    else
        snprintf(right, sizeof right, " profile: %s │ %s ",
                 st->have_dev && d->profile ? d->profile : "?", samp);
    int rw = canvas_width(right);
    /* the sampling state matters more than the device name */
    if (rw > r->x + r->w - x - 12)
        rw = r->x + r->w - x - 12;
    char mid[512];
    if (st->have_dev)
        snprintf(mid, sizeof mid, "%s%s%s", d->name ? d->name : "no device",
                 d->driver ? " · " : "", d->driver ? d->driver : "");
    else
        snprintf(mid, sizeof mid, "starting…");
    int mw = r->x + r->w - rw - x - 1;
    if (mw > 0)
        canvas_text(cv, r->y, x + 1, mw, EL_HEADER, mid);
    if (rw > 0)
        canvas_text(cv, r->y, r->x + r->w - rw, rw, EL_HEADER, right);
}

static void draw_status(canvas *cv, const rect *r, const tui_state *st)
{
    canvas_fill(cv, r->y, r->x, r->w, ' ', EL_NORMAL);
    char right[160];
    snprintf(right, sizeof right, "%zu/%zu kernels · sort %s%s%s%s ",
             st->norder, st->nk, state_sort_name(st->sort),
             st->sort_desc ? " (rev)" : "", st->filter[0] ? " · filter " : "",
             st->filter);
    int rw = canvas_width(right);
    if (rw > r->w / 2)
        rw = r->w / 2;
    if (st->filter_edit) {
        char f[96];
        snprintf(f, sizeof f, " Filter: %s_", st->filter);
        canvas_text(cv, r->y, r->x, r->w - rw - 1, EL_FILTER, f);
    } else if (st->status[0]) {
        canvas_text(cv, r->y, r->x + 1, r->w - rw - 2, EL_STATUS, st->status);
    }
    canvas_text_right(cv, r->y, r->x + r->w - rw, rw, EL_DIM, right);
}

static void draw_too_small(canvas *cv, int rows, int cols)
{
    char a[64], b[64];
    snprintf(a, sizeof a, "Terminal too small: %dx%d", cols, rows);
    snprintf(b, sizeof b, "need %dx%d", VIEWS_MIN_COLS, VIEWS_MIN_ROWS);
    if (rows <= 0 || cols <= 0)
        return;
    int y = rows / 2 - (rows > 1);
    int wa = canvas_width(a), wb = canvas_width(b);
    int xa = wa < cols ? (cols - wa) / 2 : 0;
    int xb = wb < cols ? (cols - wb) / 2 : 0;
    canvas_text(cv, y, xa, wa < cols ? wa : cols, EL_WARN, a);
    if (y + 1 < rows)
        canvas_text(cv, y + 1, xb, wb < cols ? wb : cols, EL_DIM, b);
}

/* ---- main view ---- */

int views_sev_el(severity s)
{
    return s == SEV_ERROR ? EL_ERROR : s == SEV_WARNING ? EL_WARN : EL_NOTE;
}

uint8_t views_verdict_el(const tui_kernel *k)
{
    if (k->state == KS_FAILED)
        return EL_ERROR;
    if (!k->kr.divergence.valid)
        return EL_DIM;
    switch (k->kr.divergence.status) {
    case DIV_OK: return EL_GOOD;
    case DIV_SLOWER:
    case DIV_FASTER: return EL_WARN;
    default: return EL_DIM;
    }
}

const char *views_verdict_text(const tui_kernel *k)
{
    if (k->state == KS_FAILED)
        return "failed";
    if (k->state == KS_MEASURING)
        return "running";
    if (k->state == KS_NOTRUN)
        return "not run";
    if (k->kr.divergence.valid)
        return div_status_name(k->kr.divergence.status);
    if (k->state == KS_PENDING || k->state == KS_CHECKING)
        return "…";
    return "-";
}

static void draw_findings_cell(canvas *cv, int y, int x, int w,
                               const kernel_report *kr, int sel)
{
    static const char tag[3] = {'N', 'W', 'E'};
    int cx = x;
    for (int s = SEV_ERROR; s >= SEV_NOTE; s--) {
        size_t n = kernel_report_count(kr, (severity)s);
        if (!n)
            continue;
        char t[16];
        snprintf(t, sizeof t, "%zu%c", n > 99 ? (size_t)99 : n, tag[s]);
        int tw = canvas_width(t);
        if (cx + tw > x + w)
            break;
        cx += canvas_text(cv, y, cx, tw, sel ? EL_SELECTED : views_sev_el((severity)s),
                          t);
        if (cx < x + w)
            cx++;
    }
    if (cx == x)
        canvas_text(cv, y, x, w, sel ? EL_SELECTED : EL_DIM,
                    kr->prediction.valid || kr->nfindings ? "none" : "");
}

static void draw_kernel_row(canvas *cv, int y, int x0, const views_column *c,
                            int nc, const tui_kernel *k, int sel)
{
    const kernel_report *kr = &k->kr;
    char buf[64];
    for (int i = 0; i < nc; i++) {
        int x = x0 + c[i].x, w = c[i].w;
        uint8_t el = EL_NORMAL;
        const char *t = buf;
        buf[0] = '\0';
        switch (c[i].id) {
        case COL_NAME:
            t = kr->name;
            break;
        case COL_BOUND:
            if (kr->input_error) {
                t = "invalid";
                el = EL_ERROR;
            } else if (kr->prediction.valid && kr->prediction.bound) {
                t = kr->prediction.bound;
            } else {
                t = k->state <= KS_CHECKING ? "…" : "-";
                el = EL_DIM;
            }
            break;
        case COL_IDEAL:
        case COL_PRED:
            if (kr->prediction.valid)
                views_fmt_time(buf, sizeof buf,
                               c[i].id == COL_IDEAL ? kr->prediction.ideal_time_us
                                                    : kr->prediction.time_us);
            else
                t = "-", el = EL_DIM;
            if (c[i].id == COL_PRED && kr->prediction.valid)
                el = EL_PREDICTED;
            break;
        case COL_MEAS: {
            double med;
            if (state_median(k, &med)) {
                views_fmt_time(buf, sizeof buf, med);
                el = EL_MEASURED;
            } else if (k->state == KS_FAILED) {
                t = "error";
                el = EL_ERROR;
            } else {
                t = k->state == KS_MEASURING ? "…" : "-";
                el = EL_DIM;
            }
            break;
        }
        case COL_SPREAD: {
            const measurement *m = &kr->measurement;
            if (k->state != KS_MEASURING && m->valid && m->median_us > 0)
                snprintf(buf, sizeof buf, "%.1f%%",
                         100.0 * m->mad_us / m->median_us);
            else
                t = "-", el = EL_DIM;
            break;
        }
        case COL_RATIO:
            if (kr->divergence.valid && kr->divergence.status != DIV_UNKNOWN) {
                views_fmt_ratio(buf, sizeof buf, kr->divergence.ratio);
                el = views_verdict_el(k);
            } else {
                t = "-", el = EL_DIM;
            }
            break;
        case COL_SPARK: {
            double v[SPARK_N];
            size_t n = state_recent(k, v, SPARK_N);
            views_sparkline(cv, y, x, w, sel ? EL_SELECTED : EL_SPARK, v, n);
            continue;
        }
        case COL_FINDINGS:
            draw_findings_cell(cv, y, x, w, kr, sel);
            continue;
        case COL_VERDICT:
            t = views_verdict_text(k);
            el = views_verdict_el(k);
            break;
        case COL_COUNT:
            break;
        }
        if (sel)
            el = EL_SELECTED;
        if (colspec[c[i].id].right)
            canvas_text_right(cv, y, x, w, el, t);
        else
            canvas_text(cv, y, x, w, el, t);
    }
}

static void draw_summary(canvas *cv, const rect *r, const tui_state *st,
                         const tui_kernel *k);

tui_kernel *views_selected_kernel(canvas *cv, const rect *body, tui_state *st)
{
    tui_kernel *k = state_selected(st);
    if (!k)
        canvas_text(cv, body->y + 1, body->x + 2, body->w - 2, EL_DIM, "no kernel selected");
    return k;
}

void views_render_main(canvas *cv, const rect *body, tui_state *st)
{
    views_main_geom ml;
    views_main_layout(body, st->norder, &ml);
    views_column c[COL_COUNT];
    int inner = body->w - 2;
    int nc = views_main_columns(inner, c);
    int x0 = body->x + 1;
    if (ml.titles.h > 0) {
        canvas_fill(cv, ml.titles.y, body->x, body->w, ' ', EL_COLUMN);
        static const views_col_id sorted_col[SORT_COUNT] = {
            [SORT_PLAN] = COL_COUNT, [SORT_NAME] = COL_NAME,
            [SORT_PREDICTED] = COL_PRED, [SORT_MEASURED] = COL_MEAS,
            [SORT_RATIO] = COL_RATIO, [SORT_FINDINGS] = COL_FINDINGS};
        for (int i = 0; i < nc; i++) {
            const char *t = colspec[c[i].id].title;
            char marked[32];
            if (c[i].id == COL_SPREAD && !cv->utf8)
                t = "+-MAD";
            if ((unsigned)st->sort < SORT_COUNT &&
                sorted_col[st->sort] == c[i].id) {
                /* the sort column carries the direction: largest first
                 * unless reversed (names: A-Z unless reversed) */
                int down = st->sort == SORT_NAME ? st->sort_desc
                                                 : !st->sort_desc;
                const char *arrow = down ? "▼" : "▲";
                if (c[i].id == COL_MEAS)
                    t = "MEAS";
                snprintf(marked, sizeof marked, colspec[c[i].id].right
                                                    ? "%s%s" : "%2$s%1$s",
                         arrow, t);
                t = marked;
            }
            if (colspec[c[i].id].right)
                canvas_text_right(cv, ml.titles.y, x0 + c[i].x, c[i].w,
                                  EL_COLUMN, t);
            else
                canvas_text(cv, ml.titles.y, x0 + c[i].x, c[i].w, EL_COLUMN, t);
        }
    }
    int h = ml.rows.h;
    if (st->norder == 0 && h > 0) {
        canvas_text(cv, ml.rows.y, x0, inner, EL_DIM,
                    st->nk ? "no kernel matches the filter (Esc in / clears it)"
                           : "no kernels yet");
    }
    if (h > 0) {
        if ((int)st->sel < st->top)
            st->top = (int)st->sel;
        if ((int)st->sel >= st->top + h)
            st->top = (int)st->sel - h + 1;
        if (st->top > (int)st->norder - h)
            st->top = (int)st->norder - h;
        if (st->top < 0)
            st->top = 0;
        st->list_y = ml.rows.y; /* for mouse clicks */
        st->list_h = h;
        st->list_first = st->top;
        for (int r = 0; r < h; r++) {
            size_t pos = (size_t)(st->top + r);
            if (pos >= st->norder)
                break;
            int sel = pos == st->sel;
            int y = ml.rows.y + r;
            if (sel)
                canvas_fill(cv, y, body->x, body->w, ' ', EL_SELECTED);
            draw_kernel_row(cv, y, x0, c, nc, &st->k[st->order[pos]], sel);
        }
        /* scroll hints when rows are hidden above or below */
        if (st->top > 0)
            canvas_putc(cv, ml.rows.y, body->x + body->w - 1, 0x25B2, EL_DIM);
        if (st->top + h < (int)st->norder)
            canvas_putc(cv, ml.rows.y + h - 1, body->x + body->w - 1, 0x25BC,
                        EL_DIM);
    }
    draw_summary(cv, &ml.summary, st, state_selected(st));
}

/* ---- the main view's summary of the selected kernel ---- */

static const prediction *sort_pr; /* qsort has no context argument */

static int cmp_terms(const void *a, const void *b)
{
    const pred_term *x = &sort_pr->terms[*(const size_t *)a];
    const pred_term *y = &sort_pr->terms[*(const size_t *)b];
    const char *bound = sort_pr->bound;
    int xb = bound && x->name && strcmp(bound, x->name) == 0;
    int yb = bound && y->name && strcmp(bound, y->name) == 0;
    if (xb != yb)
        return yb - xb;
    if (x->time_us != y->time_us)
        return x->time_us < y->time_us ? 1 : -1;
    return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

size_t views_terms_order(const prediction *pr, size_t *idx, size_t max)
{
    size_t n = pr->nterms < max ? pr->nterms : max;
    for (size_t i = 0; i < n; i++)
        idx[i] = i;
    sort_pr = pr;
    qsort(idx, n, sizeof *idx, cmp_terms);
    return n;
}

static void summary_terms(pane *p, const prediction *pr)
{
    /* one line: each term as "name time" with a small bar, the binding
     * term first, then largest first, so that a narrow screen cuts the
     * cheap ones */
    if (!pr->valid || !pr->nterms || p->y >= p->cv.rows)
        return;
    double mx = 0;
    for (size_t i = 0; i < pr->nterms; i++)
        if (pr->terms[i].time_us > mx)
            mx = pr->terms[i].time_us;
    size_t order[64];
    size_t n = views_terms_order(pr, order, 64);
    int x = 1;
    canvas_text(&p->cv, p->y, x, 8, EL_DIM, "terms");
    x += 8;
    for (size_t oi = 0; oi < n; oi++) {
        const pred_term *t = &pr->terms[order[oi]];
        char tm[32], item[64];
        views_fmt_time(tm, sizeof tm, t->time_us);
        snprintf(item, sizeof item, "%s %s", t->name ? t->name : "?", tm);
        int bw = mx > 0 ? (int)(t->time_us / mx * 6 + 0.5) : 0;
        int iw = canvas_width(item);
        if (x + iw + 1 + 6 + 2 > p->cv.cols) {
            char more[32];
            snprintf(more, sizeof more, "+%zu", n - oi);
            if (x + canvas_width(more) <= p->cv.cols)
                canvas_text(&p->cv, p->y, x, canvas_width(more), EL_DIM, more);
            break;
        }
        int is_bound = pr->bound && t->name && strcmp(pr->bound, t->name) == 0;
        x += canvas_text(&p->cv, p->y, x, iw, is_bound ? EL_WARN : EL_NORMAL,
                         item);
        x++;
        if (bw > 0)
            canvas_fill(&p->cv, p->y, x, bw, 0x2588, EL_BAR);
        else if (t->time_us > 0)
            canvas_putc(&p->cv, p->y, x, 0x258F, EL_BAR);
        x += 6 + 2;
    }
    p->y++;
}

static void draw_summary(canvas *cv, const rect *r, const tui_state *st,
                         const tui_kernel *k)
{
    if (r->h <= 0)
        return;
    canvas_fill(cv, r->y, r->x, r->w, 0x2500, EL_DIM);
    if (!k)
        return;
    const kernel_report *kr = &k->kr;
    char line[1024];
    snprintf(line, sizeof line, " %s ", kr->name ? kr->name : "?");
    canvas_text(cv, r->y, r->x + 1, r->w - 2, EL_SECTION, line);
    if (r->h < 2 || r->w < 8)
        return;
    /* tall: the detail view's findings, prediction and measurement below
     * the verdict, instead of one line each */
    int tall = r->h >= 24;
    pane p;
    pane_init(&p, r->w - 1, r->h - 1 + 8, cv->utf8);
    /* the verdict or why there is none */
    const measurement *m = &kr->measurement;
    if (m->error) {
        snprintf(line, sizeof line, "failed: %s", m->error);
        pane_wrap(&p, 1, 2, EL_ERROR, line);
    } else if (kr->divergence.valid && kr->divergence.explanation) {
        snprintf(line, sizeof line, "%s: %s",
                 k->state == KS_NOTRUN ? "not run"
                                       : div_status_name(kr->divergence.status),
                 kr->divergence.explanation);
        pane_wrap(&p, 1, 2, views_verdict_el(k), line);
    } else {
        char t[32] = "-", mm[32] = "-";
        double med;
        if (kr->prediction.valid)
            views_fmt_time(t, sizeof t, kr->prediction.time_us);
        if (state_median(k, &med))
            views_fmt_time(mm, sizeof mm, med);
        snprintf(line, sizeof line, "%s · predicted %s · measured %s%s",
                 state_kstate_name(k->state), t, mm,
                 st->measure ? "" : " (static only)");
        pane_wrap(&p, 1, 2, EL_DIM, line);
    }
    /* findings, worst first, one line each */
    for (int s = SEV_ERROR; s >= SEV_NOTE && !tall; s--)
        for (size_t i = 0; i < kr->nfindings && p.y < p.cv.rows; i++) {
            const finding *f = &kr->findings[i];
            if ((int)f->sev != s)
                continue;
            if (f->line)
                snprintf(line, sizeof line, "%s %s (line %d): %s",
                         severity_name(f->sev), f->id ? f->id : "?", f->line,
                         f->message ? f->message : "");
            else
                snprintf(line, sizeof line, "%s %s: %s", severity_name(f->sev),
                         f->id ? f->id : "?", f->message ? f->message : "");
            canvas_text(&p.cv, p.y, 1, p.cv.cols - 1, (uint8_t)views_sev_el(f->sev),
                        line);
            p.y++;
        }
    /* what the last edit or re-run moved */
    char c1[96], c2[96];
    int h1 = views_fmt_change(c1, sizeof c1, k, 0), h2 = views_fmt_change(c2, sizeof c2, k, 1);
    if ((h1 || h2) && p.y < p.cv.rows) {
        snprintf(line, sizeof line, "%s%s%s%s%s", h1 ? "predicted " : "",
                 h1 ? c1 : "", h1 && h2 ? " · " : "", h2 ? "measured " : "",
                 h2 ? c2 : "");
        canvas_text(&p.cv, p.y, 1, 8, EL_DIM, "change");
        canvas_text(&p.cv, p.y, 9, p.cv.cols - 9, EL_WARN, line);
        p.y++;
    }
    if (tall) {
        views_detail_findings(&p, k);
        views_detail_prediction(&p, st, k);
        if (st->measure)
            views_detail_measurement(&p, st, k);
        views_detail_counts(&p, k);
        rect body = {r->y + 1, r->x, r->h - 1, r->w - 1};
        pane_blit(cv, &body, &p, 0);
        canvas_free(&p.cv);
        return;
    }
    summary_terms(&p, &kr->prediction);
    /* the latest samples, and the counters in one line */
    double v[SPARK_N];
    size_t n = state_recent(k, v, SPARK_N);
    if (n > 0 && p.y < p.cv.rows && p.cv.cols > 30) {
        double lo = v[0], hi = v[0];
        for (size_t i = 0; i < n; i++) {
            lo = v[i] < lo ? v[i] : lo;
            hi = v[i] > hi ? v[i] : hi;
        }
        char a[32], b[32];
        views_fmt_time(a, sizeof a, lo);
        views_fmt_time(b, sizeof b, hi);
        canvas_text(&p.cv, p.y, 1, 8, EL_DIM, "samples");
        int w = p.cv.cols - 9 - 20;
        if (w > (int)n)
            w = (int)n;
        views_sparkline(&p.cv, p.y, 9, w, EL_SPARK, v, n);
        snprintf(line, sizeof line, "%s … %s", a, b);
        canvas_text(&p.cv, p.y, 9 + w + 1, p.cv.cols - 10 - w, EL_DIM, line);
        p.y++;
    }
    if (m->ncounters && p.y < p.cv.rows && p.cv.cols > 20) {
        size_t o = (size_t)snprintf(line, sizeof line, "per dispatch: ");
        for (size_t i = 0; i < m->ncounters && o + 80 < sizeof line; i++) {
            const counter_value *c = &m->counters[i];
            char val[32];
            if (c->available)
                units_counter(val, sizeof val, c->name, c->value);
            else
                snprintf(val, sizeof val, "n/a");
            o += (size_t)snprintf(line + o, sizeof line - o, "%s%s %s",
                                  i ? " · " : "", c->name ? c->name : "?",
                                  val);
        }
        canvas_text(&p.cv, p.y, 1, 8, EL_DIM, "counters");
        canvas_text(&p.cv, p.y, 10, p.cv.cols - 10, EL_NORMAL, line);
        p.y++;
    }
    rect body = {r->y + 1, r->x, r->h - 1, r->w - 1};
    pane_blit(cv, &body, &p, 0);
    canvas_free(&p.cv);
}

/* ---- the whole screen ---- */

void views_render(canvas *cv, tui_state *st)
{
    views_layout l;
    st->list_y = st->list_h = st->list_first = 0;
    canvas_clear(cv, EL_NORMAL);
    st->rows = cv->rows;
    st->cols = cv->cols;
    views_layout_screen(cv->rows, cv->cols, &l);
    if (l.too_small) {
        draw_too_small(cv, cv->rows, cv->cols);
        return;
    }
    if (st->sel >= st->norder && st->norder)
        st->sel = st->norder - 1;
    draw_header(cv, &l.header, st);
    switch (st->view) {
    case VIEW_MAIN: views_render_main(cv, &l.body, st); break;
    case VIEW_DETAIL: views_render_detail(cv, &l.body, st); break;
    case VIEW_SOURCE: views_render_source(cv, &l.body, st); break;
    case VIEW_ROOFLINE: roofline_render(cv, &l.body, st); break;
    case VIEW_DEVICE: views_render_device(cv, &l.body, st); break;
    case VIEW_HELP: views_render_help(cv, &l.body, st); break;
    case VIEW_COUNT: break;
    }
    draw_status(cv, &l.status, st);
    views_draw_keybar(cv, &l.keybar, st);
}
