/* stats.c - median, MAD, p90 and the sampling stop rule (see stats.h). */
#include "stats.h"
#include "alloc.h"

#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median of a sorted array. */
static double sorted_median(const double *v, size_t n)
{
    if (n == 0)
        return 0;
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

void stats_policy_default(stats_policy *p, unsigned min_samples,
                          double budget_s)
{
    p->min_samples = min_samples ? min_samples : 1;
    p->max_samples = 0;
    p->budget_s = budget_s;
    /* 2 % relative MAD: tight enough that the median is trustworthy,
     * loose enough that a quiet machine stops at the minimum. */
    p->target_rel_mad = 0.02;
}

void stats_compute(const double *samples, size_t n, stats_summary *out)
{
    memset(out, 0, sizeof *out);
    if (n == 0 || !samples)
        return;
    double *v = xmalloc(n * sizeof *v);
    memcpy(v, samples, n * sizeof *v);
    qsort(v, n, sizeof *v, cmp_double);
    double sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += v[i];
    out->n = n;
    out->min = v[0];
    out->max = v[n - 1];
    out->mean = sum / (double)n;
    out->median = sorted_median(v, n);
    /* nearest-rank p90: the ceil(0.9 n)-th smallest */
    size_t rank = (9 * n + 9) / 10;
    if (rank < 1)
        rank = 1;
    out->p90 = v[rank - 1];
    for (size_t i = 0; i < n; i++) {
        double d = v[i] - out->median;
        v[i] = d < 0 ? -d : d;
    }
    qsort(v, n, sizeof *v, cmp_double);
    out->mad = sorted_median(v, n);
    free(v);
}

double stats_rel_spread(const stats_summary *s)
{
    if (s->n == 0 || s->median <= 0)
        return 0;
    return s->mad / s->median;
}

int stats_should_continue(const double *samples, size_t n,
                          const stats_policy *p, double elapsed_s)
{
    unsigned minimum = p->min_samples ? p->min_samples : 1;
    size_t cap = p->max_samples;
    if (cap == 0) {
        cap = (size_t)minimum * 50;
        if (cap < 1000)
            cap = 1000;
    }
    if (cap < minimum)
        cap = minimum;
    if (n < minimum)
        return 1;
    if (n >= cap || elapsed_s >= p->budget_s)
        return 0;
    /* The spread costs a sort: look at it only every n/16 samples, so the
     * rule stays cheap per sample however long sampling goes on. */
    size_t step = n / 16 ? n / 16 : 1;
    if (n > minimum && (n - minimum) % step != 0)
        return 1;
    stats_summary s;
    stats_compute(samples, n, &s);
    return stats_rel_spread(&s) > p->target_rel_mad;
}

void stats_fill_measurement(measurement *m, const double *samples, size_t n)
{
    stats_summary s;
    stats_compute(samples, n, &s);
    free(m->sample_us);
    m->sample_us = NULL;
    m->nsample_us = 0;
    if (n) {
        m->sample_us = xmalloc(n * sizeof *m->sample_us);
        memcpy(m->sample_us, samples, n * sizeof *samples);
        m->nsample_us = n;
    }
    m->valid = n > 0;
    m->samples = (uint32_t)n;
    m->median_us = s.median;
    m->mad_us = s.mad;
    m->min_us = s.min;
    m->max_us = s.max;
    m->p90_us = s.p90;
}
