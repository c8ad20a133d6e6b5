/* identity.h - which kernel is which, across reports.
 *
 * A kernel's identity is its plan (the path as given on the command line,
 * normalised lexically: "./a//b.json" is "a/b.json"), its name, and its
 * position among the kernels of that name in the plan (the occurrence:
 * 0 for the first "saxpy", 1 for the second ...).  Two kernels of the same
 * name in one plan are therefore two kernels, never one; a kernel added
 * elsewhere in the plan does not change the others' identity.  Reports
 * carry the plan and the position in the plan (kernel_report.plan,
 * plan_index); the occurrence is derived from them.
 *
 * Contract: pure functions over plans and reports; an identity_index
 * gives O(log n) lookups for reports of any size.  Reports written before
 * the plan keys existed have plan NULL: build the index with use_plan = 0
 * to match such reports by name and occurrence only.
 */
#ifndef CW_IDENTITY_H
#define CW_IDENTITY_H

#include <stddef.h>
#include <stdint.h>

#include "plan.h"
#include "report.h"

/* Lexically normalised copy of a plan path (malloc'd). */
char *identity_plan_path(const char *path);

/* occ[i] = how many kernels before kernel i of the plan have its name. */
void identity_plan_occurrences(const plan *p, uint32_t *occ);

typedef struct identity_index {
    const report *r;
    int use_plan;
    size_t n;
    size_t *order;   /* kernel indices sorted by (plan, name, plan_index) */
    uint32_t *occ;   /* occurrence of each kernel, by kernel index */
} identity_index;

void identity_index_build(identity_index *ix, const report *r, int use_plan);
void identity_index_free(identity_index *ix);
/* Index of the kernel with that identity, or -1. */
long identity_index_find(const identity_index *ix, const char *plan_path, const char *name,
                         uint32_t occ);
/* Does any kernel of r carry a plan path? */
int identity_report_has_plans(const report *r);

/* "plan.json: saxpy" or "plan.json: saxpy (2nd of that name)" */
void identity_text(const char *plan_path, const char *name, uint32_t occ, char *buf, size_t n);

#endif
