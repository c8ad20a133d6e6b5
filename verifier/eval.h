/* eval.h - the evaluator: what the plan's exact dispatch does, by concrete
 * interpretation of the SPIR-V over representative workgroups.
 *
 * Contract:
 *   eval_run(m, r, k, p, counts, kr)
 *     m  - a parsed module with the plan's spec constants already applied
 *          (spv_parse + spv_specialize); not modified.
 *     r  - its reflection (push-constant layout and plan buffer sizes come
 *          through verifier_push_bytes / verifier_buffer_bytes).
 *     k  - the plan kernel: entry point, workgroup counts, push values,
 *          buffers.
 *     p  - device profile (subgroup size for lane strides); may be NULL
 *          (subgroup size 32 is then assumed).
 *     counts - filled (zeroed first); owned by the caller, released with
 *          eval_counts_free() (verifier_result_free does the same job).
 *     kr - dynamic findings are appended: out-of-bounds, barrier-divergence,
 *          workgroup-race, uninitialized-shared-read.  May be NULL (counts
 *          only).
 *   Returns 0 when counts were produced (exact or estimated; see
 *   counts->conf and counts->assumptions), non-zero when nothing could be
 *   evaluated (no such entry point, no function body): counts->conf is then
 *   CONF_UNKNOWN with an assumption saying why.
 *
 * How: every invocation of a chosen workgroup is executed together, in
 * lock-step between barriers, with values known exactly where they come
 * from ids, constants, push and spec constants, and as intervals (or
 * unknown) where they come from buffer contents.  Workgroups are split per
 * dimension into classes of identical behaviour (found by bisection on the
 * group id), the corners of every class are executed and counts are scaled
 * by class sizes.  A global step budget bounds the work; what had to be
 * estimated is said in counts->assumptions.
 *
 * Values read from storage buffers are unknown: a branch or an index that
 * depends on them is not guessed into an error - the finding becomes a
 * warning saying what could not be proven.
 */
#ifndef CW_EVAL_H
#define CW_EVAL_H

#include <stdint.h>

#include "plan.h"
#include "profile.h"
#include "report.h"
#include "spirv.h"
#include "verifier.h"

/* One executed memory access, for an observer (a cache simulator, an
 * address-stream dump) attached through eval_options.on_access.
 *
 * Delivered for every access of a storage/uniform buffer, push-constant
 * block or workgroup (shared) variable that an executed invocation of an
 * executed workgroup makes, in the evaluator's execution order (lanes in
 * lock-step: all lanes of one instruction, lane order, then the next
 * instruction).  Not delivered: function/private variables; the workgroups
 * the evaluator does not execute (eval_run executes representative groups
 * and scales, see docs/evaluator.md); iterations skipped by loop
 * acceleration unless every_iteration is set; invocations left out of a
 * sampled workgroup (an assumption says so).  One atomic is one event. */
typedef enum {
    EVAL_ACCESS_LOAD = 0,
    EVAL_ACCESS_STORE,
    EVAL_ACCESS_ATOMIC,
} eval_access_kind;

typedef struct eval_access {
    uint32_t workgroup[3];   /* gl_WorkGroupID */
    uint32_t subgroup;       /* gl_SubgroupID (profile subgroup size) */
    uint32_t invocation;     /* gl_LocalInvocationIndex */
    uint32_t storage_class;  /* SpvStorageClass of the variable */
    uint32_t set, binding;   /* descriptor of a buffer; 0 otherwise */
    int64_t offset;          /* bytes from the start of the variable */
    int64_t offset_hi;       /* == offset when exact; else the address is
                                only known to lie in [offset, offset_hi] */
    uint32_t size;           /* bytes accessed */
    eval_access_kind kind;
    uint64_t seq;            /* 0, 1, 2 ... per executed workgroup */
    uint32_t inst;           /* instruction index in the module */
    int line;                /* GLSL line, 0 unknown */
} eval_access;

typedef void (*eval_access_fn)(void *user, const eval_access *a);

/* Tunables; eval_run uses eval_default_options(). */
typedef struct eval_options {
    double step_budget;      /* interpreted lane-instructions, whole run;
                                the only bound: no wall clock, so that the
                                counts never depend on the machine's load */
    uint32_t unknown_loop_iterations; /* assumed trip count of a loop whose
                                         exit depends on buffer contents */
    uint32_t max_groups;     /* workgroups executed at most */
    uint32_t all_groups_below; /* execute every workgroup when the
                                  dispatch has at most this many */
    int every_iteration;     /* no loop acceleration: every iteration runs */
    eval_access_fn on_access;/* observer of executed accesses; NULL: none */
    void *on_access_user;
    int runner_contents;     /* buffers the plan leaves random and the
                                kernel only reads hold the runner's
                                contents (core/bufinit.h bufinit_peek, seed
                                0): for the traffic simulation's stream
                                only, never for counts or findings */
} eval_options;

void eval_default_options(eval_options *o);

int eval_run(const spv_module *m, const reflection *r, const plan_kernel *k,
             const device_profile *p, kernel_counts *counts,
             kernel_report *kr);
int eval_run_opts(const spv_module *m, const reflection *r,
                  const plan_kernel *k, const device_profile *p,
                  const eval_options *o, kernel_counts *counts,
                  kernel_report *kr);

/* Frees what eval_run allocated inside counts and zeroes it. */
void eval_counts_free(kernel_counts *c);

#endif
