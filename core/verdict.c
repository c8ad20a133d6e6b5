/* verdict.c - measured vs predicted (see verdict.h).  Pure: no I/O. */
#include "verdict.h"
#include "alloc.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct sbuf {
    char text[2048];
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

/* Evidence common to every status. */
static void evidence(const prediction *p, const measurement *m, double launch_us, sbuf *b)
{
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
    if (launch_us > 0 && m->median_us > 0 && m->median_us < 3 * launch_us) {
        char t[32], l[32];
        fmt_time_us(t, sizeof t, m->median_us);
        fmt_time_us(l, sizeof l, launch_us);
        add(b, "the dispatch (%s) is within 3× of the launch overhead (%s): "
               "fixed costs dominate", t, l);
    }
    const counter_value *ins = find_counter(m, "instructions");
    const counter_value *cyc = find_counter(m, "cycles");
    if (ins && cyc && ins->available && cyc->available && cyc->value > 0)
        add(b, "IPC %.2f", ins->value / cyc->value);
    const counter_value *miss = find_counter(m, "cache-misses");
    if (miss && miss->available && p->bytes > 0)
        add(b, "cache misses × 64 B = %.3g B vs the model's %.3g compulsory bytes",
            miss->value * 64.0, p->bytes);
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
}

double verdict_band(double tolerance, const measurement *m)
{
    if (!(tolerance >= 0))
        tolerance = 0.25;
    /* The band widens with the measurement's own noise: 3 MADs. */
    double spread = m->median_us > 0 ? m->mad_us / m->median_us : 0;
    return tolerance + 3 * spread;
}

void verdict_judge(const prediction *p, const measurement *m, double tolerance,
                   double launch_us, divergence *out)
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
    if (!(tolerance >= 0))
        tolerance = 0.25;
    out->ratio = m->median_us / p->time_us;
    double band = verdict_band(tolerance, m);
    if (out->ratio > 1 + band)
        out->status = DIV_SLOWER;
    else if (out->ratio < 1 / (1 + band))
        out->status = DIV_FASTER;
    else
        out->status = DIV_OK;
    char meas[32], pred[32];
    fmt_time_us(meas, sizeof meas, m->median_us);
    fmt_time_us(pred, sizeof pred, p->time_us);
    if (out->status == DIV_OK)
        add(&b, "measured %s is within ±%.0f%% of the predicted %s", meas, 100 * band, pred);
    else
        add(&b, "measured %s is %.2f× the predicted %s (band ±%.0f%%)", meas, out->ratio,
            pred, 100 * band);
    if (out->status != DIV_OK) {
        double s = m->median_us * 1e-6;
        if (p->bytes > 0)
            add(&b, "achieved %.3g GB/s on the compulsory bytes", p->bytes / s / 1e9);
        if (p->flops > 0)
            add(&b, "%.3g GFLOP/s", p->flops / s / 1e9);
        if (p->bound)
            add(&b, "the model's bound was %s", p->bound);
    }
    evidence(p, m, launch_us, &b);
    out->explanation = cw_strdup(b.text);
}
