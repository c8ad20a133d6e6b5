/* views_detail.c - the detail view of one kernel: prediction, measurement,
 * verdict, findings, the evaluator's counts.  See views.h. */
#include "views_int.h"
#include "units.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "theme.h"

/* A section's title; when it has nothing to show (!have), why not, dim,
 * instead of its lines.  Returns have. */
static int section_shows(pane *p, const char *title, int have, const char *why_not)
{
    pane_section(p, title);
    if (!have)
        pane_wrap(p, 1, 0, EL_DIM, why_not);
    return have;
}

/* One line of two amounts in one unit (views_fmt_si): "key  X what_x ·
 * Y what_y". */
static void kv_two(pane *p, const char *key, const char *unit, double x, const char *what_x,
                   double y, const char *what_y)
{
    char a[32], b[32], line[160];
    views_fmt_si(a, sizeof a, x, unit);
    views_fmt_si(b, sizeof b, y, unit);
    snprintf(line, sizeof line, "%s %s · %s %s", a, what_x, b, what_y);
    pane_kv(p, 1, key, EL_NORMAL, line);
}

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
    pane_wrap(p, 1, 2, EL_DIM, b);
    if (kr->workgroups[0]) {
        char inv[32];
        views_fmt_count(inv, sizeof inv, (uint64_t)kr->workgroups[0] *
                      kr->workgroups[1] * kr->workgroups[2] *
                      (kr->local_size[0] ? kr->local_size[0] : 1) *
                      (kr->local_size[1] ? kr->local_size[1] : 1) *
                      (kr->local_size[2] ? kr->local_size[2] : 1));
        snprintf(b, sizeof b, "workgroups %u×%u×%u · local size %u×%u×%u · "
                 "%s invocations", kr->workgroups[0], kr->workgroups[1],
                 kr->workgroups[2], kr->local_size[0], kr->local_size[1],
                 kr->local_size[2], inv);
        pane_wrap(p, 1, 2, EL_DIM, b);
    }
}

void views_detail_prediction(pane *p, const tui_state *st,
                              const tui_kernel *k)
{
    const prediction *pr = &k->kr.prediction;
    char a[32], b[32], c[64], d[64], line[512];
    if (!section_shows(p, "Prediction", pr->valid,
                       k->state <= KS_CHECKING ? "analysing…"
                                               : "no prediction (see the findings)"))
        return;
    views_fmt_time(a, sizeof a, pr->time_us);
    views_fmt_time(b, sizeof b, pr->ideal_time_us);
    snprintf(line, sizeof line, "%s (ideal %s) · %s-bound · %s", a, b,
             pr->bound ? pr->bound : "?", confidence_name(pr->conf));
    pane_kv(p, 1, "time", EL_PREDICTED, line);
    char chg[96];
    if (views_fmt_change(chg, sizeof chg, k, 0)) {
        snprintf(line, sizeof line, "%s since the last change", chg);
        pane_kv(p, 1, "changed", EL_WARN, line);
    }
    views_fmt_si(c, sizeof c, pr->flops, "FLOP");
    views_fmt_si(d, sizeof d, pr->bytes, "B");
    char inv[32];
    views_fmt_count(inv, sizeof inv, pr->invocations);
    if (pr->invocations)
        snprintf(line, sizeof line, "%s · %s compulsory · %s invocations", c,
                 d, inv);
    else
        snprintf(line, sizeof line, "%s · %s compulsory", c, d);
    pane_kv(p, 1, "work", EL_NORMAL, line);
    if (pr->time_us > 0 && pr->bytes > 0) {
        views_fmt_si(c, sizeof c, pr->bytes / pr->time_us * 1e6, "B/s");
        views_fmt_si(d, sizeof d, pr->flops / pr->time_us * 1e6, "FLOP/s");
        snprintf(line, sizeof line, "%s · %s", c, d);
        pane_kv(p, 1, "at that time", EL_NORMAL, line);
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
        size_t order[64];
        size_t nt = views_terms_order(pr, order, 64);
        for (size_t oi = 0; oi < nt && p->y < p->cv.rows; oi++) {
            const pred_term *t = &pr->terms[order[oi]];
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
            pane_wrap(p, 2, 2, EL_NORMAL, b2);
        }
    }
}

