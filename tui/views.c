/* views.c - pure rendering of the main, detail, source, device and help
 * views (the roofline is in roofline.c).  See views.h. */
#include "views.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "theme.h"

/* ---- formatting ---- */

void views_fmt_time(char *buf, size_t n, double us)
{
    if (!(us >= 0) || !isfinite(us))
        snprintf(buf, n, "-");
    else if (us < 10)
        snprintf(buf, n, "%.2fµs", us);
    else if (us < 100)
        snprintf(buf, n, "%.1fµs", us);
    else if (us < 999.5)
        snprintf(buf, n, "%.0fµs", us);
    else if (us < 9995)
        snprintf(buf, n, "%.2fms", us / 1e3);
    else if (us < 99950)
        snprintf(buf, n, "%.1fms", us / 1e3);
    else if (us < 999500)
        snprintf(buf, n, "%.0fms", us / 1e3);
    else if (us < 9.995e7)
        snprintf(buf, n, "%.2fs", us / 1e6);
    else
        snprintf(buf, n, "%.0fs", us / 1e6);
}

void views_fmt_si(char *buf, size_t n, double v, const char *unit)
{
    static const char *const pre[] = {"", "k", "M", "G", "T", "P", "E"};
    if (!isfinite(v)) {
        snprintf(buf, n, "-");
        return;
    }
    int i = 0;
    double a = fabs(v);
    while (a >= 999.5 && i < 6) {
        a /= 1000;
        v /= 1000;
        i++;
    }
    const char *sp = *unit || i ? " " : ""; /* "12 B", "1.5 M", "12" */
    if (i == 0 && a == floor(a))
        snprintf(buf, n, "%.0f%s%s", v, sp, unit);
    else
        snprintf(buf, n, a < 9.995 ? "%.2f%s%s%s" : a < 99.95 ? "%.1f%s%s%s"
                                                              : "%.0f%s%s%s",
                 v, sp, pre[i], unit);
}

static void fmt_ratio(char *buf, size_t n, double r)
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

static void fmt_count(char *buf, size_t n, uint64_t v)
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
static int fmt_change(char *buf, size_t n, const tui_kernel *k, int measured)
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
        /* 3 lines at least; more when the table leaves room, but the table
         * keeps 8 rows (or all of its kernels) */
        int want_rows = (int)(nkernels < 8 ? 8 : nkernels > 1000 ? 1000
                                                                : nkernels);
        sum = body->h - 1 - want_rows;
        if (sum > 16)
            sum = 16;
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
    const char *samp = !st->measure ? "static only" : st->sampling;
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

typedef struct keyhelp {
    const char *key, *label;
} keyhelp;

/* Arrows have no ASCII look-alike worth reading: words instead. */
static const char *key_text(const char *k, int utf8)
{
    if (utf8)
        return k;
    if (strcmp(k, "←→") == 0)
        return "[ ]";
    if (strcmp(k, "↑↓") == 0)
        return "j/k";
    return k;
}

