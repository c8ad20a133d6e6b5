/* roofline.c - a log-log roofline in the terminal (pure, see views.h).
 *
 * The plot is a grid of braille cells (2x4 dots each) in UTF-8, or one
 * ASCII character per cell otherwise ('-' under a flat roof, '/' under a
 * sloped one).  x: arithmetic intensity (FLOP per compulsory DRAM byte),
 * y: GFLOP/s.  Ceilings: FP32 (and FP64 where known) flat roofs, DRAM and
 * L2 slopes.  Each kernel is a letter: lower case where the model puts it,
 * upper case where the measurement does.
 */
#include "roofline.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "theme.h"
#include "views.h"

typedef struct plot {
    int pw, ph;          /* cells */
    double x0, x1;       /* log10 range of AI */
    double y0, y1;       /* log10 range of GFLOP/s */
    uint8_t *bits;       /* braille dots per cell */
    char *ascii;         /* ASCII char per cell (0 none) */
    uint8_t *el;         /* element per cell */
} plot;

static int px_of(const plot *p, double lx)
{
    return (int)floor((lx - p->x0) / (p->x1 - p->x0) * (p->pw * 2));
}

static int py_of(const plot *p, double ly)
{
    /* row 0 at the top */
    return (int)floor((p->y1 - ly) / (p->y1 - p->y0) * (p->ph * 4));
}

static void dot(plot *p, int px, int py, char ascii, uint8_t el)
{
    static const uint8_t bit[2][4] = {{0x01, 0x02, 0x04, 0x40},
                                      {0x08, 0x10, 0x20, 0x80}};
    if (px < 0 || py < 0 || px >= p->pw * 2 || py >= p->ph * 4)
        return;
    size_t c = (size_t)(py / 4) * (size_t)p->pw + (size_t)(px / 2);
    p->bits[c] |= bit[px % 2][py % 4];
    if (!p->ascii[c] || ascii == '/')
        p->ascii[c] = ascii;
    p->el[c] = el;
}

/* y = min(flat, ai * slope), in GFLOP/s; flat or slope < 0 = absent. */
static void roof(plot *p, double flat, double slope, uint8_t el, int dotted)
{
    int prev = -1;
    for (int px = 0; px < p->pw * 2; px++) {
        double lx = p->x0 + (px + 0.5) / (p->pw * 2) * (p->x1 - p->x0);
        double ai = pow(10, lx);
        double y = flat > 0 ? flat : INFINITY;
        int sloped = 0;
        if (slope > 0 && ai * slope < y) {
            y = ai * slope;
            sloped = 1;
        }
        if (!isfinite(y) || y <= 0)
            continue;
        int py = py_of(p, log10(y));
        if (dotted && px % 2)
            continue;
        char a = sloped ? '/' : '-';
        if (prev >= 0 && sloped && !dotted) /* keep the slope connected */
            for (int q = prev - 1; q > py; q--)
                dot(p, px, q, a, el);
        dot(p, px, py, a, el);
        prev = py;
    }
}

static void tick_label(char *b, size_t n, double v, const char *unit)
{
    views_fmt_si(b, n, v, unit);
    /* "1.00 k" -> "1k": ticks are powers of ten */
    char *s = b, *d = b;
    for (; *s; s++)
        if (*s != ' ')
            *d++ = *s;
    *d = '\0';
    char *dotp = strstr(b, ".00");
    if (dotp)
        memmove(dotp, dotp + 3, strlen(dotp + 3) + 1);
}

static char marker(size_t i, int upper)
{
    if (i < 26)
        return (char)((upper ? 'A' : 'a') + (int)i);
    return upper ? '#' : '+';
}

/* Where a kernel goes: x = operations per compulsory DRAM byte, y =
 * operations per second (GOP/s) predicted and measured (0 = none).
 * Floating-point kernels count FLOPs; a kernel without any (integer only)
 * counts its integer operations, against the INT32 roof. */
typedef struct kpoint {
    int ok, is_int, is_cpu;
    double ai, pred, meas;
} kpoint;

