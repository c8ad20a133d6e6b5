/* state.c - the TUI's model: messages, keys, sort, filter (see state.h). */
#include "state.h"
#include "alloc.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void state_device_free(report_device *d)
{
    report_device_free(d); /* every field, uuid and selected_by too */
}

void state_device_copy(report_device *dst, const report_device *src)
{
    report_device_copy(dst, src);
}

/* Keep in step with report.h: every pointer of kernel_report is copied. */
void state_report_copy(kernel_report *dst, const kernel_report *src)
{
    kernel_report_copy(dst, src); /* the one deep copy, core/report.c */
}

void state_counts_copy(kernel_counts *dst, const kernel_counts *src)
{
    *dst = *src;
    dst->lines = NULL;
    dst->nlines = 0;
    dst->assumptions = NULL;
    dst->nassumptions = 0;
    dst->accesses = xmemdup(src->accesses,
                            src->naccesses * sizeof(access_summary));
    for (size_t i = 0; i < src->naccesses; i++)
        dst->accesses[i].var = cw_strdup(src->accesses[i].var);
}

void state_counts_free(kernel_counts *c)
{
    for (size_t i = 0; i < c->naccesses; i++)
        free(c->accesses[i].var);
    free(c->accesses);
    memset(c, 0, sizeof *c);
}

void state_init(tui_state *st)
{
    memset(st, 0, sizeof *st);
    st->measure = 1;
    st->rows = 24;
    st->cols = 80;
    snprintf(st->theme_name, sizeof st->theme_name, "default");
    snprintf(st->sampling, sizeof st->sampling, "starting");
#ifdef CW_VERSION
    snprintf(st->version, sizeof st->version, "%s", CW_VERSION);
#endif
}

static void kernel_free(tui_kernel *k)
{
    kernel_report_free(&k->kr);
    free(k->source);
    free(k->lines);
    state_counts_free(&k->counts);
    memset(k, 0, sizeof *k);
}

void state_free(tui_state *st)
{
    for (size_t i = 0; i < st->nk; i++)
        kernel_free(&st->k[i]);
    free(st->k);
    free(st->order);
    state_device_free(&st->dev);
    kernel_report_free(&st->counters);
    memset(st, 0, sizeof *st);
}

/* What p points to, freed with fn, then p itself (NULL: nothing). */
#define FREE_OWNED(p, fn)                                                      \
    do {                                                                       \
        if (p) {                                                               \
            fn(p);                                                             \
            free(p);                                                           \
        }                                                                      \
    } while (0)

/* *src moved into dst (what dst held freed with fn) and its box freed. */
#define TAKE_OWNED(dst, src, fn)                                               \
    do {                                                                       \
        fn(&(dst));                                                            \
        (dst) = *(src);                                                        \
        free(src);                                                             \
        (src) = NULL;                                                          \
    } while (0)

void state_msg_free(tui_msg *m)
{
    FREE_OWNED(m->kr, kernel_report_free);
    free(m->source);
    free(m->lines);
    FREE_OWNED(m->counts, state_counts_free);
    free(m->text);
    FREE_OWNED(m->dev, state_device_free);
    free(m->prof);
    FREE_OWNED(m->counters, kernel_report_free);
    cw_free_strv(m->names, m->nnames);
    memset(m, 0, sizeof *m);
}

tui_kernel *state_find(tui_state *st, int plan_no, int index)
{
    for (size_t i = 0; i < st->nk; i++)
        if (st->k[i].plan == plan_no && st->k[i].index == index)
            return &st->k[i];
    return NULL;
}

tui_kernel *state_selected(tui_state *st)
{
    if (st->norder == 0)
        return NULL;
    if (st->sel >= st->norder)
        st->sel = st->norder - 1;
    return &st->k[st->order[st->sel]];
}

void state_select_kernel(tui_state *st, size_t kernel_index)
{
    for (size_t i = 0; i < st->norder; i++)
        if (st->order[i] == kernel_index)
            st->sel = i;
}