static void draw_keybar(canvas *cv, const rect *r, const tui_state *st)
{
    static const keyhelp kmain[] = {
        {"?", "Help"}, {"Enter", "Detail"}, {"Tab", "View"},
        {"/", "Filter"}, {"s", "Sort"}, {"p", "Pause"}, {"r", "Rerun"},
        {"t", "Theme"}, {"q", "Quit"}, {NULL, NULL}};
    static const keyhelp kdetail[] = {
        {"?", "Help"}, {"←→", "Kernel"}, {"↑↓", "Scroll"},
        {"Enter", "Source"}, {"Tab", "View"}, {"Esc", "Back"},
        {"t", "Theme"}, {"q", "Quit"}, {NULL, NULL}};
    static const keyhelp ksource[] = {
        {"?", "Help"}, {"↑↓", "Line"}, {"←→", "Kernel"}, {"PgUp/Dn", "Page"},
        {"Tab", "View"}, {"Esc", "Back"}, {"q", "Quit"}, {NULL, NULL}};
    static const keyhelp kroof[] = {
        {"?", "Help"}, {"↑↓", "Kernel"}, {"Enter", "Detail"}, {"Tab", "View"},
        {"Esc", "Back"}, {"t", "Theme"}, {"q", "Quit"}, {NULL, NULL}};
    static const keyhelp kdev[] = {
        {"?", "Help"}, {"↑↓", "Scroll"}, {"Tab", "View"}, {"Esc", "Back"},
        {"q", "Quit"}, {NULL, NULL}};
    static const keyhelp khelp[] = {
        {"any key", "Back"}, {"↑↓", "Scroll"}, {"q", "Quit"}, {NULL, NULL}};
    static const keyhelp kfilter[] = {
        {"Enter", "Apply"}, {"Esc", "Clear"}, {"Backspace", "Delete"},
        {NULL, NULL}};
    const keyhelp *k = kmain;
    if (st->filter_edit)
        k = kfilter;
    else if (st->view == VIEW_DETAIL)
        k = kdetail;
    else if (st->view == VIEW_SOURCE)
        k = ksource;
    else if (st->view == VIEW_ROOFLINE)
        k = kroof;
    else if (st->view == VIEW_DEVICE)
        k = kdev;
    else if (st->view == VIEW_HELP)
        k = khelp;
    canvas_fill(cv, r->y, r->x, r->w, ' ', EL_KEYLABEL);
    /* two blanks between entries when they all fit so, else one */
    int total = 1, gap = 2;
    for (const keyhelp *q = k; q->key; q++)
        total += canvas_width(key_text(q->key, cv->utf8)) + 1 +
                 canvas_width(q->label) + 2;
    if (total > r->w)
        gap = 1;
    int x = r->x + 1;
    for (; k->key; k++) {
        const char *key = key_text(k->key, cv->utf8);
        int kw = canvas_width(key), lw = canvas_width(k->label);
        if (x + kw + 1 + lw > r->x + r->w)
            break;
        x += canvas_text(cv, r->y, x, kw, EL_KEY, key);
        x++;
        x += canvas_text(cv, r->y, x, lw, EL_KEYLABEL, k->label);
        x += x + gap <= r->x + r->w ? gap : r->x + r->w - x;
    }
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

static int sev_el(severity s)
{
    return s == SEV_ERROR ? EL_ERROR : s == SEV_WARNING ? EL_WARN : EL_NOTE;
}

static uint8_t verdict_el(const tui_kernel *k)
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

static const char *verdict_text(const tui_kernel *k)
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
        cx += canvas_text(cv, y, cx, tw, sel ? EL_SELECTED : sev_el((severity)s),
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
                fmt_ratio(buf, sizeof buf, kr->divergence.ratio);
                el = verdict_el(k);
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
            t = verdict_text(k);
            el = verdict_el(k);
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

static void render_main(canvas *cv, const rect *body, tui_state *st)
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

/* ---- panes: tall off-screen canvases for scrolling views ---- */

typedef struct pane {
    canvas cv;
    int y; /* next free line */
} pane;

static void pane_init(pane *p, int w, int h, int utf8)
{
    canvas_init(&p->cv, h, w, utf8);
    p->y = 0;
}

static void p_blank(pane *p)
{
    p->y++;
}

static void p_section(pane *p, const char *title)
{
    if (p->y >= p->cv.rows)
        return;
    if (p->y > 0)
        p->y++;
    if (p->y >= p->cv.rows)
        return;
    canvas_fill(&p->cv, p->y, 0, p->cv.cols, 0x2500, EL_DIM);
    char t[128];
    snprintf(t, sizeof t, " %s ", title);
    int tw = canvas_width(t);
    if (p->cv.cols > 3)
        canvas_text(&p->cv, p->y, 2, tw < p->cv.cols - 2 ? tw : p->cv.cols - 2,
                    EL_SECTION, t);
    p->y++;
}

/* Word-wrapped text from column indent; continuation lines indent+hang. */
static void p_wrap(pane *p, int indent, int hang, uint8_t el, const char *s)
{
    int w = p->cv.cols - indent;
    if (!s || w <= 4)
        return;
    int first = 1;
    while (*s && p->y < p->cv.rows) {
        int avail = first ? w : w - hang;
        int x = first ? indent : indent + hang;
        /* take as many code points as fit, break at the last space */
        const char *q = s, *brk = NULL;
        int n = 0;
        while (*q && *q != '\n' && n < avail) {
            uint32_t cp;
            int b = canvas_decode(q, &cp);
            if (cp == ' ')
                brk = q;
            q += b;
            n++;
        }
        const char *end = q;
        if (*q && *q != '\n' && brk && brk > s)
            end = brk;
        char line[1024];
        size_t len = (size_t)(end - s);
        if (len >= sizeof line)
            len = sizeof line - 1;
        memcpy(line, s, len);
        line[len] = '\0';
        canvas_text(&p->cv, p->y, x, avail, el, line);
        p->y++;
        s = end;
        while (*s == ' ' || *s == '\n')
            s++;
        first = 0;
    }
}

static void p_kv(pane *p, int indent, const char *key, uint8_t el,
                 const char *val)
{
    if (p->y >= p->cv.rows)
        return;
    int kw = 14;
    canvas_text(&p->cv, p->y, indent, kw, EL_DIM, key);
    if (p->cv.cols - indent - kw > 0) {
        int save = p->y;
        p_wrap(p, indent + kw, 0, el, val);
        if (p->y == save)
            p->y++;
    } else {
        p->y++;
    }
}

/* Copy pane lines [scroll, scroll + r.h) into the screen rect. */
static void blit(canvas *cv, const rect *r, const pane *p, int scroll)
{
    for (int i = 0; i < r->h; i++) {
        int py = scroll + i;
        if (py >= p->y || py >= p->cv.rows)
            break;
        for (int x = 0; x < r->w && x < p->cv.cols; x++) {
            const canvas_cell *s = &p->cv.cells[(size_t)py * (size_t)p->cv.cols +
                                                (size_t)x];
            canvas_putc(cv, r->y + i, r->x + x, s->ch, s->el);
        }
    }
}

static int clamp_scroll(tui_state *st, tui_view v, int content, int h)
{
    int max = content - h;
    if (max < 0)
        max = 0;
    if (st->scroll[v] > max)
        st->scroll[v] = max;
    if (st->scroll[v] < 0)
        st->scroll[v] = 0;
    return st->scroll[v];
}

static void scrollbar(canvas *cv, const rect *r, int scroll, int content)
{
    if (content <= r->h || r->h < 3 || r->w < 2)
        return;
    int x = r->x + r->w - 1;
    int th = r->h * r->h / content;
    if (th < 1)
        th = 1;
    int ty = (int)((long)scroll * (r->h - th) / (content - r->h));
    for (int i = 0; i < r->h; i++)
        canvas_putc(cv, r->y + i, x, i >= ty && i < ty + th ? 0x2588 : 0x2502,
                    EL_DIM);
}

/* ---- the main view's summary of the selected kernel ---- */

static void summary_terms(pane *p, const prediction *pr)
{
    /* one line: each term as "name time" with a small bar, largest first */
    if (!pr->valid || !pr->nterms || p->y >= p->cv.rows)
        return;
    double mx = 0;
    for (size_t i = 0; i < pr->nterms; i++)
        if (pr->terms[i].time_us > mx)
            mx = pr->terms[i].time_us;
    int x = 1;
    canvas_text(&p->cv, p->y, x, 8, EL_DIM, "terms");
    x += 8;
    for (size_t i = 0; i < pr->nterms; i++) {
        const pred_term *t = &pr->terms[i];
        char tm[32], item[64];
        views_fmt_time(tm, sizeof tm, t->time_us);
        snprintf(item, sizeof item, "%s %s", t->name ? t->name : "?", tm);
        int bw = mx > 0 ? (int)(t->time_us / mx * 6 + 0.5) : 0;
        int iw = canvas_width(item);
        if (x + iw + 1 + 6 + 2 > p->cv.cols)
            break;
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
    pane p;
    pane_init(&p, r->w - 1, r->h - 1 + 8, cv->utf8);
    /* the verdict or why there is none */
    const measurement *m = &kr->measurement;
    if (m->error) {
        snprintf(line, sizeof line, "failed: %s", m->error);
        p_wrap(&p, 1, 2, EL_ERROR, line);
    } else if (kr->divergence.valid && kr->divergence.explanation) {
        snprintf(line, sizeof line, "%s: %s",
                 k->state == KS_NOTRUN ? "not run"
                                       : div_status_name(kr->divergence.status),
                 kr->divergence.explanation);
        p_wrap(&p, 1, 2, verdict_el(k), line);
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
        p_wrap(&p, 1, 2, EL_DIM, line);
    }
    /* findings, worst first, one line each */
    for (int s = SEV_ERROR; s >= SEV_NOTE; s--)
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
            canvas_text(&p.cv, p.y, 1, p.cv.cols - 1, (uint8_t)sev_el(f->sev),
                        line);
            p.y++;
        }
    /* what the last edit or re-run moved */
    char c1[96], c2[96];
    int h1 = fmt_change(c1, sizeof c1, k, 0), h2 = fmt_change(c2, sizeof c2, k, 1);
    if ((h1 || h2) && p.y < p.cv.rows) {
        snprintf(line, sizeof line, "%s%s%s%s%s", h1 ? "predicted " : "",
                 h1 ? c1 : "", h1 && h2 ? " · " : "", h2 ? "measured " : "",
                 h2 ? c2 : "");
        canvas_text(&p.cv, p.y, 1, 8, EL_DIM, "change");
        canvas_text(&p.cv, p.y, 9, p.cv.cols - 9, EL_WARN, line);
        p.y++;
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
        size_t o = 0;
        line[0] = '\0';
        for (size_t i = 0; i < m->ncounters && o + 80 < sizeof line; i++) {
            const counter_value *c = &m->counters[i];
            char val[32];
            if (c->available)
                views_fmt_si(val, sizeof val, c->value, "");
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
    blit(cv, &body, &p, 0);
    canvas_free(&p.cv);
}

/* ---- detail view ---- */

static void detail_head(pane *p, const tui_kernel *k)
{
    const kernel_report *kr = &k->kr;
    char b[512];
    snprintf(b, sizeof b, "%s", kr->name ? kr->name : "?");
    canvas_text(&p->cv, p->y, 1, p->cv.cols - 1, EL_SECTION, b);
    p->y++;
    snprintf(b, sizeof b, "%s kernel · %s%s%s · %s", kr->kind ? kr->kind : "gpu",
             kr->shader ? kr->shader : "-", kr->entry ? ":" : "",
             kr->entry ? kr->entry : "", state_kstate_name(k->state));
    p_wrap(p, 1, 2, EL_DIM, b);
    if (kr->workgroups[0]) {
        char inv[32];
        fmt_count(inv, sizeof inv, (uint64_t)kr->workgroups[0] *
                      kr->workgroups[1] * kr->workgroups[2] *
                      (kr->local_size[0] ? kr->local_size[0] : 1) *
                      (kr->local_size[1] ? kr->local_size[1] : 1) *
                      (kr->local_size[2] ? kr->local_size[2] : 1));
        snprintf(b, sizeof b, "workgroups %u×%u×%u · local size %u×%u×%u · "
                 "%s invocations", kr->workgroups[0], kr->workgroups[1],
                 kr->workgroups[2], kr->local_size[0], kr->local_size[1],
                 kr->local_size[2], inv);
        p_wrap(p, 1, 2, EL_DIM, b);
    }
}

static void detail_prediction(pane *p, const tui_state *st,
                              const tui_kernel *k)
{
    const prediction *pr = &k->kr.prediction;
    char a[32], b[32], c[64], d[64], line[512];
    p_section(p, "Prediction");
    if (!pr->valid) {
        p_wrap(p, 1, 0, EL_DIM, k->state <= KS_CHECKING
                                    ? "analysing…"
                                    : "no prediction (see the findings)");
        return;
    }
    views_fmt_time(a, sizeof a, pr->time_us);
    views_fmt_time(b, sizeof b, pr->ideal_time_us);
    snprintf(line, sizeof line, "%s (ideal %s) · %s-bound · %s", a, b,
             pr->bound ? pr->bound : "?", confidence_name(pr->conf));
    p_kv(p, 1, "time", EL_PREDICTED, line);
    char chg[96];
    if (fmt_change(chg, sizeof chg, k, 0)) {
        snprintf(line, sizeof line, "%s since the last change", chg);
        p_kv(p, 1, "changed", EL_WARN, line);
    }
    views_fmt_si(c, sizeof c, pr->flops, "FLOP");
    views_fmt_si(d, sizeof d, pr->bytes, "B");
    char inv[32];
    fmt_count(inv, sizeof inv, pr->invocations);
    if (pr->invocations)
        snprintf(line, sizeof line, "%s · %s compulsory · %s invocations", c,
                 d, inv);
    else
        snprintf(line, sizeof line, "%s · %s compulsory", c, d);
    p_kv(p, 1, "work", EL_NORMAL, line);
    if (pr->time_us > 0 && pr->bytes > 0) {
        views_fmt_si(c, sizeof c, pr->bytes / pr->time_us * 1e6, "B/s");
        views_fmt_si(d, sizeof d, pr->flops / pr->time_us * 1e6, "FLOP/s");
        snprintf(line, sizeof line, "%s · %s", c, d);
        p_kv(p, 1, "at that time", EL_NORMAL, line);
    }
    (void)st;
    if (pr->nterms) {
        double mx = 0;
        for (size_t i = 0; i < pr->nterms; i++)
            if (pr->terms[i].time_us > mx)
                mx = pr->terms[i].time_us;
        if (p->y < p->cv.rows) {
            canvas_text(&p->cv, p->y, 1, 14, EL_DIM, "terms");
        }
        int bw = p->cv.cols - 1 - 14 - 9 - 9;
        for (size_t i = 0; i < pr->nterms && p->y < p->cv.rows; i++) {
            const pred_term *t = &pr->terms[i];
            int x = 15;
            int is_bound = pr->bound && t->name && strcmp(pr->bound, t->name) == 0;
            canvas_text(&p->cv, p->y, x, 8, is_bound ? EL_WARN : EL_NORMAL,
                        t->name);
            x += 9;
            views_fmt_time(a, sizeof a, t->time_us);
            canvas_text_right(&p->cv, p->y, x, 8, EL_NORMAL, a);
            x += 9;
            if (bw > 0 && mx > 0) {
                double f = t->time_us / mx * bw;
                int full = (int)f;
                if (full > bw)
                    full = bw;
                if (full > 0)
                    canvas_fill(&p->cv, p->y, x, full, 0x2588, EL_BAR);
                else if (t->time_us > 0)
                    canvas_putc(&p->cv, p->y, x, 0x258F, EL_BAR);
            }
            p->y++;
        }
    }
    if (pr->nassumptions) {
        if (p->y < p->cv.rows)
            canvas_text(&p->cv, p->y, 1, 14, EL_DIM, "assumptions");
        p->y++;
        for (size_t i = 0; i < pr->nassumptions; i++) {
            char b2[1024];
            snprintf(b2, sizeof b2, "· %s", pr->assumptions[i]);
            p_wrap(p, 2, 2, EL_NORMAL, b2);
        }
    }
}

static void detail_counts(pane *p, const tui_kernel *k)
{
    if (!k->have_counts)
        return;
    const kernel_counts *c = &k->counts;
    char t[64], a[32], b[32], d[32], e[32], line[512];
    snprintf(t, sizeof t, "Counts (%s)", confidence_name(c->conf));
    p_section(p, t);
    fmt_count(a, sizeof a, c->invocations);
    fmt_count(b, sizeof b, c->active_invocations);
    fmt_count(d, sizeof d, c->workgroups);
    snprintf(line, sizeof line, "%s launched · %s active · %s workgroups", a,
             b, d);
    p_kv(p, 1, "invocations", EL_NORMAL, line);
    views_fmt_si(a, sizeof a, c->flops_fp32, "");
    views_fmt_si(b, sizeof b, c->flops_fp16, "");
    views_fmt_si(d, sizeof d, c->flops_fp64, "");
    views_fmt_si(e, sizeof e, c->sfu_ops, "");
    snprintf(line, sizeof line, "fp32 %s · fp16 %s · fp64 %s · SFU %s", a, b,
             d, e);
    p_kv(p, 1, "FLOPs", EL_NORMAL, line);
    views_fmt_si(a, sizeof a, c->instructions, "");
    views_fmt_si(b, sizeof b, c->int_ops, "");
    snprintf(line, sizeof line, "%s executed · %s integer ops · %d FP "
             "chain%s", a, b, c->fp_chains, c->fp_chains == 1 ? "" : "s");
    p_kv(p, 1, "instructions", EL_NORMAL, line);
    views_fmt_si(a, sizeof a, c->storage_load_bytes, "B");
    views_fmt_si(b, sizeof b, c->storage_store_bytes, "B");
    views_fmt_si(d, sizeof d, c->compulsory_read_bytes, "B");
    views_fmt_si(e, sizeof e, c->compulsory_write_bytes, "B");
    snprintf(line, sizeof line, "%s loaded · %s stored (distinct: %s read, "
             "%s written)", a, b, d, e);
    p_kv(p, 1, "storage", EL_NORMAL, line);
    if (c->shared_load_bytes > 0 || c->shared_store_bytes > 0) {
        views_fmt_si(a, sizeof a, c->shared_load_bytes, "B");
        views_fmt_si(b, sizeof b, c->shared_store_bytes, "B");
        snprintf(line, sizeof line, "%s loaded · %s stored", a, b);
        p_kv(p, 1, "shared", EL_NORMAL, line);
    }
    if (c->uniform_load_bytes > 0) {
        views_fmt_si(a, sizeof a, c->uniform_load_bytes, "B");
        p_kv(p, 1, "uniform", EL_NORMAL, a);
    }
    if (c->barriers > 0 || c->atomics > 0) {
        views_fmt_si(a, sizeof a, c->barriers, "");
        views_fmt_si(b, sizeof b, c->atomics, "");
        snprintf(line, sizeof line, "%s barriers · %s atomics", a, b);
        p_kv(p, 1, "sync", EL_NORMAL, line);
    }
    if (!c->naccesses || p->y >= p->cv.rows)
        return;
    canvas_text(&p->cv, p->y, 1, p->cv.cols - 1, EL_DIM,
                "accesses (per invocation, over the dispatch)");
    p->y++;
    static const char *const space[] = {"storage", "uniform", "shared",
                                        "push", "private"};
    size_t shown = c->naccesses < 16 ? c->naccesses : 16;
    for (size_t i = 0; i < shown && p->y < p->cv.rows; i++) {
        const access_summary *x = &c->accesses[i];
        char stride[32] = "stride ?", idx[64] = "", at[24] = "";
        if (x->uniform)
            snprintf(stride, sizeof stride, "uniform");
        else if (x->stride_known)
            snprintf(stride, sizeof stride, "stride %lld B",
                     (long long)x->lane_stride_bytes);
        if (x->index_known)
            snprintf(idx, sizeof idx, " · [%lld, %lld]",
                     (long long)x->index_min, (long long)x->index_max);
        if (x->line)
            snprintf(at, sizeof at, " · line %d", x->line);
        views_fmt_si(a, sizeof a, x->count, "");
        snprintf(line, sizeof line, "%s %s %s · %u B × %s · %s%s%s",
                 x->is_atomic ? "atomic" : x->is_store ? "store" : "load",
                 (unsigned)x->space < 5 ? space[x->space] : "?",
                 x->var ? x->var : "?", x->bytes, a, stride, idx, at);
        p_wrap(p, 2, 4, EL_NORMAL, line);
    }
    if (shown < c->naccesses) {
        snprintf(line, sizeof line, "… %zu more", c->naccesses - shown);
        p_wrap(p, 2, 4, EL_DIM, line);
    }
}

static void histogram(pane *p, int x, int w, const measurement *m)
{
    if (w < 4 || m->nsample_us < 2 || p->y >= p->cv.rows)
        return;
    double lo = m->sample_us[0], hi = lo;
    for (size_t i = 0; i < m->nsample_us; i++) {
        if (m->sample_us[i] < lo)
            lo = m->sample_us[i];
        if (m->sample_us[i] > hi)
            hi = m->sample_us[i];
    }
    /* about two bins per sqrt(samples): a shape, not a comb */
    int bins = (int)(2 * sqrt((double)m->nsample_us));
    if (bins < 8)
        bins = 8;
    if (bins > 48)
        bins = 48;
    if (bins > w)
        bins = w;
    double cnt[48] = {0};
    for (size_t i = 0; i < m->nsample_us; i++) {
        int b = hi > lo ? (int)((m->sample_us[i] - lo) / (hi - lo) * bins) : 0;
        if (b >= bins)
            b = bins - 1;
        if (b < 0)
            b = 0;
        cnt[b] += 1;
    }
    double mx = 0;
    for (int i = 0; i < bins; i++)
        if (cnt[i] > mx)
            mx = cnt[i];
    static const uint32_t lv[9] = {' ', 0x2581, 0x2582, 0x2583, 0x2584,
                                   0x2585, 0x2586, 0x2587, 0x2588};
    for (int i = 0; i < bins; i++) {
        int l = mx > 0 ? (int)ceil(cnt[i] / mx * 8) : 0;
        canvas_putc(&p->cv, p->y, x + i, lv[l > 8 ? 8 : l], EL_SPARK);
    }
    p->y++;
    char a[32], b[32];
    views_fmt_time(a, sizeof a, lo);
    views_fmt_time(b, sizeof b, hi);
    if (p->y < p->cv.rows) {
        canvas_text(&p->cv, p->y, x, bins, EL_DIM, a);
        int bwid = canvas_width(b);
        if (bins > canvas_width(a) + bwid + 1)
            canvas_text(&p->cv, p->y, x + bins - bwid, bwid, EL_DIM, b);
    }
    p->y++;
}

static void detail_measurement(pane *p, const tui_state *st,
                               const tui_kernel *k)
{
    const measurement *m = &k->kr.measurement;
    char a[32], b[32], c[32], d[32], line[512];
    p_section(p, "Measurement");
    if (!st->measure) {
        p_wrap(p, 1, 0, EL_DIM, "static only: not run");
        return;
    }
    if (m->error) {
        p_kv(p, 1, "failed", EL_ERROR, m->error);
        return;
    }
    double med;
    if (k->state == KS_MEASURING) {
        snprintf(line, sizeof line, "running · %u samples so far", k->nrecent);
        if (state_median(k, &med)) {
            views_fmt_time(a, sizeof a, med);
            snprintf(line, sizeof line, "running · %u samples · median %s",
                     k->nrecent, a);
        }
        p_kv(p, 1, "state", EL_MEASURED, line);
    } else if (!m->valid) {
        p_wrap(p, 1, 0, EL_DIM, "not measured yet");
        return;
    }
    if (m->valid && k->state != KS_MEASURING) {
        views_fmt_time(a, sizeof a, m->median_us);
        views_fmt_time(b, sizeof b, m->mad_us);
        snprintf(line, sizeof line, "%s ± %s (MAD, %.1f%%) · %u samples", a, b,
                 m->median_us > 0 ? 100 * m->mad_us / m->median_us : 0.0,
                 m->samples);
        p_kv(p, 1, "median", EL_MEASURED, line);
        char chg[96];
        if (fmt_change(chg, sizeof chg, k, 1)) {
            snprintf(line, sizeof line, "%s against the previous run", chg);
            p_kv(p, 1, "changed", EL_WARN, line);
        }
        views_fmt_time(a, sizeof a, m->min_us);
        views_fmt_time(b, sizeof b, m->max_us);
        views_fmt_time(c, sizeof c, m->p90_us);
        snprintf(line, sizeof line, "min %s · p90 %s · max %s", a, c, b);
        p_kv(p, 1, "range", EL_NORMAL, line);
        const prediction *pr = &k->kr.prediction;
        if (m->median_us > 0 && pr->valid && (pr->bytes > 0 || pr->flops > 0)) {
            char r1[32], r2[32], p1[32], p2[32];
            views_fmt_si(r1, sizeof r1, pr->bytes / m->median_us * 1e6, "B/s");
            views_fmt_si(r2, sizeof r2, pr->flops / m->median_us * 1e6,
                         "FLOP/s");
            if (pr->time_us > 0) {
                views_fmt_si(p1, sizeof p1, pr->bytes / pr->time_us * 1e6,
                             "B/s");
                views_fmt_si(p2, sizeof p2, pr->flops / pr->time_us * 1e6,
                             "FLOP/s");
                snprintf(line, sizeof line, "%s · %s (predicted %s · %s)", r1,
                         r2, p1, p2);
            } else {
                snprintf(line, sizeof line, "%s · %s", r1, r2);
            }
            p_kv(p, 1, "achieved", EL_MEASURED, line);
        }
        if (m->has_cold) {
            views_fmt_time(d, sizeof d, m->cold_us);
            snprintf(line, sizeof line, "%s (first dispatch, not in the median)",
                     d);
            p_kv(p, 1, "cold", EL_NORMAL, line);
        }
        if (m->has_invocations) {
            char x1[32], x2[32];
            fmt_count(x1, sizeof x1, m->invocations);
            fmt_count(x2, sizeof x2, k->kr.prediction.invocations);
            int same = k->kr.prediction.valid &&
                       m->invocations == k->kr.prediction.invocations;
            snprintf(line, sizeof line, "%s (model %s)%s", x1,
                     k->kr.prediction.valid ? x2 : "-",
                     k->kr.prediction.valid ? (same ? " match" : " MISMATCH")
                                            : "");
            p_kv(p, 1, "invocations", same ? EL_GOOD : EL_WARN, line);
        }
        if (m->nsample_us >= 2 && p->y < p->cv.rows) {
            canvas_text(&p->cv, p->y, 1, 14, EL_DIM, "histogram");
            histogram(p, 15, p->cv.cols - 16, m);
        }
    }
    double v[SPARK_N];
    size_t n = state_recent(k, v, SPARK_N);
    if (n > 0 && p->y < p->cv.rows) {
        canvas_text(&p->cv, p->y, 1, 14, EL_DIM, "recent");
        int w = p->cv.cols - 16;
        views_sparkline(&p->cv, p->y, 15, w < (int)n ? w : (int)n, EL_SPARK, v,
                        n);
        p->y++;
    }
    if (m->ncounters) {
        snprintf(line, sizeof line, "counters (%s scope)",
                 m->counters_scope ? m->counters_scope : "?");
        if (p->y < p->cv.rows)
            canvas_text(&p->cv, p->y, 1, p->cv.cols - 1, EL_DIM, line);
        p->y++;
        for (size_t i = 0; i < m->ncounters && p->y < p->cv.rows; i++) {
            const counter_value *cvv = &m->counters[i];
            char val[256];
            if (cvv->available) {
                views_fmt_si(val, sizeof val, cvv->value, "");
                if (cvv->scaled)
                    strncat(val, " (scaled)", sizeof val - strlen(val) - 1);
            } else {
                snprintf(val, sizeof val, "unavailable (%s)",
                         cvv->reason ? cvv->reason : "no reason given");
            }
            canvas_text(&p->cv, p->y, 2, 22, EL_NORMAL, cvv->name);
            int save = p->y;
            p_wrap(p, 25, 2, cvv->available ? EL_MEASURED : EL_DIM, val);
            if (p->y == save)
                p->y++;
        }
    }
}

static void detail_verdict(pane *p, const tui_kernel *k)
{
    const divergence *dv = &k->kr.divergence;
    p_section(p, "Verdict");
    if (!dv->valid) {
        p_wrap(p, 1, 0, EL_DIM, k->state == KS_MEASURING
                                    ? "waiting for the measurement…"
                                    : "no verdict (needs a prediction and a "
                                      "measurement)");
        return;
    }
    char r[32], line[256];
    fmt_ratio(r, sizeof r, dv->ratio);
    snprintf(line, sizeof line, "%s · measured / predicted = %s",
             div_status_name(dv->status),
             dv->status == DIV_UNKNOWN ? "-" : r);
    p_wrap(p, 1, 2, verdict_el(k), line);
    if (dv->explanation)
        p_wrap(p, 1, 2, EL_NORMAL, dv->explanation);
}

static void detail_findings(pane *p, const tui_kernel *k)
{
    const kernel_report *kr = &k->kr;
    char t[64];
    snprintf(t, sizeof t, "Findings (%zu)", kr->nfindings);
    p_section(p, t);
    if (kr->nfindings == 0) {
        p_wrap(p, 1, 0, EL_DIM, k->state <= KS_CHECKING ? "analysing…"
                                                        : "none");
        return;
    }
    for (int s = SEV_ERROR; s >= SEV_NOTE; s--)
        for (size_t i = 0; i < kr->nfindings; i++) {
            const finding *f = &kr->findings[i];
            if ((int)f->sev != s)
                continue;
            char line[1024];
            char where[600] = "";
            if (f->file && f->line)
                snprintf(where, sizeof where, " · %s:%d", f->file, f->line);
            else if (f->file)
                snprintf(where, sizeof where, " · %s", f->file);
            snprintf(line, sizeof line, "%s %s%s", severity_name(f->sev),
                     f->id ? f->id : "?", where);
            p_wrap(p, 1, 2, (uint8_t)sev_el(f->sev), line);
            p_wrap(p, 3, 0, EL_NORMAL, f->message);
            if (f->hint) {
                snprintf(line, sizeof line, "hint: %s", f->hint);
                p_wrap(p, 3, 6, EL_DIM, line);
            }
        }
}

static int pane_height(const tui_kernel *k)
{
    const kernel_report *kr = &k->kr;
    size_t h = 100 + kr->prediction.nterms + 4 * kr->prediction.nassumptions +
               3 * kr->measurement.ncounters + 12 * kr->nfindings +
               (k->have_counts ? 3 * (k->counts.naccesses < 16
                                          ? k->counts.naccesses : 16) : 0);
    return h > 4000 ? 4000 : (int)h;
}

static void render_detail(canvas *cv, const rect *body, tui_state *st)
{
    tui_kernel *k = state_selected(st);
    if (!k) {
        canvas_text(cv, body->y + 1, body->x + 2, body->w - 2, EL_DIM,
                    "no kernel selected");
        return;
    }
    int two = body->w >= 140;
    int w1 = two ? body->w / 2 - 1 : body->w - 1;
    int h = pane_height(k);
    pane a, b;
    pane_init(&a, w1, h, cv->utf8);
    detail_head(&a, k);
    if (two) {
        pane_init(&b, body->w - w1 - 2, h, cv->utf8);
        detail_prediction(&a, st, k);
        detail_counts(&a, k);
        detail_findings(&a, k);
        p_blank(&b);
        p_blank(&b);
        if (k->kr.workgroups[0])
            p_blank(&b);
        detail_verdict(&b, k);
        detail_measurement(&b, st, k);
        int content = a.y > b.y ? a.y : b.y;
        int s = clamp_scroll(st, VIEW_DETAIL, content, body->h);
        rect ra = {body->y, body->x, body->h, w1};
        rect rb = {body->y, body->x + w1 + 1, body->h, body->w - w1 - 2};
        blit(cv, &ra, &a, s);
        blit(cv, &rb, &b, s);
        rect rs = {body->y, body->x, body->h, body->w};
        scrollbar(cv, &rs, s, content);
        canvas_free(&b.cv);
    } else {
        detail_verdict(&a, k);
        detail_prediction(&a, st, k);
        detail_measurement(&a, st, k);
        detail_findings(&a, k);
        detail_counts(&a, k);
        int s = clamp_scroll(st, VIEW_DETAIL, a.y, body->h);
        rect ra = {body->y, body->x, body->h, w1};
        blit(cv, &ra, &a, s);
        rect rs = {body->y, body->x, body->h, body->w};
        scrollbar(cv, &rs, s, a.y);
    }
    canvas_free(&a.cv);
}

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

static const char *base_name(const char *p)
{
    const char *s = p ? strrchr(p, '/') : NULL;
    return s ? s + 1 : p ? p : "";
}

/* Worst finding on a source line (GLSL only), or NULL. */
static const finding *line_finding(const tui_kernel *k, int line)
{
    const finding *w = NULL;
    const char *sb = base_name(k->kr.shader);
    for (size_t i = 0; i < k->kr.nfindings; i++) {
        const finding *f = &k->kr.findings[i];
        if (f->line != line)
            continue;
        if (f->file && *sb && strcmp(base_name(f->file), sb) != 0)
            continue;
        if (!w || f->sev > w->sev)
            w = f;
    }
    return w;
}

static void render_source(canvas *cv, const rect *body, tui_state *st)
{
    tui_kernel *k = state_selected(st);
    if (!k) {
        canvas_text(cv, body->y + 1, body->x + 2, body->w - 2, EL_DIM,
                    "no kernel selected");
        return;
    }
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
    clamp_scroll(st, VIEW_SOURCE, nlines, h);
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
        const finding *f = k->source_glsl ? line_finding(k, ln) : NULL;
        int x = body->x;
        if (f)
            canvas_putc(cv, y, x, f->sev == SEV_ERROR ? 0x25CF
                                  : f->sev == SEV_WARNING ? 0x25B2 : 0x2022,
                        cur ? EL_SELECTED : (uint8_t)sev_el(f->sev));
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
    if (info_h) {
        int y = body->y + body->h - 2;
        canvas_fill(cv, y, body->x, body->w, 0x2500, EL_DIM);
        int ln2 = st->source_cursor + 1;
        const finding *f = k->source_glsl ? line_finding(k, ln2) : NULL;
        char b[1024];
        if (f) {
            snprintf(b, sizeof b, "line %d: %s %s: %s", ln2,
                     severity_name(f->sev), f->id ? f->id : "?",
                     f->message ? f->message : "");
            canvas_text(cv, y + 1, body->x + 1, body->w - 1,
                        (uint8_t)sev_el(f->sev), b);
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
}

/* ---- device view ---- */

static void kv_rate(pane *p, const char *k, double v, const char *unit,
                    double scale)
{
    char b[64];
    if (v < 0)
        p_kv(p, 1, k, EL_DIM, "unknown");
    else {
        views_fmt_si(b, sizeof b, v * scale, unit);
        p_kv(p, 1, k, EL_NORMAL, b);
    }
}

static void device_left(pane *p, const tui_state *st)
{
    const report_device *d = &st->dev;
    char b[512];
    p_section(p, "Device");
    if (!st->have_dev) {
        p_wrap(p, 1, 0, EL_DIM, "starting…");
        return;
    }
    p_kv(p, 1, "name", EL_NORMAL, d->name ? d->name : "-");
    p_kv(p, 1, "vendor", EL_NORMAL, d->vendor ? d->vendor : "-");
    p_kv(p, 1, "type", EL_NORMAL, d->type ? d->type : "-");
    p_kv(p, 1, "driver", EL_NORMAL, d->driver ? d->driver : "-");
    p_kv(p, 1, "api", EL_NORMAL, d->api ? d->api : "-");
    p_section(p, "Profile");
    snprintf(b, sizeof b, "%s%s", d->profile ? d->profile : "?",
             d->profile && strcmp(d->profile, "calibrated") == 0
                 ? ""
                 : " (run `clockwork calibrate` to measure this device)");
    p_kv(p, 1, "source", d->profile && strcmp(d->profile, "calibrated") == 0
                             ? EL_GOOD : EL_WARN, b);
    if (d->profile_path)
        p_kv(p, 1, "file", EL_NORMAL, d->profile_path);
    if (!st->have_prof)
        return;
    const device_profile *pr = &st->prof;
    if (pr->date[0])
        p_kv(p, 1, "date", EL_NORMAL, pr->date);
    p_section(p, "Ceilings");
    kv_rate(p, "DRAM", pr->dram_gbs, "B/s", 1e9);
    kv_rate(p, "L2", pr->l2_gbs, "B/s", 1e9);
    kv_rate(p, "shared", pr->shared_gbs, "B/s", 1e9);
    kv_rate(p, "FP32", pr->fp32_gflops, "FLOP/s", 1e9);
    kv_rate(p, "FP16", pr->fp16_gflops, "FLOP/s", 1e9);
    kv_rate(p, "FP64", pr->fp64_gflops, "FLOP/s", 1e9);
    kv_rate(p, "INT32", pr->int32_gops, "op/s", 1e9);
    kv_rate(p, "SFU", pr->sfu_gops, "op/s", 1e9);
    kv_rate(p, "atomics", pr->atomic_gops, "op/s", 1e9);
    if (pr->launch_us < 0)
        p_kv(p, 1, "launch", EL_DIM, "unknown");
    else {
        views_fmt_time(b, sizeof b, pr->launch_us);
        p_kv(p, 1, "launch", EL_NORMAL, b);
    }
    if (pr->timestamp_res_ns < 0)
        p_kv(p, 1, "timer", EL_DIM, "unknown");
    else {
        snprintf(b, sizeof b, "%.3g ns", pr->timestamp_res_ns);
        p_kv(p, 1, "timer", EL_NORMAL, b);
    }
}

static void device_right(pane *p, const tui_state *st)
{
    char b[256];
    if (st->have_prof) {
        const device_profile *pr = &st->prof;
        const device_limits *l = &pr->limits;
        p_section(p, "Limits");
        snprintf(b, sizeof b, "%u×%u×%u, %u invocations", l->max_wg_size[0],
                 l->max_wg_size[1], l->max_wg_size[2], l->max_wg_invocations);
        p_kv(p, 1, "workgroup", EL_NORMAL, b);
        snprintf(b, sizeof b, "%u×%u×%u", l->max_wg_count[0],
                 l->max_wg_count[1], l->max_wg_count[2]);
        p_kv(p, 1, "dispatch", EL_NORMAL, b);
        views_fmt_si(b, sizeof b, l->max_shared_bytes, "B");
        p_kv(p, 1, "shared mem", EL_NORMAL, b);
        views_fmt_si(b, sizeof b, l->max_push_bytes, "B");
        p_kv(p, 1, "push consts", EL_NORMAL, b);
        views_fmt_si(b, sizeof b, (double)l->max_storage_range, "B");
        p_kv(p, 1, "storage range", EL_NORMAL, b);
        snprintf(b, sizeof b, "%u", l->subgroup_size);
        p_kv(p, 1, "subgroup", l->subgroup_size ? EL_NORMAL : EL_DIM,
             l->subgroup_size ? b : "unknown");
        p_section(p, "Machine");
        snprintf(b, sizeof b, "%u", pr->units);
        p_kv(p, 1, "units", pr->units ? EL_NORMAL : EL_DIM,
             pr->units ? b : "unknown");
        snprintf(b, sizeof b, "%.2f GHz", pr->clock_ghz);
        p_kv(p, 1, "clock", pr->clock_ghz > 0 ? EL_NORMAL : EL_DIM,
             pr->clock_ghz > 0 ? b : "unknown");
        views_fmt_si(b, sizeof b, (double)pr->l2_bytes, "B");
        p_kv(p, 1, "L2 size", pr->l2_bytes ? EL_NORMAL : EL_DIM,
             pr->l2_bytes ? b : "unknown");
        snprintf(b, sizeof b, "%u B", pr->line_bytes);
        p_kv(p, 1, "cache line", pr->line_bytes ? EL_NORMAL : EL_DIM,
             pr->line_bytes ? b : "unknown");
    }
    p_section(p, "Counters");
    if (!st->have_counters) {
        p_wrap(p, 1, 0, EL_DIM, "not probed yet");
        return;
    }
    const measurement *m = &st->counters.measurement;
    if (m->ncounters == 0)
        p_wrap(p, 1, 0, EL_DIM, "no counters configured");
    for (size_t i = 0; i < m->ncounters && p->y < p->cv.rows; i++) {
        const counter_value *c = &m->counters[i];
        char v[512];
        snprintf(v, sizeof v, "%s", c->available ? "available"
                                                  : c->reason ? c->reason
                                                              : "unavailable");
        if (!c->available && c->reason)
            snprintf(v, sizeof v, "unavailable: %s", c->reason);
        canvas_text(&p->cv, p->y, 1, 22, EL_NORMAL, c->name);
        int save = p->y;
        p_wrap(p, 24, 2, c->available ? EL_GOOD : EL_DIM, v);
        if (p->y == save)
            p->y++;
    }
}

static void render_device(canvas *cv, const rect *body, tui_state *st)
{
    int two = body->w >= 120;
    int w1 = two ? body->w / 2 - 1 : body->w - 1;
    int h = 120 + 4 * (int)(st->counters.measurement.ncounters > 200
                                ? 200 : st->counters.measurement.ncounters);
    pane a, b;
    pane_init(&a, w1, h, cv->utf8);
    device_left(&a, st);
    if (two) {
        pane_init(&b, body->w - w1 - 2, h, cv->utf8);
        device_right(&b, st);
        int content = a.y > b.y ? a.y : b.y;
        int s = clamp_scroll(st, VIEW_DEVICE, content, body->h);
        rect ra = {body->y, body->x, body->h, w1};
        rect rb = {body->y, body->x + w1 + 1, body->h, body->w - w1 - 2};
        blit(cv, &ra, &a, s);
        blit(cv, &rb, &b, s);
        canvas_free(&b.cv);
    } else {
        device_right(&a, st);
        int s = clamp_scroll(st, VIEW_DEVICE, a.y, body->h);
        rect ra = {body->y, body->x, body->h, w1};
        blit(cv, &ra, &a, s);
        rect rs = {body->y, body->x, body->h, body->w};
        scrollbar(cv, &rs, s, a.y);
    }
    canvas_free(&a.cv);
}

/* ---- help view ---- */

static void render_help(canvas *cv, const rect *body, tui_state *st)
{
    static const keyhelp keys[] = {
        {"↑ ↓  j k", "move the selection (kernels, source lines) or scroll"},
        {"← →  [ ]", "previous / next kernel in detail and source views"},
        {"PgUp PgDn", "page up / down;  g G  first / last"},
        {"Enter", "kernel detail; in detail: its source"},
        {"Tab  S-Tab", "next / previous view: kernels, detail, source, "
                       "roofline, device"},
        {"1 … 5", "jump to a view"},
        {"/", "filter kernels by name, bound, verdict, finding id or "
              "severity"},
        {"s  S", "cycle the sort key (plan, name, predicted, measured, "
                 "ratio, findings); reverse"},
        {"t", "cycle themes: default, light, high-contrast, monochrome"},
        {"p", "pause / resume sampling (after the current kernel)"},
        {"r", "measure every kernel again"},
        {"l", "loop: measure round after round until l again"},
        {"?  h  F1", "this help; any key returns"},
        {"q  Esc", "quit (Esc: back to the kernel list first)"},
        {NULL, NULL}};
    static const keyhelp legend[] = {
        {"PRED", "predicted time of the kernel as written (IDEAL: roofline "
                 "on compulsory traffic)"},
        {"MEASURED", "median of the warm samples (live while running)"},
        {"±MAD", "median absolute deviation, % of the median"},
        {"RATIO", "measured / predicted; VERDICT ok inside the tolerance"},
        {"FINDINGS", "E errors, W warnings, N notes"},
        {"roofline", "lower-case letter: predicted, upper-case: measured"},
        {"changes", "edited plans and shaders are re-analysed and re-run "
                    "automatically"},
        {NULL, NULL}};
    pane a;
    pane_init(&a, body->w - 1, 80, cv->utf8);
    p_section(&a, "Keys");
    for (const keyhelp *k = keys; k->key; k++) {
        const char *key = k->key;
        if (!cv->utf8 && strncmp(key, "↑", 3) == 0)
            key = "Up Dn  j k";
        else if (!cv->utf8 && strncmp(key, "←", 3) == 0)
            key = "Lt Rt  [ ]";
        canvas_text(&a.cv, a.y, 2, 12, EL_KEY, key);
        int save = a.y;
        p_wrap(&a, 15, 2, EL_NORMAL, k->label);
        if (a.y == save)
            a.y++;
    }
    p_section(&a, "Columns and marks");
    for (const keyhelp *k = legend; k->key; k++) {
        const char *key = k->key;
        if (!cv->utf8 && strcmp(key, "±MAD") == 0)
            key = "+-MAD";
        canvas_text(&a.cv, a.y, 2, 12, EL_COLUMN, key);
        int save = a.y;
        p_wrap(&a, 15, 2, EL_NORMAL, k->label);
        if (a.y == save)
            a.y++;
    }
    char b[160];
    snprintf(b, sizeof b, "theme %s · %s · Clockwork %s", st->theme_name,
             cv->utf8 ? "UTF-8" : "ASCII", st->version);
    p_section(&a, "About");
    p_wrap(&a, 2, 2, EL_DIM, b);
    int s = clamp_scroll(st, VIEW_HELP, a.y, body->h);
    rect ra = {body->y, body->x, body->h, body->w - 1};
    blit(cv, &ra, &a, s);
    rect rs = {body->y, body->x, body->h, body->w};
    scrollbar(cv, &rs, s, a.y);
    canvas_free(&a.cv);
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
    case VIEW_MAIN: render_main(cv, &l.body, st); break;
    case VIEW_DETAIL: render_detail(cv, &l.body, st); break;
    case VIEW_SOURCE: render_source(cv, &l.body, st); break;
    case VIEW_ROOFLINE: roofline_render(cv, &l.body, st); break;
    case VIEW_DEVICE: render_device(cv, &l.body, st); break;
    case VIEW_HELP: render_help(cv, &l.body, st); break;
    case VIEW_COUNT: break;
    }
    draw_status(cv, &l.status, st);
    draw_keybar(cv, &l.keybar, st);
}