static kpoint point_of(const tui_kernel *k)
{
    kpoint q = {0};
    const prediction *p = &k->kr.prediction;
    if (!p->valid || p->bytes <= 0)
        return q;
    double ops = p->flops;
    if (!(ops > 0) && k->have_counts && k->counts.int_ops > 0) {
        ops = k->counts.int_ops;
        q.is_int = 1;
    }
    if (!(ops > 0))
        return q;
    q.ok = 1;
    q.is_cpu = k->kr.kind && strcmp(k->kr.kind, "cpu") == 0;
    q.ai = ops / p->bytes;
    q.pred = p->time_us > 0 ? ops / p->time_us / 1e3 : 0;
    double med;
    if (state_median(k, &med) && med > 0)
        q.meas = ops / med / 1e3;
    return q;
}

/* The cell for a point: its own, or the nearest free one on its row (a
 * few cells either side), so that kernels of the same intensity and rate
 * stay visible side by side.  owner[] holds 1 + the kernel's position. */
static int free_cell(const int *owner, int pw, int cy, int cx, int who)
{
    static const int step[] = {0, 1, -1, 2, -2, 3, -3};
    for (size_t i = 0; i < sizeof step / sizeof *step; i++) {
        int x = cx + step[i];
        if (x < 0 || x >= pw)
            continue;
        int o = owner[(size_t)cy * (size_t)pw + (size_t)x];
        if (o == 0 || o == who)
            return x;
    }
    return -1;
}

/* A ceiling label at row cy from column cx, moved up or down a row when a
 * point or another label is under it; not drawn when there is no free row
 * near.  Its cells are marked taken (-1). */
static void label(canvas *cv, int *owner, int pw, int ph, int ox, int oy, int cy,
                  int cx, uint8_t el, const char *text)
{
    int bw = canvas_width(text);
    if (bw >= pw)
        return;
    if (cx + bw > pw)
        cx = pw - bw;
    if (cx < 0)
        cx = 0;
    /* its own row first, moved left off a point (points gather at the
     * right, where the intensity is high), then the rows around it */
    static const int step[] = {0, -1, 1, -2, 2, -3, 3};
    static const int shift[] = {0, 2, 4, 8, 12, 16};
    for (size_t i = 0; i < sizeof step / sizeof *step; i++)
        for (size_t s = 0; s < sizeof shift / sizeof *shift; s++) {
            int y = cy + step[i], x0 = cx - shift[s], clear = y >= 0 && y < ph && x0 >= 0;
            /* one free cell either side too: "GFLOP/s" next to a letter
             * would read as one word */
            for (int x = x0 - 1; clear && x <= x0 + bw; x++) {
                if (x < 0 || x >= pw)
                    continue;
                int o = owner[(size_t)y * (size_t)pw + (size_t)x];
                clear = x >= x0 && x < x0 + bw ? o == 0 : o <= 0;
            }
            if (clear) {
                canvas_text(cv, oy + y, ox + x0, bw, el, text);
                for (int x = x0; x < x0 + bw; x++) /* the next label keeps off */
                    owner[(size_t)y * (size_t)pw + (size_t)x] = -1;
                return;
            }
        }
}

/* One chart being drawn: the plot, where it sits, the ceilings. */
typedef struct chart {
    canvas *cv;
    tui_state *st;
    plot p;
    int *owner;                  /* per cell: 1 + kernel position, -1 label */
    int ox, oy, pw, ph, yl;
    double fp32, fp64, dram, l2; /* the Vulkan device's ceilings */
    double cfp, cdram;           /* this CPU's, for native kernels */
    double i32;                  /* INT32, for integer-only kernels */
    int any_cpu, any_int;
    size_t nk;
    const tui_kernel *sel;
} chart;

/* Ceilings, and which extra roofs the kernels need. */
static void chart_ceilings(chart *c)
{
    const tui_state *st = c->st;
    const device_profile *pr = &st->prof;
    c->fp32 = st->have_prof ? pr->fp32_gflops : -1;
    c->fp64 = st->have_prof ? pr->fp64_gflops : -1;
    c->dram = st->have_prof ? pr->dram_gbs : -1;
    c->l2 = st->have_prof ? pr->l2_gbs : -1;
    /* the CPU's roof for native kernels, the INT32 roof for integer-only
     * kernels: drawn when such kernels are there */
    for (size_t i = 0; i < c->nk; i++) {
        kpoint q = point_of(&st->k[st->order[i]]);
        c->any_cpu |= q.ok && q.is_cpu;
        c->any_int |= q.ok && q.is_int && !q.is_cpu;
    }
    c->cfp = c->any_cpu && st->have_cpu_prof ? st->cpu_prof.fp32_gflops : -1;
    c->cdram = c->any_cpu && st->have_cpu_prof ? st->cpu_prof.dram_gbs : -1;
    c->i32 = c->any_int && st->have_prof ? pr->int32_gops : -1;
}

