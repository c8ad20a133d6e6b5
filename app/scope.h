/* scope.h - the part of a check or run this process does: its shard of the
 * plans' kernels (--shard), the report name after placeholders (-o), and
 * the provenance the report carries (launch.h, shard.h).
 *
 * Contract: scope_open() fails only on bad input (CW_STATUS_INPUT with err):
 * a bad --shard or launcher variable, an unknown -o placeholder.
 * scope_takes() says whether global kernel g (command-line order, then
 * plan order) is this shard's; scope_tag() stamps a kernel report with its
 * identity and warns (stderr and a `kernel-name-duplicate` finding) when
 * an earlier kernel of the plan has the same name; scope_finish() fills the
 * report's provenance with the exit status the process is leaving with.
 */
#ifndef CW_SCOPE_H
#define CW_SCOPE_H

#include <stddef.h>

#include "plan.h"
#include "report.h"
#include "shard.h"

typedef struct run_scope {
    shard_plan sp;
    char *output;      /* -o after placeholders; NULL when -o was not given */
    int quiet;
} run_scope;

int scope_open(const char *shard_arg, const char *output_pattern, const plan *plans,
               size_t nplans, int quiet, run_scope *s, cw_error *err);
int scope_takes(const run_scope *s, size_t g);
void scope_tag(const run_scope *s, const plan *p, size_t plan_no, size_t i, size_t g,
               kernel_report *kr);
void scope_finish(const run_scope *s, report *r, int exit_code);
void scope_close(run_scope *s);

#endif
