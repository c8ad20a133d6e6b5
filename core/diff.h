/* diff.h - compare two reports (clockwork diff BASE NEW).
 *
 * Contract: diff_reports() matches kernels by identity (identity.h: plan,
 * name, occurrence of the name in the plan; by name and occurrence when a
 * report carries no plan paths), so two kernels of one name are compared
 * with their own counterparts.  Per kernel it judges the change of the
 * predicted time and of the measured median: a change within `threshold`
 * (0.10 = 10%) is noise; beyond it but within 3 x the combined MAD of both
 * measurements it is noise too; beyond both it is slower (a regression) or
 * faster.  A side without a number is inconclusive.  Findings are matched
 * one to one by id and location (file, line): same id and location with
 * another message or detail is "changed", not removed + added; what is left
 * is added or removed.  A kernel regresses when its measurement is slower,
 * its measurement went away, it has new error findings, or (neither side
 * measured) its prediction is slower; a kernel of BASE missing from NEW
 * regresses too.  Every regressed kernel is named (diff_kernel.reason).
 * Reports from different devices get a warning (diff_result.warning).
 * Pure: writes text to out (table) or returns JSON text; returns
 * CW_STATUS_DIVERGENCE (exit 3) when anything regressed or went missing, else 0.
 */
#ifndef CW_DIFF_H
#define CW_DIFF_H

#include <stdint.h>
#include <stdio.h>

#include "report.h"

typedef enum {
    DIFF_SAME = 0,
    DIFF_FASTER,
    DIFF_SLOWER,      /* regression */
    DIFF_NOISE,       /* changed, but within the threshold or the spread */
    DIFF_MISSING,     /* in BASE, not in NEW */
    DIFF_ADDED,       /* in NEW only */
    DIFF_INCONCLUSIVE /* one side has no number */
} diff_status;

typedef enum { DIFF_FINDING_ADDED = 0, DIFF_FINDING_REMOVED, DIFF_FINDING_CHANGED } diff_finding_status;

typedef struct diff_finding {
    const char *id, *file; /* borrowed from the reports */
    int line;
    severity sev;
    diff_finding_status status;
} diff_finding;

typedef struct diff_kernel {
    const char *name;       /* borrowed from the reports */
    const char *plan;       /* NULL when the reports carry no plan paths */
    uint32_t occurrence;    /* 0: first kernel of that name in the plan */
    diff_status predicted, measured;
    double predicted_change; /* new/base - 1 */
    double measured_change;
    size_t findings_added, findings_removed, findings_changed;
    size_t new_errors;
    diff_finding *findings; /* the added, removed and changed ones */
    size_t nfindings;
    int regressed;
    char reason[160];       /* why it regressed; "" when it did not */
} diff_kernel;

typedef struct diff_result {
    diff_kernel *kernels;
    size_t nkernels;
    int regressions;
    int several_plans;      /* label kernels with their plan */
    char warning[600];      /* e.g. the reports come from different devices */
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