/* Log ranges of the plot from the ceilings and the points. */
static void chart_ranges(chart *c)
{
    double xmin = 1.0 / 16, xmax = 64, ymax = 0, ymin = INFINITY;
    if (c->fp32 > 0 && c->dram > 0) {
        double ridge = c->fp32 / c->dram;
        if (ridge / 16 < xmin)
            xmin = ridge / 16;
        if (ridge * 16 > xmax)
            xmax = ridge * 16;
    }
    double roofs[3] = {c->fp32, c->cfp, c->i32};
    for (int j = 0; j < 3; j++)
        if (roofs[j] > ymax)
            ymax = roofs[j];
    for (size_t i = 0; i < c->nk; i++) {
        kpoint q = point_of(&c->st->k[c->st->order[i]]);
        if (!q.ok)
            continue;
        if (q.ai < xmin)
            xmin = q.ai / 2;
        if (q.ai > xmax)
            xmax = q.ai * 2;
        double perf[2] = {q.pred, q.meas};
        for (int j = 0; j < 2; j++)
            if (perf[j] > 0) {
                if (perf[j] > ymax)
                    ymax = perf[j];
                if (perf[j] < ymin)
                    ymin = perf[j];
            }
    }
    if (ymax <= 0)
        ymax = 1000;
    if (c->dram > 0 && c->dram * xmin < ymin)
        ymin = c->dram * xmin;
    if (!isfinite(ymin) || ymin >= ymax)
        ymin = ymax / 1e4;
    if (ymin < ymax / 1e6)
        ymin = ymax / 1e6;
    plot *p = &c->p;
    p->x0 = floor(log10(xmin));
    p->x1 = ceil(log10(xmax));
    p->y0 = floor(log10(ymin));
    p->y1 = ceil(log10(ymax * 1.5));
    if (p->x1 <= p->x0)
        p->x1 = p->x0 + 1;
    if (p->y1 <= p->y0)
        p->y1 = p->y0 + 1;
}

/* The plot's dot grid onto the canvas (cells with dots only). */
static void chart_paint_cells(chart *c, int cy0, int cy1, int cx0, int cx1)
{
    for (int cy = cy0; cy <= cy1 && cy < c->ph; cy++)
        for (int cx = cx0; cx <= cx1 && cx < c->pw; cx++) {
            if (cy < 0 || cx < 0)
                continue;
            size_t i = (size_t)cy * (size_t)c->pw + (size_t)cx;
            if (!c->p.bits[i])
                continue;
            uint32_t ch = c->cv->utf8 ? 0x2800u + c->p.bits[i]
                                      : (uint32_t)(unsigned char)c->p.ascii[i];
            canvas_putc(c->cv, c->oy + cy, c->ox + cx, ch, c->p.el[i]);
        }
}

