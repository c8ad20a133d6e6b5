/* verdict.h - does reality match the model?  (ARCHITECTURE §8)
 *
 * Contract: verdict_judge() is a pure function of a prediction, a
 * measurement and a tolerance.  ratio = measured median / predicted time;
 * status ok inside the band [1/(1+t'), 1+t'] where t' = tolerance widened by
 * the measurement's relative spread (MAD / median, times 3); slower/faster
 * outside; unknown when either side is missing.  The explanation cites only
 * evidence that is present (invocation counts, counters, spread, cold
 * sample, dispatch size vs timer resolution and launch cost).
 * divergence->explanation is heap-allocated (freed with the report); a
 * previous explanation in *out is freed and replaced, so *out must be
 * zero-initialised or hold an earlier verdict.
 */
#ifndef CW_VERDICT_H
#define CW_VERDICT_H

#include "report.h"

/* The relative band t' of a measurement (tolerance < 0: the default). */
double verdict_band(double tolerance, const measurement *m);
void verdict_judge(const prediction *p, const measurement *m,
                   double tolerance, double launch_us, divergence *out);

#endif
