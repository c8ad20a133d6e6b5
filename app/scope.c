/* scope.c - see scope.h. */
#include "scope.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "launch.h"

int scope_open(const char *shard_arg, const char *output_pattern, const plan *plans,
               size_t nplans, int quiet, run_scope *s, cw_error *err)
{
    memset(s, 0, sizeof *s);
    s->quiet = quiet;
    shard_spec spec;
    int rc = shard_parse(shard_arg, NULL, NULL, &spec, err);
    if (rc)
        return rc;
    if (output_pattern && strcmp(output_pattern, "-")) {
        /* %r %n: the shard; without --shard, the launcher's rank (every
         * rank runs everything and still needs its own file) */
        unsigned long rank = spec.index, count = spec.count;
        launch_rank lr;
        cw_error ignored;
        if (!shard_arg && launch_detect_rank(NULL, NULL, &lr, &ignored) == 0 && lr.found) {
            rank = (unsigned long)lr.index;
            count = lr.count > 0 ? (unsigned long)lr.count : 1;
        }
        rc = launch_expand_output(output_pattern, rank, count, NULL, NULL, &s->output, err);
        if (rc)
            return rc;
    } else if (output_pattern) {
        s->output = cw_strdup(output_pattern);
    }
    shard_plan_build(&spec, plans, nplans, &s->sp);
    return 0;
}

int scope_takes(const run_scope *s, size_t g)
{
    return g < s->sp.nkernels && s->sp.mine[g];
}

/* The earlier kernel of the plan with the same name. */
static const plan_kernel *first_of_name(const plan *p, size_t i)
{
    for (size_t j = 0; j < i; j++)
        if (!strcmp(p->kernels[j].name, p->kernels[i].name))
            return &p->kernels[j];
    return NULL;
}

void scope_tag(const run_scope *s, const plan *p, size_t plan_no, size_t i, size_t g,
               kernel_report *kr)
{
    cw_set_str(&kr->plan, s->sp.plan_paths[plan_no]);
    kr->plan_index = (long)i;
    if (!s->sp.occurrence[g])
        return;
    const plan_kernel *k = &p->kernels[i], *first = first_of_name(p, i);
    int first_line = first ? first->line : 0;
    if (!s->quiet)
        fprintf(stderr,
                "clockwork: %s:%d:%d: warning: kernel '%s' has the name of the kernel at "
                "line %d; reports tell them apart by position (plan_index %zu), but a "
                "unique name is clearer\n",
                p->path, k->line, k->column, k->name, first_line, i);
    report_add_finding(kr, FINDING_KERNEL_NAME_DUPLICATE, SEV_WARNING, p->path, k->line,
                       "give every kernel of a plan its own name",
                       "kernel '%s' has the same name as the kernel at line %d of the plan; "
                       "it is told apart by its position (plan_index %zu)",
                       k->name, first_line, i);
}

void scope_finish(const run_scope *s, report *r, int exit_code)
{
    launch_fill_provenance(&r->provenance, NULL, NULL);
    shard_plan_provenance(&s->sp, &r->provenance);
    r->provenance.has_exit_code = 1;
    r->provenance.exit_code = exit_code;
}

void scope_close(run_scope *s)
{
    shard_plan_free(&s->sp);
    free(s->output);
    memset(s, 0, sizeof *s);
}
