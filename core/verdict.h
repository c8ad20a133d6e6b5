/* verdict.h - does reality match the model?  (ARCHITECTURE §8)
 *
 * One meaning for every kernel, GPU or native CPU: ratio = measured median
 * / predicted time; ok inside the band [1/(1+t'), 1+t'] where t' is the
 * tolerance widened by the measurement's relative spread (MAD / median,
 * times 3); slower/faster outside; unknown when either side is missing.
 * A native CPU kernel has no model of its code as written: its predicted
 * time is the time at the roofline ceiling for its counted work, so its
 * efficiency is predicted / measured and the same band applies.
 * A kernel measured faster than its ideal (roofline) time beats what the
 * profile says the device allows: the ceiling is wrong.  That is never
 * `ok`: status faster, and verdict_judge_kernel() adds ceiling-exceeded
 * pointing at `clockwork calibrate`.
 *
 * Contract: verdict_judge() is a pure function of a prediction, a
 * measurement and a tolerance (status, ratio, explanation).
 * verdict_judge_kernel() is the same judgement for one kernel of a report,
 * with the findings it implies (ceiling-exceeded; far-below-roofline for a
 * kernel whose prediction is the roofline) and the evidence the kernel's
 * backend left (counters, CPU wait, the static look at its code).  The
 * explanation cites only evidence that is present.  divergence->explanation
 * is heap-allocated (freed with the report); a previous explanation is
 * freed and replaced, so the divergence must be zero-initialised or hold
 * an earlier verdict.
 */
#ifndef CW_VERDICT_H
#define CW_VERDICT_H

#include "report.h"

#define VERDICT_DEFAULT_TOLERANCE 0.25
/* far-below-roofline fires below this fraction of the roofline, unless
 * the plan's "expect": {"min_efficiency": ...} says otherwise. */
#define VERDICT_DEFAULT_MIN_EFFICIENCY 0.25

/* The relative band t' of a measurement (tolerance < 0: the default). */
double verdict_band(double tolerance, const measurement *m);
void verdict_judge(const prediction *p, const measurement *m,
                   double tolerance, double launch_us, divergence *out);

typedef struct verdict_input {
    double tolerance;        /* < 0: VERDICT_DEFAULT_TOLERANCE */
    double launch_us;        /* fixed cost per call; <= 0 unknown */
    double min_efficiency;   /* far-below threshold; < 0: the default */
    int roofline_prediction; /* the prediction is the roofline itself */
    unsigned threads;        /* threads the kernel was given; 0 unknown */
    const char *code_summary;/* the static look at its code; may be NULL */
    const char *file;        /* where findings point; may be NULL */
    const char *calibrate;   /* the command that measures the ceilings */
} verdict_input;

void verdict_input_default(verdict_input *in);
void verdict_judge_kernel(const verdict_input *in, kernel_report *kr);

/* far-below-roofline, one meaning wherever it is raised: the kernel's time
 * -- predicted by the model of its code, or measured when the prediction
 * is the roofline itself (`basis` says which, e.g. "predicted") -- reaches
 * less than `threshold` of what the device allows (ideal_us).  One detail
 * schema: {"term", "efficiency", "threshold", "ideal_us"}.  Adds the
 * finding and returns it, or NULL when the efficiency is not below the
 * threshold.  threshold < 0: the default. */
finding *verdict_far_below_roofline(kernel_report *kr, const char *file,
                                    const char *basis, const char *term,
                                    double term_us, double time_us,
                                    double ideal_us, double threshold,
                                    const char *hint);

#endif