void views_detail_counts(pane *p, const tui_kernel *k)
{
    if (!k->have_counts)
        return;
    const kernel_counts *c = &k->counts;
    char t[64], a[32], b[32], d[32], e[32], line[512];
    snprintf(t, sizeof t, "Counts (%s)", confidence_name(c->conf));
    pane_section(p, t);
    views_fmt_count(a, sizeof a, c->invocations);
    views_fmt_count(b, sizeof b, c->active_invocations);
    views_fmt_count(d, sizeof d, c->workgroups);
    snprintf(line, sizeof line, "%s launched · %s active · %s workgroups", a,
             b, d);
    pane_kv(p, 1, "invocations", EL_NORMAL, line);
    views_fmt_si(a, sizeof a, c->flops_fp32, "");
    views_fmt_si(b, sizeof b, c->flops_fp16, "");
    views_fmt_si(d, sizeof d, c->flops_fp64, "");
    views_fmt_si(e, sizeof e, c->sfu_ops, "");
    snprintf(line, sizeof line, "fp32 %s · fp16 %s · fp64 %s · SFU %s", a, b,
             d, e);
    pane_kv(p, 1, "FLOPs", EL_NORMAL, line);
    views_fmt_si(a, sizeof a, c->instructions, "");
    views_fmt_si(b, sizeof b, c->int_ops, "");
    snprintf(line, sizeof line, "%s executed · %s integer ops · %d FP "
             "chain%s", a, b, c->fp_chains, c->fp_chains == 1 ? "" : "s");
    pane_kv(p, 1, "instructions", EL_NORMAL, line);
    views_fmt_si(a, sizeof a, c->storage_load_bytes, "B");
    views_fmt_si(b, sizeof b, c->storage_store_bytes, "B");
    views_fmt_si(d, sizeof d, c->compulsory_read_bytes, "B");
    views_fmt_si(e, sizeof e, c->compulsory_write_bytes, "B");
    snprintf(line, sizeof line, "%s loaded · %s stored (distinct: %s read, "
             "%s written)", a, b, d, e);
    pane_kv(p, 1, "storage", EL_NORMAL, line);
    if (c->shared_load_bytes > 0 || c->shared_store_bytes > 0)
        kv_two(p, "shared", "B", c->shared_load_bytes, "loaded", c->shared_store_bytes,
               "stored");
    if (c->uniform_load_bytes > 0) {
        views_fmt_si(a, sizeof a, c->uniform_load_bytes, "B");
        pane_kv(p, 1, "uniform", EL_NORMAL, a);
    }
    if (c->barriers > 0 || c->atomics > 0)
        kv_two(p, "sync", "", c->barriers, "barriers", c->atomics, "atomics");
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
        pane_wrap(p, 2, 4, EL_NORMAL, line);
    }
    if (shown < c->naccesses) {
        snprintf(line, sizeof line, "… %zu more", c->naccesses - shown);
        pane_wrap(p, 2, 4, EL_DIM, line);
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

void views_detail_measurement(pane *p, const tui_state *st,
                               const tui_kernel *k)
{
    const measurement *m = &k->kr.measurement;
    char a[32], b[32], c[32], d[32], line[512];
    if (!section_shows(p, "Measurement", st->measure, "static only: not run"))
        return;
    if (m->error) {
        pane_kv(p, 1, "failed", EL_ERROR, m->error);
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
        pane_kv(p, 1, "state", EL_MEASURED, line);
    } else if (!m->valid) {
        pane_wrap(p, 1, 0, EL_DIM, "not measured yet");
        return;
    }
    if (m->valid && k->state != KS_MEASURING) {
        views_fmt_time(a, sizeof a, m->median_us);
        views_fmt_time(b, sizeof b, m->mad_us);
        snprintf(line, sizeof line, "%s ± %s (MAD, %.1f%%) · %u samples", a, b,
                 m->median_us > 0 ? 100 * m->mad_us / m->median_us : 0.0,
                 m->samples);
        pane_kv(p, 1, "median", EL_MEASURED, line);
        char chg[96];
        if (views_fmt_change(chg, sizeof chg, k, 1)) {
            snprintf(line, sizeof line, "%s against the previous run", chg);
            pane_kv(p, 1, "changed", EL_WARN, line);
        }
        views_fmt_time(a, sizeof a, m->min_us);
        views_fmt_time(b, sizeof b, m->max_us);
        views_fmt_time(c, sizeof c, m->p90_us);
        snprintf(line, sizeof line, "min %s · p90 %s · max %s", a, c, b);
        pane_kv(p, 1, "range", EL_NORMAL, line);
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
            pane_kv(p, 1, "achieved", EL_MEASURED, line);
        }
        if (m->has_cold) {
            views_fmt_time(d, sizeof d, m->cold_us);
            snprintf(line, sizeof line, "%s (first dispatch, not in the median)",
                     d);
            pane_kv(p, 1, "cold", EL_NORMAL, line);
        }
        if (m->has_invocations) {
            char x1[32], x2[32];
            views_fmt_count(x1, sizeof x1, m->invocations);
            views_fmt_count(x2, sizeof x2, k->kr.prediction.invocations);
            int same = k->kr.prediction.valid &&
                       m->invocations == k->kr.prediction.invocations;
            snprintf(line, sizeof line, "%s (model %s)%s", x1,
                     k->kr.prediction.valid ? x2 : "-",
                     k->kr.prediction.valid ? (same ? " match" : " MISMATCH")
                                            : "");
            pane_kv(p, 1, "invocations", same ? EL_GOOD : EL_WARN, line);
        }
        if (m->clock.ran) {
            /* the clock check after the warm-up (collectors/vk_clock.h) */
            snprintf(line, sizeof line, "%.0f%% of the profile's%s%s",
                     100 * m->clock.ratio, m->clock.settled ? "" : " LOW",
                     m->clock.extra_warmup_s > 0 ? " after more warm-up" : "");
            pane_kv(p, 1, "clock", m->clock.settled ? EL_GOOD : EL_WARN, line);
        } else if (m->clock.unavailable) {
            pane_kv(p, 1, "clock", EL_DIM, "not checked (the probe could not run)");
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
        snprintf(line, sizeof line, "counters per dispatch (%s scope)",
                 m->counters_scope ? m->counters_scope : "?");
        if (p->y < p->cv.rows)
            canvas_text(&p->cv, p->y, 1, p->cv.cols - 1, EL_DIM, line);
        p->y++;
        for (size_t i = 0; i < m->ncounters && p->y < p->cv.rows; i++) {
            const counter_value *cvv = &m->counters[i];
            char val[256];
            if (cvv->available) {
                units_counter(val, sizeof val, cvv->name, cvv->value);
                if (cvv->scaled)
                    strncat(val, " (scaled)", sizeof val - strlen(val) - 1);
            } else {
                snprintf(val, sizeof val, "unavailable (%s)",
                         cvv->reason ? cvv->reason : "no reason given");
            }
            canvas_text(&p->cv, p->y, 2, 22, EL_NORMAL, cvv->name);
            int save = p->y;
            pane_wrap(p, 25, 2, cvv->available ? EL_MEASURED : EL_DIM, val);
            if (p->y == save)
                p->y++;
        }
    }
}

static void detail_verdict(pane *p, const tui_kernel *k)
{
    const divergence *dv = &k->kr.divergence;
    if (!section_shows(p, "Verdict", dv->valid,
                       k->state == KS_MEASURING
                           ? "waiting for the measurement…"
                           : "no verdict (needs a prediction and a measurement)"))
        return;
    char r[32], line[256];
    views_fmt_ratio(r, sizeof r, dv->ratio);
    snprintf(line, sizeof line, "%s · measured / predicted = %s",
             div_status_name(dv->status),
             dv->status == DIV_UNKNOWN ? "-" : r);
    pane_wrap(p, 1, 2, views_verdict_el(k), line);
    if (dv->explanation)
        pane_wrap(p, 1, 2, EL_NORMAL, dv->explanation);
}

void views_detail_findings(pane *p, const tui_kernel *k)
{
    const kernel_report *kr = &k->kr;
    char t[64];
    snprintf(t, sizeof t, "Findings (%zu)", kr->nfindings);
    if (!section_shows(p, t, kr->nfindings != 0,
                       k->state <= KS_CHECKING ? "analysing…" : "none"))
        return;
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
            pane_wrap(p, 1, 2, (uint8_t)views_sev_el(f->sev), line);
            pane_wrap(p, 3, 0, EL_NORMAL, f->message);
            if (f->hint) {
                snprintf(line, sizeof line, "hint: %s", f->hint);
                pane_wrap(p, 3, 6, EL_DIM, line);
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

void views_render_detail(canvas *cv, const rect *body, tui_state *st)
{
    tui_kernel *k = views_selected_kernel(cv, body, st);
    if (!k)
        return;
    int two = body->w >= 140;
    int w1 = two ? body->w / 2 - 1 : body->w - 1;
    int h = pane_height(k);
    pane a, b;
    pane_init(&a, w1, h, cv->utf8);
    detail_head(&a, k);
    if (two) {
        pane_init(&b, body->w - w1 - 2, h, cv->utf8);
        views_detail_prediction(&a, st, k);
        views_detail_counts(&a, k);
        views_detail_findings(&a, k);
        pane_blank(&b);
        pane_blank(&b);
        if (k->kr.workgroups[0])
            pane_blank(&b);
        detail_verdict(&b, k);
        views_detail_measurement(&b, st, k);
        views_show_panes(cv, body, st, VIEW_DETAIL, &a, &b, w1, 1);
        canvas_free(&b.cv);
    } else {
        detail_verdict(&a, k);
        views_detail_prediction(&a, st, k);
        views_detail_measurement(&a, st, k);
        views_detail_findings(&a, k);
        views_detail_counts(&a, k);
        views_show_panes(cv, body, st, VIEW_DETAIL, &a, NULL, w1, 1);
    }
    canvas_free(&a.cv);
}