/* Roofs, the axes and their decade ticks. */
static void chart_roofs_axes(chart *c, const rect *r)
{
    plot *p = &c->p;
    canvas *cv = c->cv;
    int ox = c->ox, oy = c->oy, pw = c->pw, ph = c->ph;
    if (c->l2 > 0 && c->fp32 > 0)
        roof(p, c->fp32, c->l2, EL_CEILING, 1);
    if (c->fp64 > 0 && c->dram > 0)
        roof(p, c->fp64, c->dram, EL_CEILING, 1);
    if (c->i32 > 0 && c->dram > 0)
        roof(p, c->i32, c->dram, EL_CEILING, 1);
    if (c->cfp > 0 || c->cdram > 0)
        roof(p, c->cfp, c->cdram, EL_NOTE, 0);
    if (c->fp32 > 0 || c->dram > 0)
        roof(p, c->fp32, c->dram, EL_CEILING, 0);
    chart_paint_cells(c, 0, ph - 1, 0, pw - 1);
    /* axes: left edge and bottom edge */
    for (int cy = 0; cy < ph; cy++)
        canvas_putc(cv, oy + cy, ox - 1, 0x2502, EL_AXIS);
    canvas_putc(cv, oy + ph, ox - 1, 0x2514, EL_AXIS);
    canvas_fill(cv, oy + ph, ox, pw, 0x2500, EL_AXIS);
    /* y ticks at each decade */
    for (int d = (int)p->y0; d <= (int)p->y1; d++) {
        int cy = py_of(p, d) / 4;
        if (cy < 0 || cy >= ph)
            continue;
        char b[32];
        tick_label(b, sizeof b, pow(10, d) * 1e9, "");
        canvas_text_right(cv, oy + cy, r->x, c->yl, EL_AXIS, b);
        canvas_putc(cv, oy + cy, ox - 1, 0x2524, EL_AXIS);
    }
    /* x ticks at each decade */
    int lastx = -100;
    for (int d = (int)p->x0; d <= (int)p->x1; d++) {
        int cx = px_of(p, d) / 2;
        if (cx >= pw)
            cx = pw - 1;
        char b[32];
        double v = pow(10, d);
        if (v < 1)
            snprintf(b, sizeof b, "%g", v);
        else
            tick_label(b, sizeof b, v, "");
        int bw = canvas_width(b);
        int tx = ox + cx - bw / 2;
        if (tx < ox - 1)
            tx = ox - 1;
        if (tx + bw > ox + pw)
            tx = ox + pw - bw;
        canvas_putc(cv, oy + ph, ox + cx, 0x2534, EL_AXIS);
        if (tx > lastx + 1) {
            canvas_text(cv, oy + ph + 1, tx, bw, EL_AXIS, b);
            lastx = tx + bw;
        }
    }
    if (!(c->fp32 > 0 || c->dram > 0))
        canvas_text(cv, oy, ox + 1, pw - 1, EL_DIM,
                    "ceilings unknown for this device (no profile)");
}

/* The selected kernel: a dotted line from prediction to measurement, so
 * the divergence reads at a glance. */
static void chart_selected_line(chart *c)
{
    if (!c->sel)
        return;
    kpoint q = point_of(c->sel);
    if (!q.ok || !(q.pred > 0) || !(q.meas > 0))
        return;
    int px = px_of(&c->p, log10(q.ai));
    int a = py_of(&c->p, log10(q.pred)), b = py_of(&c->p, log10(q.meas));
    if (a > b) {
        int t = a;
        a = b;
        b = t;
    }
    for (int py = a; py <= b; py += 2)
        dot(&c->p, (px / 2) * 2, py, ':', EL_MEASURED);
    chart_paint_cells(c, a / 4, b / 4, px / 2, px / 2);
}

/* Points: predicted first, then measured on top; selected last; a cell
 * another kernel holds pushes the letter to a free neighbour. */
static void chart_points(chart *c)
{
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < c->nk; i++) {
            const tui_kernel *k = &c->st->k[c->st->order[i]];
            int is_sel = k == c->sel;
            if (pass != is_sel)
                continue;
            kpoint q = point_of(k);
            if (!q.ok)
                continue;
            int cx0 = px_of(&c->p, log10(q.ai)) / 2;
            if (cx0 < 0 || cx0 >= c->pw)
                continue;
            double perf[2] = {q.pred, q.meas};
            for (int j = 0; j < 2; j++) {
                if (!(perf[j] > 0))
                    continue;
                int cy = py_of(&c->p, log10(perf[j])) / 4;
                if (cy < 0 || cy >= c->ph)
                    continue;
                int cx = free_cell(c->owner, c->pw, cy, cx0, (int)i + 1);
                if (cx < 0)
                    cx = cx0; /* crowded: the later one wins */
                c->owner[(size_t)cy * (size_t)c->pw + (size_t)cx] = (int)i + 1;
                canvas_putc(c->cv, c->oy + cy, c->ox + cx, (uint32_t)marker(i, j),
                            is_sel ? EL_SELECTED : j ? EL_MEASURED : EL_PREDICTED);
            }
        }
}

