/* stats.h - statistics over timing samples, and when to stop sampling.
 *
 * Contract: pure functions, no I/O, no allocation visible to the caller
 * beyond what it passes in.
 *   stats_compute(samples, n, out) summarises n warm samples: median, MAD
 *     (median absolute deviation from the median, unscaled), min, max and
 *     p90 (nearest-rank).  The input array is not modified.  n == 0 gives
 *     out->n == 0 and every statistic 0 (callers must check n).
 *   stats_should_continue(samples, n, policy, elapsed_s) says whether the
 *     runner should take another sample: always below policy->min_samples;
 *     never at or above policy->max_samples or once elapsed_s has reached
 *     policy->budget_s (after the minimum); otherwise only while the spread
 *     (MAD / median) is above policy->target_rel_mad, looked at every
 *     max(1, n/16) samples past the minimum (the spread costs a sort;
 *     in between it says continue).  "--samples is a
 *     minimum; sampling continues while the spread is wide, within a time
 *     budget."
 *   stats_fill_measurement() copies a summary and the samples into a
 *     measurement (report.h); the cold sample is stored apart by the caller.
 */
#ifndef CW_STATS_H
#define CW_STATS_H

#include <stddef.h>

#include "report.h"

typedef struct stats_summary {
    size_t n;
    double median, mad, min, max, p90, mean;
} stats_summary;

typedef struct stats_policy {
    unsigned min_samples;   /* --samples: always take at least this many */
    unsigned max_samples;   /* hard cap (0 = 50 x min_samples, >= 1000) */
    double budget_s;        /* stop widening after this much time */
    double target_rel_mad;  /* "wide" spread: MAD / median above this */
} stats_policy;

void stats_policy_default(stats_policy *p, unsigned min_samples,
                          double budget_s);
void stats_compute(const double *samples, size_t n, stats_summary *out);
int stats_should_continue(const double *samples, size_t n,
                          const stats_policy *p, double elapsed_s);
/* Relative spread MAD / median; 0 when the median is 0 or n == 0. */
double stats_rel_spread(const stats_summary *s);
/* Sets valid, samples, median/mad/min/max/p90 and sample_us[] (copied). */
void stats_fill_measurement(measurement *m, const double *samples, size_t n);

#endif
