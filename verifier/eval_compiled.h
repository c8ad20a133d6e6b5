/* eval_compiled.h - what the driver's compiler executes of the counted
 * SPIR-V: executed-count weights per instruction.
 *
 * Contract: ev_compiled_weights() gives every instruction of the module a
 * weight w (the evaluator multiplies its counted executions by w for the
 * FLOP, SFU, integer and instruction counts; memory accesses, atomics,
 * barriers and subgroup operations are never reweighted) from a static
 * analysis of the loops and of each value's dependences:
 *
 *   - a loop whose trip count is a constant (induction variable from a
 *     constant start, a constant step, compared with a constant; one exit)
 *     of at most `full_unroll_trips` trips, every loop inside it unrolled
 *     too, is fully unrolled: its control (compare, increment, branches)
 *     is gone;
 *   - each value's *variance* is the set of loops whose trips may change
 *     it (induction variables, loop-carried variables, values loaded from
 *     buffers or workgroup memory inside the loop), and whether it depends
 *     on anything but constants (builtins, push constants, memory);
 *   - an arithmetic instruction that depends on constants and on counters
 *     of unrolled loops only is folded (w = 0);
 *   - an arithmetic instruction (or a push-constant, uniform or builtin
 *     read) invariant in an enclosing loop is hoisted out of it: it runs
 *     once per entry of that loop (w divided by the loop's trips per
 *     entry, from the evaluator's own counts) — out of a kept loop only
 *     when it is invariant in every kept loop between it and there; an
 *     unrolled loop it varies in is replicated (one copy per trip, each
 *     then hoisted on its own);
 *   - an instruction that varies in a kept loop stays in it (w = 1);
 *   - every call is inlined: the call and the callee's return weigh 0,
 *     arguments flow into parameters (over all call sites), a pure
 *     callee's result varies as its returned values, any other callee's
 *     like a load, and a variable the callee stores through changes at
 *     the call; a callee value that depends on none of its parameters
 *     and on no memory runs once an invocation (the same at every
 *     inlined call).
 *
 * The loop control of kept loops whose induction the analysis recognised
 * (the compare, the increment, the branches of the loop's skeleton) is
 * marked in `ctl` so the model can price it per trip (model_compiled.h).
 *
 * Applies only to a GPU profile with full_unroll_trips > 0 (the driver's
 * compiler behaviour is a device property): otherwise every weight is 1
 * and nothing is marked (lavapipe's counts are as written).
 */
#ifndef CW_EVAL_COMPILED_H
#define CW_EVAL_COMPILED_H

#include <stddef.h>
#include <stdint.h>

#include "profile.h"
#include "spirv.h"

typedef struct ev_ctx ev_ctx;

typedef struct ev_compiled {
    float *w;            /* per instruction: executed-count weight */
    float *copies;       /* per instruction: the copies the fully unrolled
                            loops around it (out to the first kept loop)
                            make of it, issued together (1: none) */
    uint8_t *ctl;        /* per instruction: loop control of a kept loop */
    uint32_t *trip_inst; /* per kept loop with recognised control: the
                            instruction executed once per trip (its
                            continue block's terminator) */
    size_t ntrip;
    unsigned loops, unrolled, kept_known;
    int folded_lines[4], hoisted_lines[4]; /* source lines of the first
                            folded and hoisted arithmetic (0: none) */
    /* private arrays indexed by a value that does not fold (a kept loop's
     * counter, a run-time value): the driver cannot keep them in
     * registers and places them in local memory */
    double local_execs;  /* loads and stores through such an index, lane
                            executions over the dispatch */
    int local_lines[4];  /* their first source lines (0: none) */
    uint32_t local_var;  /* the first such variable (ev_var index), or
                            UINT32_MAX */
    int active;          /* the profile asked for it and it ran */
    char why[160];       /* when not active although asked: why */
} ev_compiled;

/* icount: the evaluator's executions per instruction over the dispatch.
 * Fills *out (ev_compiled_free releases it); returns 0. */
int ev_compiled_weights(ev_ctx *c, const device_profile *p,
                        const double *icount, ev_compiled *out);
void ev_compiled_free(ev_compiled *e);

/* The constant trip count of the loop whose header is block h, from its
 * induction (start, step, compare with a constant): 0 and the trips in
 * *trips, or -1 when it is not a constant-trip loop. Exposed for tests. */
int ev_const_trips(ev_ctx *c, uint32_t h, uint64_t *trips);

/* The same loop's induction: the function variable holding it (EV_NONE
 * when it is an OpPhi), its start and step, and the trips. */
typedef struct ev_induction {
    uint32_t var;
    int64_t start, step;
    uint64_t trips;
} ev_induction;
int ev_loop_induction(ev_ctx *c, uint32_t h, ev_induction *out);

#endif
