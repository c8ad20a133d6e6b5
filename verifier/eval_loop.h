/* eval_loop.h - loop acceleration (eval_loop.c).
 *
 * A loop whose iterations repeat the same work with state that moves by a
 * constant step is not executed to the end: after three arrivals at its
 * header with the same lanes, the same instruction counts per iteration,
 * the same memory accesses each moved by a constant per lane, and every
 * branch a comparison of values that move by constant steps, the number of
 * further iterations that behave alike is solved from those comparisons;
 * they are accounted at once and the loop state jumps ahead.
 *
 * Contract (called by the scheduler and the memory analysis):
 *   ev_trk_group_start(c)  forget every loop's history (a new workgroup).
 *   ev_trk_arrive(c, b, lanes, n)  lanes start loop header b (after its
 *                          phis); may skip iterations (state jumped).
 *   ev_trk_mem(...)        an access of an executed iteration (byte or
 *                          component offset interval [lo, hi]).
 *   ev_trk_branch(...)     a conditional branch with a known condition.
 *   ev_trk_bad(c, inst)    something at inst cannot be extrapolated: the
 *                          loops containing it are not accelerated in this
 *                          iteration.
 *   ev_trk_free(t)         releases one loop's tracker (NULL is fine).
 */
#ifndef CW_EVAL_LOOP_H
#define CW_EVAL_LOOP_H

void ev_trk_group_start(ev_ctx *c);
void ev_trk_arrive(ev_ctx *c, uint32_t b, const uint16_t *lanes, int n);
void ev_trk_mem(ev_ctx *c, uint32_t inst, uint32_t lane, uint32_t vi,
                int64_t lo, int64_t hi, int store, int atomic);
void ev_trk_branch(ev_ctx *c, uint32_t inst, uint32_t lane, uint32_t cond);
void ev_trk_bad(ev_ctx *c, uint32_t inst);
/* An index [lo, hi] into a fixed-size array of length at access chain
 * inst (checked over skipped iterations). */
void ev_trk_index(ev_ctx *c, uint32_t inst, uint32_t lane, uint32_t vi,
                  uint32_t index_id, int64_t lo, int64_t hi, uint64_t length);
/* A barrier completed (subgroup -1: the workgroup's). */
void ev_trk_barrier(ev_ctx *c, uint32_t inst, int subgroup);
void ev_trk_free(ev_trk *t);

#endif
