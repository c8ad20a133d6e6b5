/* verdict.c - measured vs predicted (see verdict.h).  Pure: no I/O. */
#include "verdict.h"
#include "units.h"

#include "alloc.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct sbuf {
    char text[3072];
    size_t n;
} sbuf;

static void add(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(sbuf *b, const char *fmt, ...)
{
    if (b->n >= sizeof b->text - 1)
        return;
    if (b->n) {
        b->text[b->n++] = ';';
        b->text[b->n++] = ' ';
        b->text[b->n] = 0;
    }
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(b->text + b->n, sizeof b->text - b->n, fmt, ap);
    va_end(ap);
    if (w > 0)
        b->n = b->n + (size_t)w < sizeof b->text ? b->n + (size_t)w : sizeof b->text - 1;
}

static const counter_value *find_counter(const measurement *m, const char *name)
{
    for (size_t i = 0; i < m->ncounters; i++)
        if (strcmp(m->counters[i].name, name) == 0)
            return &m->counters[i];
    return NULL;
}

/* An available counter whose name ends in suffix (PMU-qualified names). */
static int counter_val(const measurement *m, const char *suffix, double *v)
{
    size_t sl = strlen(suffix);
    for (size_t i = 0; i < m->ncounters; i++) {
        const char *n = m->counters[i].name;
        size_t nl = strlen(n);
        if (nl >= sl && strcmp(n + nl - sl, suffix) == 0 && m->counters[i].available) {
            *v = m->counters[i].value;
            return 1;
        }
    }
    return 0;
}

/* What the hardware counters say: IPC, cache misses against the model's
 * bytes, the FP instruction mix, how many CPUs were busy. */
static void counter_evidence(const verdict_input *in, const prediction *p,
                             const measurement *m, sbuf *b)
{
    const counter_value *ins = find_counter(m, "instructions");
    const counter_value *cyc = find_counter(m, "cycles");
    if (ins && cyc && ins->available && cyc->available && cyc->value > 0)
        add(b, "IPC %.2f", ins->value / cyc->value);
    double miss, refs;
    if (counter_val(m, "cache-misses", &miss)) {
        char share[64] = "";
        if (counter_val(m, "cache-references", &refs) && refs > 0)
            snprintf(share, sizeof share, " (%.1f%% of references)", 100 * miss / refs);
        char n1[32], b1[32], b2[32];
        units_count(n1, sizeof n1, miss);
        units_bytes(b1, sizeof b1, miss * 64.0);
        units_bytes(b2, sizeof b2, p->bytes);
        if (p->bytes > 0)
            add(b, "cache misses %s per call%s: × 64 B = %s vs the model's %s "
                   "compulsory", n1, share, b1, b2);
        else
            add(b, "cache misses %s per call%s", n1, share);
    }
    double sc, p128 = 0, p256 = 0, p512 = 0;
    int have_sc = counter_val(m, ":SCALAR_SINGLE", &sc) ||
                  counter_val(m, ":SCALAR_UOPS_RETIRED", &sc);
    int have_p = counter_val(m, "128B_PACKED_SINGLE", &p128) |
                 counter_val(m, "PACK128_UOPS_RETIRED", &p128) |
                 counter_val(m, "256B_PACKED_SINGLE", &p256) |
                 counter_val(m, "PACK256_UOPS_RETIRED", &p256) |
                 counter_val(m, "512B_PACKED_SINGLE", &p512) |
                 counter_val(m, "PACK512_UOPS_RETIRED", &p512);
    if (have_sc || have_p) {
        char n1[32], n2[32];
        units_count(n1, sizeof n1, have_sc ? sc : 0.0);
        units_count(n2, sizeof n2, p128 + p256 + p512);
        add(b, "FP instructions per call: %s scalar, %s packed", n1, n2);
    }
    double tc;
    /* task-clock is CPU time in ns summed over the kernel's threads; the
     * counters ran from before the hand-off to the kernel's thread until
     * after it returned: divide by that span, not the call's */
    if (in->threads && counter_val(m, "task-clock", &tc) && m->median_us > 0) {
        double span = m->counted_span_us > 0 ? m->counted_span_us : m->median_us;
        double busy = tc / 1e3 / span;
        char more[160] = "";
        if (in->threads > 1 && busy < 0.75 * in->threads)
            snprintf(more, sizeof more, " of the %u threads planned (serial code, a "
                     "smaller thread pool, or other load on the machine)", in->threads);
        char t1[32], t2[32];
        units_time_us(t1, sizeof t1, tc / 1e3);
        units_time_us(t2, sizeof t2, span);
        add(b, "CPU time %s per call over %s counted: %.1f CPUs busy%s", t1, t2, busy,
            more);
    }
}

/* Evidence common to every status. */
static void evidence(const verdict_input *in, const prediction *p, const measurement *m,
                     sbuf *b)
{
    const clock_reading *ck = &m->clock;
    if (ck->ran && (!ck->settled || ck->extra_warmup_s > 0)) {
        char pr[32], ex[32];
        units_time_us(pr, sizeof pr, ck->probe_us);
        units_time_us(ex, sizeof ex, ck->expected_us);
        if (!ck->settled)
            add(b, "the clock stayed low: the clock probe (a dependent FMA chain) took %s "
                   "where the profile's clock gives %s (%.0f%% of it) after %.1f s more "
                   "warm-up; the samples may be slow for the clock, not the kernel",
                pr, ex, 100 * ck->ratio, ck->extra_warmup_s);
        else
            add(b, "the clock came up after %.1f s more warm-up (%u clock probes: the "
                   "first at %.0f%% of the profile's clock, the last at %.0f%%)",
                ck->extra_warmup_s, ck->probes,
                ck->first_probe_us > 0 ? 100 * ck->expected_us / ck->first_probe_us : 0,
                100 * ck->ratio);
    }
    if (m->has_invocations && p->invocations && m->invocations != p->invocations)
        add(b, "pipeline statistics counted %llu invocations, the model expected %llu",
            (unsigned long long)m->invocations, (unsigned long long)p->invocations);
    double spread = m->median_us > 0 ? m->mad_us / m->median_us : 0;
    if (spread > 0.05)
        add(b, "samples spread widely (MAD %.0f%% of the median over %u samples)",
            100 * spread, m->samples);
    if (m->has_cold && m->median_us > 0 && m->cold_us > 1.3 * m->median_us)
        add(b, "the cold first sample took %.1f× the median (first touch, compilation); "
               "it is excluded", m->cold_us / m->median_us);
    if (in->launch_us > 0 && m->median_us > 0 && m->median_us < 3 * in->launch_us) {
        char t[32], l[32];
        units_time_us(t, sizeof t, m->median_us);
        units_time_us(l, sizeof l, in->launch_us);
        add(b, "the dispatch (%s) is within 3× of the launch overhead (%s): "
               "fixed costs dominate", t, l);
    }
    counter_evidence(in, p, m, b);
    int hw_missing = 0;
    const char *reason = NULL;
    for (size_t i = 0; i < m->ncounters; i++)
        if (!m->counters[i].available) {
            hw_missing++;
            if (!reason)
                reason = m->counters[i].reason;
        }
    if (hw_missing && m->ncounters)
        add(b, "%d of %zu counters unavailable (%s)", hw_missing, m->ncounters,
            reason ? reason : "no reason given");
    if (in->code_summary && in->code_summary[0])
        add(b, "machine code: %s", in->code_summary);
}

double verdict_band(double tolerance, const measurement *m)
{
    if (!(tolerance >= 0))
        tolerance = VERDICT_DEFAULT_TOLERANCE;
    /* The band widens with the measurement's own noise: 3 MADs. */
    double spread = m->median_us > 0 ? m->mad_us / m->median_us : 0;
    return tolerance + 3 * spread;
}

/* Measured beats the ideal time: faster than the ceilings allow. */
static int beats_ceiling(const prediction *p, const measurement *m)
{
    return p->ideal_time_us > 0 && m->median_us < p->ideal_time_us;
}

/* The time judged: the median, or -- when the kernel's threads waited
 * noticeably for CPUs held by other processes -- the median of each
 * call's time less that wait.  The worst thread's wait over-counts the
 * loss when threads overlap their waits, so the discount never takes the
 * time below the roofline; beating the ceiling is judged on the raw
 * median alone. */
static double judged_us(const prediction *p, const measurement *m)
{
    if (!m->has_wait || !(m->own_median_us > 0) || m->wait_median_us <= 0.02 * m->median_us)
        return m->median_us;
    double floor_us = p->ideal_time_us > 0 ? p->ideal_time_us : p->time_us;
    if (floor_us > m->median_us)
        floor_us = m->median_us;
    return m->own_median_us > floor_us ? m->own_median_us : floor_us;
}

/* The best call, its CPU wait discounted, as the kernel's capability.
 * The worst thread's wait over-counts the loss when threads overlap their
 * waits; such a discount cannot take the call below the roofline. */
static double best_own_us(const prediction *p, const measurement *m)
{
    double raw = m->min_us > 0 ? m->min_us : m->median_us;
    if (!m->has_wait || !(m->best_own_us > 0) || m->best_own_us >= raw)
        return raw;
    if (m->best_own_us < p->time_us)
        return p->time_us < raw ? p->time_us : raw;
    return m->best_own_us;
}

/* "200 GFLOP/s (best call 222 GFLOP/s) of a 2.00 TFLOP/s FP32 roofline: 10.0%
 * efficiency (best call 11.1%)" for a kernel predicted at its roofline. */
static void roofline_rate(const prediction *p, const measurement *m, sbuf *b)
{
    double secs = m->median_us * 1e-6;
    double best_s = (m->min_us > 0 ? m->min_us : m->median_us) * 1e-6;
    double roof_s = p->time_us * 1e-6;
    double eff = p->time_us / m->median_us, eff_best = roof_s / best_s;
    int fp = p->bound && strcmp(p->bound, "fp32") == 0 && p->flops > 0;
    double work = fp ? p->flops : p->bytes;
    const char *unit = fp ? "FLOP" : "B";
    char r1[32], r2[32], r3[32];
    units_rate(r1, sizeof r1, work / secs, unit);
    units_rate(r2, sizeof r2, work / best_s, unit);
    units_rate(r3, sizeof r3, work / roof_s, unit);
    add(b, "reaches %s (best call %s) of a %s %s roofline: %.1f%% efficiency (best call "
           "%.1f%%)", r1, r2, r3, fp ? "FP32" : "memory", eff * 100, eff_best * 100);
}

static void judge(const verdict_input *in, const prediction *p, const measurement *m,
                  divergence *out)
{
    free(out->explanation);
    memset(out, 0, sizeof *out);
    out->valid = 1;
    out->status = DIV_UNKNOWN;
    sbuf b = {{0}, 0};
    if (!p->valid || !(p->time_us > 0)) {
        add(&b, "no prediction for this kernel");
        if (m->error)
            add(&b, "the run failed: %s", m->error);
        out->explanation = cw_strdup(b.text);
        return;
    }
    if (!m->valid || !(m->median_us > 0)) {
        add(&b, m->error ? "the run failed: %s" : "%s",
            m->error ? m->error : "no measurement");
        out->explanation = cw_strdup(b.text);
        return;
    }
    double judged = judged_us(p, m);
    out->ratio = judged / p->time_us;
    double band = verdict_band(in->tolerance, m);
    /* An estimated prediction with a range: a measurement inside it is no
     * divergence, only a model that was unsure (never `slower` from a
     * guess). */
    int ranged = p->conf == CONF_ESTIMATED && p->time_low_us > 0 &&
                 p->time_high_us >= p->time_low_us;
    int in_range = ranged && judged >= p->time_low_us / (1 + band) &&
                   judged <= p->time_high_us * (1 + band);
    if (in_range && !beats_ceiling(p, m))
        out->status = DIV_OK;
    else if (ranged && judged > p->time_high_us * (1 + band))
        out->status = DIV_SLOWER;
    else if (out->ratio > 1 + band && !ranged)
        out->status = DIV_SLOWER;
    else if (out->ratio < 1 / (1 + band) || beats_ceiling(p, m))
        out->status = DIV_FASTER;
    else
        out->status = DIV_OK;
    char meas[96], pred[32], ideal[32];
    units_time_us(meas, sizeof meas, m->median_us);
    units_time_us(pred, sizeof pred, p->time_us);
    units_time_us(ideal, sizeof ideal, p->ideal_time_us);
    if (judged != m->median_us) {
        char own[32];
        units_time_us(own, sizeof own, judged);
        snprintf(meas + strlen(meas), sizeof meas - strlen(meas), " (%s", own);
        snprintf(meas + strlen(meas), sizeof meas - strlen(meas), "%s", " without CPU wait)");
    }
    if (beats_ceiling(p, m))
        add(&b, "measured %s is faster than the profile's ceilings allow (%.0f%% of the "
                "ideal %s): the ceiling is wrong; run `%s`", meas,
            100 * p->ideal_time_us / m->median_us, ideal,
            in->calibrate ? in->calibrate : "clockwork calibrate");
    else if (in_range) {
        char lo[32], hi[32];
        units_time_us(lo, sizeof lo, p->time_low_us);
        units_time_us(hi, sizeof hi, p->time_high_us);
        add(&b, "measured %s is inside the estimated range %s to %s (band ±%.0f%%): the "
                "model was unsure, it guessed addresses or atomics that depend on buffer "
                "contents", meas, lo, hi, 100 * band);
    } else if (out->status == DIV_OK)
        add(&b, "measured %s is within ±%.0f%% of the predicted %s", meas, 100 * band, pred);
    else if (ranged && out->status == DIV_SLOWER) {
        char hi[32];
        units_time_us(hi, sizeof hi, p->time_high_us);
        add(&b, "measured %s is %.2f× the predicted %s and above the worst case of the "
                "estimate (%s, band ±%.0f%%)", meas, out->ratio, pred, hi, 100 * band);
    }
    else
        add(&b, "measured %s is %.2f× the predicted %s (band ±%.0f%%)", meas, out->ratio,
            pred, 100 * band);
    if (in->roofline_prediction) {
        roofline_rate(p, m, &b);
        double best = best_own_us(p, m);
        if (m->has_wait && m->wait_median_us > 0.02 * m->median_us)
        {
            char w[32];
            units_time_us(w, sizeof w, m->wait_median_us);
            add(&b, "the kernel's threads waited %s per call (median) for a CPU held "
                    "by other processes: %.1f%% efficiency on the best call once that "
                    "wait is discounted", w, 100 * p->time_us / best);
        }
    } else if (out->status != DIV_OK) {
        double s = m->median_us * 1e-6;
        char r[32];
        units_rate(r, sizeof r, p->bytes / s, "B");
        if (p->bytes > 0)
            add(&b, "achieved %s on the compulsory bytes", r);
        units_rate(r, sizeof r, p->flops / s, "FLOP");
        if (p->flops > 0)
            add(&b, "%s", r);
        if (p->bound)
            add(&b, "the model's bound was %s", p->bound);
    }
    evidence(in, p, m, &b);
    out->explanation = cw_strdup(b.text);
}

void verdict_input_default(verdict_input *in)
{
    memset(in, 0, sizeof *in);
    in->tolerance = VERDICT_DEFAULT_TOLERANCE;
    in->launch_us = -1;
    in->min_efficiency = -1;
}

void verdict_judge(const prediction *p, const measurement *m, double tolerance,
                   double launch_us, divergence *out)
{
    verdict_input in;
    verdict_input_default(&in);
    in.tolerance = tolerance >= 0 ? tolerance : VERDICT_DEFAULT_TOLERANCE;
    in.launch_us = launch_us;
    judge(&in, p, m, out);
}

finding *verdict_far_below_roofline(kernel_report *kr, const char *file, const char *basis,
                                    const char *term, double term_us, double time_us,
                                    double ideal_us, double threshold, const char *hint)
{
    if (!kr || !(time_us > 0))
        return NULL;
    double thr = threshold >= 0 ? threshold : VERDICT_DEFAULT_MIN_EFFICIENCY;
    double eff = ideal_us / time_us;
    if (eff >= thr)
        return NULL;
    char t1[32], t2[32], t3[32];
    units_time_us(t1, sizeof t1, term_us);
    units_time_us(t2, sizeof t2, time_us);
    units_time_us(t3, sizeof t3, ideal_us);
    finding *f = report_add_finding(
        kr, FINDING_FAR_BELOW_ROOFLINE, SEV_WARNING, file, 0,
        hint ? hint : "see the other performance findings and the per-term times",
        "%s %s reaches %.1f%% of what the device allows (ideal %s, threshold %.0f%%): "
        "the %s term costs %s", basis, t2, eff * 100, t3, thr * 100, term ? term : "-", t1);
    finding_detail_str(f, "term", term ? term : "-");
    finding_detail_real(f, "efficiency", eff);
    finding_detail_real(f, "threshold", thr);
    finding_detail_real(f, "ideal_us", ideal_us);
    return f;
}

static void ceiling_exceeded(const verdict_input *in, kernel_report *kr)
{
    const prediction *p = &kr->prediction;
    const measurement *m = &kr->measurement;
    char meas[32], ideal[32];
    units_time_us(meas, sizeof meas, m->median_us);
    units_time_us(ideal, sizeof ideal, p->ideal_time_us);
    const char *cal = in->calibrate ? in->calibrate : "clockwork calibrate";
    char hint[200];
    snprintf(hint, sizeof hint, "measure the device's ceilings with `%s`, or fix the "
             "plan's work counts if they undercount the kernel", cal);
    finding *f = report_add_finding(
        kr, FINDING_CEILING_EXCEEDED, SEV_WARNING, in->file, 0, hint,
        "measured %s beats the ideal %s: %.0f%% of what the profile says the device "
        "allows (the %s ceiling), so that ceiling is wrong", meas, ideal,
        100 * p->ideal_time_us / m->median_us, p->bound ? p->bound : "binding");
    finding_detail_str(f, "term", p->bound ? p->bound : "-");
    finding_detail_real(f, "efficiency", p->ideal_time_us / m->median_us);
    finding_detail_real(f, "ideal_us", p->ideal_time_us);
    finding_detail_real(f, "measured_us", m->median_us);
}

void verdict_judge_kernel(const verdict_input *in, kernel_report *kr)
{
    const prediction *p = &kr->prediction;
    const measurement *m = &kr->measurement;
    judge(in, p, m, &kr->divergence);
    if (kr->divergence.status == DIV_UNKNOWN)
        return;
    if (beats_ceiling(p, m)) {
        ceiling_exceeded(in, kr);
        return;
    }
    if (in->roofline_prediction)
        verdict_far_below_roofline(
            kr, in->file, "the best measured call", p->bound, p->time_us, best_own_us(p, m),
            p->ideal_time_us > 0 ? p->ideal_time_us : p->time_us, in->min_efficiency,
            "vectorise and block the loops for the caches, or call a tuned library; set "
            "\"expect\": {\"min_efficiency\": ...} if this kernel is not meant to approach "
            "the roofline");
}
