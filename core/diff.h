/* diff.h - compare two reports (clockwork diff BASE NEW).
 *
 * Contract: diff_reports() matches kernels by name and judges, per kernel,
 * the change of the predicted time and of the measured median against both
 * reports' spread: a regression is a slowdown beyond `threshold` (0.10 =
 * 10%) that also exceeds 3 x the combined MAD.  Findings added and removed
 * are listed; kernels added or missing, and kernels measured in BASE but
 * not in NEW, are reported, never passed silently.  Pure: writes text to
 * out (table) or returns JSON text; returns CW_EXIT_DIVERGENCE (3) when
 * anything regressed or went missing, else 0.
 */
#ifndef CW_DIFF_H
#define CW_DIFF_H

#include <stdio.h>

#include "report.h"

typedef enum {
    DIFF_SAME = 0,
    DIFF_FASTER,
    DIFF_SLOWER,      /* regression */
    DIFF_NOISE,       /* changed, but within the spread */
    DIFF_MISSING,     /* in BASE, not in NEW */
    DIFF_ADDED,       /* in NEW only */
    DIFF_INCONCLUSIVE /* one side has no number */
} diff_status;

typedef struct diff_kernel {
    const char *name;
    diff_status predicted, measured;
    double predicted_change; /* new/base - 1 */
    double measured_change;
    size_t findings_added, findings_removed;
    size_t new_errors;
} diff_kernel;

typedef struct diff_result {
    diff_kernel *kernels;
    size_t nkernels;
    int regressions;
} diff_result;

int diff_reports(const report *base, const report *cur, double threshold,
                 diff_result *out);
void diff_write_table(const report *base, const report *cur,
                      const diff_result *d, FILE *out);
char *diff_to_json_text(const report *base, const report *cur,
                        const diff_result *d);
void diff_result_free(diff_result *d);
const char *diff_status_name(diff_status s);

#endif