/* Ceiling labels, after the points and never over one or each other. */
static void chart_labels(chart *c)
{
    char b[64], v[32];
    int pw = c->pw, ph = c->ph;
    if (c->fp32 > 0) {
        views_fmt_si(v, sizeof v, c->fp32 * 1e9, "FLOP/s");
        snprintf(b, sizeof b, "%sFP32 %s", c->cfp > 0 ? "GPU " : "", v);
        label(c->cv, c->owner, pw, ph, c->ox, c->oy, py_of(&c->p, log10(c->fp32)) / 4 - 1, pw,
              EL_CEILING, b);
    }
    if (c->cfp > 0) {
        views_fmt_si(v, sizeof v, c->cfp * 1e9, "FLOP/s");
        snprintf(b, sizeof b, "CPU FP32 %s", v);
        label(c->cv, c->owner, pw, ph, c->ox, c->oy, py_of(&c->p, log10(c->cfp)) / 4 - 1, pw,
              EL_NOTE, b);
    }
    if (c->i32 > 0) {
        views_fmt_si(v, sizeof v, c->i32 * 1e9, "OP/s");
        snprintf(b, sizeof b, "INT32 %s", v);
        label(c->cv, c->owner, pw, ph, c->ox, c->oy, py_of(&c->p, log10(c->i32)) / 4 + 1, pw,
              EL_CEILING, b);
    }
    if (c->dram > 0) {
        views_fmt_si(v, sizeof v, c->dram * 1e9, "B/s");
        snprintf(b, sizeof b, "DRAM %s", v);
        /* where the slope crosses the lower third of the plot */
        double ly = c->p.y0 + (c->p.y1 - c->p.y0) / 4;
        label(c->cv, c->owner, pw, ph, c->ox, c->oy, py_of(&c->p, ly) / 4,
              px_of(&c->p, ly - log10(c->dram)) / 2 + 2, EL_CEILING, b);
    }
}

/* The legend: a window over the kernels that pages with the selection. */
static void chart_legend(chart *c, rect lg)
{
    canvas *cv = c->cv;
    tui_state *st = c->st;
    size_t nk = c->nk;
    int any_cpu = c->any_cpu, any_int = c->any_int;
    const tui_kernel *selk = c->sel;
    canvas_text(cv, lg.y, lg.x, lg.w, EL_COLUMN,
                "    KERNEL        AI      PRED     MEAS");
    int rows = lg.h - 1;
    /* a key for the tags, on the last line when there is room */
    int tags = (any_cpu || any_int) && rows > 3;
    if (tags) {
        rows--;
        char key[96];
        snprintf(key, sizeof key, "%s%s%s", any_cpu ? "c: on the CPU's roof" : "",
                 any_cpu && any_int ? " · " : "", any_int ? "i: integer OP/s" : "");
        canvas_text(cv, lg.y + lg.h - 1, lg.x + 4, lg.w - 4, EL_DIM, key);
    }
    /* a window over the kernels that keeps the selected one in it; the
     * first and last rows say how many more there are */
    int first = 0;
    if ((int)st->sel >= rows)
        first = (int)st->sel - rows + 1;
    int more_above = first > 0 && rows > 2;
    int more_below = (size_t)(first + rows) < nk && rows > 2;
    if (more_above || more_below) {
        int inner = rows - more_above - more_below;
        if (inner < 1)
            inner = 1;
        first = (int)st->sel - inner + 1 > 0 ? (int)st->sel - inner + 1 : 0;
        if ((int)st->sel < first)
            first = (int)st->sel;
        more_above = first > 0;
        more_below = (size_t)(first + inner) < nk;
        inner = rows - more_above - more_below;
        if ((int)st->sel >= first + inner)
            first = (int)st->sel - inner + 1;
        char m[48];
        if (more_above) {
            snprintf(m, sizeof m, "▲ %d more", first);
            canvas_text(cv, lg.y + 1, lg.x + 4, lg.w - 4, EL_DIM, m);
        }
        if (more_below) {
            snprintf(m, sizeof m, "▼ %zu more (↑↓)", nk - (size_t)(first + inner));
            canvas_text(cv, lg.y + rows, lg.x + 4, lg.w - 4, EL_DIM, m);
        }
        rows = inner;
    }
    int y0 = lg.y + 1 + more_above;
    st->list_y = y0; /* for mouse clicks */
    st->list_h = rows;
    st->list_first = first;
    for (int j = 0; j < rows && (size_t)(first + j) < nk; j++) {
        size_t i = (size_t)(first + j);
        const tui_kernel *k = &st->k[st->order[i]];
        kpoint q = point_of(k);
        int y = y0 + j;
        int sel = k == selk;
        char m[8], ai[16] = "-", a[32] = "-", b[32] = "-";
        snprintf(m, sizeof m, "%c%c%s", marker(i, 0), marker(i, 1),
                 q.ok && q.is_cpu ? "c" : q.ok && q.is_int ? "i" : "");
        if (q.ok) {
            snprintf(ai, sizeof ai, "%.3g", q.ai);
            if (q.pred > 0)
                tick_label(a, sizeof a, q.pred * 1e9, "");
            if (q.meas > 0)
                tick_label(b, sizeof b, q.meas * 1e9, "");
        } else if (k->kr.prediction.valid) {
            snprintf(ai, sizeof ai, "no ops");
        }
        uint8_t el = sel ? EL_SELECTED : EL_NORMAL;
        if (sel)
            canvas_fill(cv, y, lg.x, lg.w, ' ', EL_SELECTED);
        canvas_text(cv, y, lg.x, 3, sel ? EL_SELECTED : EL_PREDICTED, m);
        char line[160];
        snprintf(line, sizeof line, "%-12.12s %6s %8s %8s",
                 k->kr.name ? k->kr.name : "?", ai, a, b);
        canvas_text(cv, y, lg.x + 4, lg.w - 4, el, line);
    }
}