void state_set_kernels(tui_state *st, int plan_no, char *const *names, size_t n)
{
    /* keep the selection on the same kernel where it survives */
    int sel_plan = -1, sel_index = -1;
    tui_kernel *cur = state_selected(st);
    if (cur) {
        sel_plan = cur->plan;
        sel_index = cur->index;
    }
    size_t w = 0;
    for (size_t i = 0; i < st->nk; i++) {
        if (st->k[i].plan == plan_no)
            kernel_free(&st->k[i]);
        else
            st->k[w++] = st->k[i];
    }
    st->nk = w;
    st->k = xrealloc(st->k, (st->nk + n) * sizeof *st->k);
    /* insert after the kernels of lower plan numbers: plan order */
    size_t at = 0;
    while (at < st->nk && st->k[at].plan < plan_no)
        at++;
    memmove(&st->k[at + n], &st->k[at], (st->nk - at) * sizeof *st->k);
    for (size_t i = 0; i < n; i++) {
        tui_kernel *k = &st->k[at + i];
        memset(k, 0, sizeof *k);
        k->plan = plan_no;
        k->index = (int)i;
        k->kr.name = cw_strdup(names[i] ? names[i] : "?");
        k->state = KS_PENDING;
    }
    st->nk += n;
    state_refresh_order(st);
    st->sel = 0;
    if (sel_plan >= 0) {
        for (size_t i = 0; i < st->norder; i++) {
            const tui_kernel *k = &st->k[st->order[i]];
            if (k->plan == sel_plan && k->index == sel_index)
                st->sel = i;
        }
    }
}

static void take_report(tui_kernel *k, kernel_report *kr)
{
    kernel_report_free(&k->kr);
    k->kr = *kr;
    memset(kr, 0, sizeof *kr);
}

void state_apply(tui_state *st, tui_msg *m)
{
    tui_kernel *k = NULL;
    switch (m->kind) {
    case MSG_DEVICE:
        if (m->dev) {
            TAKE_OWNED(st->dev, m->dev, state_device_free);
            st->have_dev = 1;
        }
        if (m->prof) {
            st->prof = *m->prof;
            st->have_prof = 1;
        }
        if (m->counters) {
            TAKE_OWNED(st->counters, m->counters, kernel_report_free);
            st->have_counters = 1;
        }
        break;
    case MSG_KERNELS:
        state_set_kernels(st, m->plan, m->names, m->nnames);
        break;
    case MSG_STATE:
        if ((k = state_find(st, m->plan, m->index)) != NULL) {
            k->state = m->state;
            if (m->state == KS_MEASURING)
                k->nrecent = 0; /* a new run: fresh sparkline */
        }
        break;
    case MSG_STATIC:
        if ((k = state_find(st, m->plan, m->index)) != NULL) {
            /* remember what the edit changes: the old prediction, and the
             * old median (the new static report carries no measurement) */
            if (k->kr.prediction.valid) {
                k->prev_pred_us = k->kr.prediction.time_us;
                k->has_prev_pred = 1;
            }
            if (k->kr.measurement.valid && !k->kr.measurement.error) {
                k->prev_meas_us = k->kr.measurement.median_us;
                k->has_prev_meas = 1;
            }
            if (m->kr)
                take_report(k, m->kr);
            free(k->source);
            free(k->lines);
            k->source = m->source;
            k->source_glsl = m->source_glsl;
            k->lines = m->lines;
            k->nlines = m->nlines;
            m->source = NULL;
            m->lines = NULL;
            m->nlines = 0;
            state_counts_free(&k->counts);
            k->have_counts = m->counts != NULL;
            if (m->counts) {
                k->counts = *m->counts;
                free(m->counts);
                m->counts = NULL;
            }
            k->nrecent = 0;
            k->state = m->state ? m->state : KS_CHECKED;
        }
        break;
    case MSG_SAMPLE:
        if ((k = state_find(st, m->plan, m->index)) != NULL) {
            k->recent[k->nrecent % SPARK_N] = m->sample_us;
            k->nrecent++;
        }
        break;
    case MSG_MEASURED:
        if ((k = state_find(st, m->plan, m->index)) != NULL && m->kr) {
            if (k->kr.measurement.valid && !k->kr.measurement.error) {
                k->prev_meas_us = k->kr.measurement.median_us;
                k->has_prev_meas = 1;
            }
            take_report(k, m->kr);
            const measurement *me = &k->kr.measurement;
            if (k->nrecent == 0) /* no live samples: show the run's own */
                for (size_t i = 0; i < me->nsample_us; i++) {
                    k->recent[k->nrecent % SPARK_N] = me->sample_us[i];
                    k->nrecent++;
                }
            k->state = me->error ? KS_FAILED
                       : me->valid ? KS_MEASURED : KS_NOTRUN;
        }
        break;
    case MSG_SAMPLING:
        snprintf(st->sampling, sizeof st->sampling, "%s",
                 m->text ? m->text : "");
        if (st->status_until_done && m->text &&
            (strncmp(m->text, "done", 4) == 0 ||
             strncmp(m->text, "static", 6) == 0)) {
            st->status[0] = '\0';
            st->status_until_done = 0;
        }
        break;
    case MSG_STATUS:
        snprintf(st->status, sizeof st->status, "%s", m->text ? m->text : "");
        st->status_until_done = 0;
        break;
    }
    if (m->kr) {
        kernel_report_free(m->kr);
        free(m->kr);
        m->kr = NULL;
    }
}

