/* eval_subgroup.h - subgroup operations (eval_subgroup.c).
 *
 * Contract:
 *   ev_exec_subgroup(c, in, lanes, n) executes a GroupNonUniform
 *   instruction (elect, all/any/all-equal, broadcast, ballot and its bit
 *   queries, shuffles, quad operations, and the arithmetic, bitwise and
 *   logical reductions and scans, clustered included) for the lanes that
 *   run it together: they are the subgroup's active invocations.  A lane
 *   whose source invocation is not active, or whose inputs are unknown,
 *   gets an unknown value (integer intervals are kept where the operation
 *   allows: sums, min/max, ballot bits).  Returns 0 for an instruction it
 *   does not model (the caller then writes unknown values).
 */
#ifndef CW_EVAL_SUBGROUP_H
#define CW_EVAL_SUBGROUP_H

int ev_exec_subgroup(ev_ctx *c, const spv_inst *in, const uint16_t *lanes, int n);

#endif