void roofline_render(canvas *cv, const rect *r, tui_state *st)
{
    if (r->h < 4 || r->w < 20)
        return;
    chart c = {.cv = cv, .st = st, .nk = st->norder, .sel = state_selected(st), .yl = 7};
    chart_ceilings(&c);
    char title[256];
    snprintf(title, sizeof title, "Roofline · FLOP/s over FLOP per DRAM "
             "byte · profile %s", st->have_dev && st->dev.profile
                                      ? st->dev.profile : "unknown");
    canvas_text(cv, r->y, r->x + 1, r->w - 1, EL_SECTION, title);

    /* legend placement: right when wide, below otherwise */
    int legend_right = r->w >= 110;
    int lw = legend_right ? 44 : 0;
    int lh = legend_right ? 0 : (int)(c.nk < 6 ? c.nk : 6) + 1;
    if (!legend_right && r->h - 1 - lh < 8)
        lh = r->h - 1 - 8 > 1 ? r->h - 1 - 8 : 0;
    c.pw = r->w - c.yl - 1 - lw - (legend_right ? 1 : 0);
    c.ph = r->h - 1 - 2 - lh; /* title, x ticks + x title, legend */
    if (c.pw < 8 || c.ph < 3)
        return;
    chart_ranges(&c);
    c.p.pw = c.pw;
    c.p.ph = c.ph;
    size_t ncell = (size_t)c.pw * (size_t)c.ph;
    c.p.bits = calloc(ncell, 1);
    c.p.ascii = calloc(ncell, 1);
    c.p.el = calloc(ncell, 1);
    c.owner = calloc(ncell, sizeof *c.owner);
    c.ox = r->x + c.yl + 1;
    c.oy = r->y + 1;
    if (c.p.bits && c.p.ascii && c.p.el && c.owner) {
        chart_roofs_axes(&c, r);
        chart_selected_line(&c);
        chart_points(&c);
        chart_labels(&c);
        /* x-axis title */
        canvas_text_right(cv, c.oy + c.ph + 1 > r->y + r->h - 1 ? r->y + r->h - 1
                                                                : c.oy + c.ph + 1,
                          c.ox + c.pw - 14 > c.ox ? c.ox + c.pw - 14 : c.ox, 14, EL_DIM,
                          "FLOP/byte");
    }
    free(c.p.bits);
    free(c.p.ascii);
    free(c.p.el);
    free(c.owner);
    rect lg;
    if (legend_right)
        lg = (rect){r->y + 1, r->x + r->w - lw, r->h - 1, lw};
    else
        lg = (rect){c.oy + c.ph + 2, r->x + 1, lh, r->w - 1};
    if (lg.h > 0)
        chart_legend(&c, lg);
}