int state_change(const tui_kernel *k, int measured, double *rel,
                 double *prev_us)
{
    *rel = 0;
    *prev_us = 0;
    double cur;
    if (measured) {
        if (!k->has_prev_meas || k->state == KS_MEASURING ||
            !state_median(k, &cur))
            return 0;
        *prev_us = k->prev_meas_us;
    } else {
        if (!k->has_prev_pred || !k->kr.prediction.valid)
            return 0;
        cur = k->kr.prediction.time_us;
        *prev_us = k->prev_pred_us;
    }
    if (!(*prev_us > 0))
        return 0;
    *rel = cur / *prev_us - 1;
    return *rel > 0.005 || *rel < -0.005;
}

size_t state_recent(const tui_kernel *k, double *out, size_t max)
{
    size_t n = k->nrecent < SPARK_N ? k->nrecent : SPARK_N;
    if (n > max)
        n = max;
    for (size_t i = 0; i < n; i++)
        out[i] = k->recent[(k->nrecent - n + i) % SPARK_N];
    return n;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int state_median(const tui_kernel *k, double *us)
{
    if (k->state != KS_MEASURING && k->kr.measurement.valid &&
        !k->kr.measurement.error) {
        *us = k->kr.measurement.median_us;
        return 1;
    }
    if (k->state == KS_MEASURING && k->nrecent > 0) {
        double v[SPARK_N];
        size_t n = state_recent(k, v, SPARK_N);
        qsort(v, n, sizeof v[0], cmp_double);
        *us = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
        return 1;
    }
    return 0;
}

const char *state_sort_name(sort_key s)
{
    static const char *const names[SORT_COUNT] = {
        "plan", "name", "predicted", "measured", "ratio", "findings"};
    return (unsigned)s < SORT_COUNT ? names[s] : "?";
}

const char *state_kstate_name(kernel_state s)
{
    switch (s) {
    case KS_PENDING: return "pending";
    case KS_CHECKING: return "checking";
    case KS_CHECKED: return "checked";
    case KS_MEASURING: return "measuring";
    case KS_MEASURED: return "measured";
    case KS_FAILED: return "failed";
    case KS_NOTRUN: return "not run";
    }
    return "?";
}

static int icontains(const char *hay, const char *needle)
{
    if (!hay)
        return 0;
    size_t n = strlen(needle);
    for (; *hay; hay++) {
        size_t i = 0;
        while (i < n && hay[i] &&
               tolower((unsigned char)hay[i]) ==
                   tolower((unsigned char)needle[i]))
            i++;
        if (i == n)
            return 1;
    }
    return n == 0;
}

static int matches(const tui_kernel *k, const char *f)
{
    if (!*f)
        return 1;
    if (icontains(k->kr.name, f) || icontains(k->kr.prediction.bound, f))
        return 1;
    if (k->kr.divergence.valid &&
        icontains(div_status_name(k->kr.divergence.status), f))
        return 1;
    for (size_t i = 0; i < k->kr.nfindings; i++)
        if (icontains(k->kr.findings[i].id, f) ||
            icontains(severity_name(k->kr.findings[i].sev), f))
            return 1;
    return 0;
}

/* Sort value; missing values sort last in either direction. */
static int sort_value(const tui_kernel *k, sort_key s, double *v)
{
    switch (s) {
    case SORT_PREDICTED:
        *v = k->kr.prediction.time_us;
        return k->kr.prediction.valid;
    case SORT_MEASURED:
        return state_median(k, v);
    case SORT_RATIO:
        *v = k->kr.divergence.ratio;
        return k->kr.divergence.valid &&
               k->kr.divergence.status != DIV_UNKNOWN;
    case SORT_FINDINGS:
        *v = 1e6 * (double)kernel_report_count(&k->kr, SEV_ERROR) +
             1e3 * (double)kernel_report_count(&k->kr, SEV_WARNING) +
             (double)kernel_report_count(&k->kr, SEV_NOTE);
        return 1;
    default:
        *v = 0;
        return 1;
    }
}

static int cmp_kernels(const void *a, const void *b, void *arg)
{
    const tui_state *st = arg;
    const tui_kernel *x = &st->k[*(const size_t *)a];
    const tui_kernel *y = &st->k[*(const size_t *)b];
    int c = 0;
    if (st->sort == SORT_NAME) {
        c = strcmp(x->kr.name ? x->kr.name : "", y->kr.name ? y->kr.name : "");
        if (st->sort_desc)
            c = -c;
    } else if (st->sort != SORT_PLAN) {
        double vx = 0, vy = 0;
        int hx = sort_value(x, st->sort, &vx), hy = sort_value(y, st->sort, &vy);
        if (hx != hy)
            return hx ? -1 : 1;
        c = vx < vy ? -1 : vx > vy;
        /* times, ratios and findings: largest first by default */
        if (!st->sort_desc)
            c = -c;
    } else if (st->sort_desc) {
        c = x->plan != y->plan ? (x->plan < y->plan ? 1 : -1)
                               : (x->index < y->index ? 1 : -1);
    }
    if (c == 0)
        c = x->plan != y->plan ? (x->plan < y->plan ? -1 : 1)
                               : (x->index < y->index ? -1 : x->index > y->index);
    return c;
}

void state_refresh_order(tui_state *st)
{
    size_t keep = st->norder && st->sel < st->norder ? st->order[st->sel]
                                                     : (size_t)-1;
    st->order = xrealloc(st->order, (st->nk ? st->nk : 1) * sizeof(size_t));
    st->norder = 0;
    for (size_t i = 0; i < st->nk; i++)
        if (matches(&st->k[i], st->filter))
            st->order[st->norder++] = i;
    qsort_r(st->order, st->norder, sizeof(size_t), cmp_kernels, st);
    st->sel = 0;
    for (size_t i = 0; i < st->norder; i++)
        if (st->order[i] == keep)
            st->sel = i;
}

int state_click(tui_state *st, int y, int x, int dbl)
{
    (void)x;
    if (st->filter_edit || st->view == VIEW_HELP) {
        st->view = st->view == VIEW_HELP ? st->back : st->view;
        return ACT_REDRAW;
    }
    if (st->view != VIEW_MAIN && st->view != VIEW_ROOFLINE)
        return ACT_NONE;
    if (y < st->list_y || y >= st->list_y + st->list_h)
        return ACT_NONE;
    long pos = (long)st->list_first + (y - st->list_y);
    if (pos < 0 || pos >= (long)st->norder)
        return ACT_NONE;
    st->sel = (size_t)pos;
    if (dbl) {
        st->view = VIEW_DETAIL;
        st->scroll[VIEW_DETAIL] = 0;
    }
    return ACT_REDRAW;
}

static const char *base_name(const char *p)
{
    const char *s = p ? strrchr(p, '/') : NULL;
    return s ? s + 1 : p ? p : "";
}

const finding *state_line_finding(const tui_kernel *k, int line)
{
    const finding *w = NULL;
    const char *sb = base_name(k->kr.shader);
    /* a .spv's embedded GLSL is cited under its own file name */
    size_t sl = strlen(sb);
    if (sl > 4 && strcmp(sb + sl - 4, ".spv") == 0)
        sb = "";
    for (size_t i = 0; line > 0 && i < k->kr.nfindings; i++) {
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
