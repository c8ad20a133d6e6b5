/* eval_memory.h - memory and race tracking (eval_memory.c).
 *
 * Contract:
 *   ev_exec_access_chain(c, ii, in, lanes, n)  a pointer per lane:
 *       (variable index, offset interval); component offsets for
 *       function/private/shared memory, byte offsets for buffers and push
 *       constants.  An index outside a fixed-size array is recorded
 *       (ev_arr_rec; certain when the index is known and the lane
 *       untainted).
 *   ev_exec_memory(c, ii, in, lanes, n)  loads, stores, atomics, copies:
 *       function/private/shared memory holds values; push constants decode
 *       the plan's bytes; buffer loads are unknown.  Shared accesses are
 *       checked for races (another lane's write, or a write after another
 *       lane's read, in the same barrier interval; atomics do not race with
 *       atomics) and uninitialised reads.  Buffer accesses are bounds
 *       checked against the plan size and add to the access statistics and
 *       the byte footprints of the group.
 *   ev_runs_add / ev_runs_normalize  byte-interval sets.
 *   ev_lane_ids(c, lane, lid)  local invocation id of an executed lane.
 *   ev_note_oob(c, s, lane, ilo, ihi, certain)  counts one out-of-bounds
 *       buffer access of lane in s: element range and global id range.
 *   ev_add_rec  appends a record (256 per kind at most).
 *
 * The observer (eval_options.mem_observer, eval.h) is called for every
 * executed access of a buffer, push-constant or shared variable.
 */
#ifndef CW_EVAL_MEMORY_H
#define CW_EVAL_MEMORY_H

void ev_exec_access_chain(ev_ctx *c, uint32_t ii, const spv_inst *in,
                          const uint16_t *lanes, int n);
void ev_exec_memory(ev_ctx *c, uint32_t ii, const spv_inst *in,
                    const uint16_t *lanes, int n);
void ev_runs_add(ev_runs *r, int64_t lo, int64_t hi);
void ev_lane_ids(const ev_ctx *c, uint32_t lane, uint32_t lid[3]);
void ev_note_oob(const ev_ctx *c, ev_acc *s, uint32_t lane, int64_t ilo,
                 int64_t ihi, int certain);
void ev_add_rec(void **arr, size_t *n, size_t sz, const void *rec);
/* Index [lo, hi] of fixed-size array length len at access chain inst
 * (variable vi) is out of range for lane (certain: for every value and on
 * a path not decided by buffer contents). */
void ev_rec_arr(ev_ctx *c, uint32_t inst, uint32_t vi, int64_t lo,
                int64_t hi, uint64_t len, uint32_t lane, int certain);
/* Replays one shared access of a skipped loop iteration through the race
 * and initialisation tracking (component offset comp, ncomp components). */
/* Every element of shared variable vi is initialised and none was written
 * in the current barrier interval: reads at any address are race-free
 * and initialised until the next write. */
int ev_shm_settled(ev_ctx *c, uint32_t vi);
/* Every element counts as read by several invocations in this interval
 * (reads at addresses not extrapolated: a later write without a barrier
 * races). */
void ev_shm_mark_read(ev_ctx *c, uint32_t vi, uint32_t inst, uint32_t lane);
void ev_shm_replay(ev_ctx *c, uint32_t inst, uint32_t vi, uint32_t lane,
                   int64_t comp, uint32_t ncomp, int store);
/* ev_shm_replay of one non-atomic read of element comp (< nflat). */
void ev_shm_read1(ev_ctx *c, uint32_t inst, uint32_t vi, uint32_t lane, uint32_t comp);
/* A read of shared element e that changes nothing in the tracking: the
 * element is initialised, not written in this barrier interval, and
 * already read non-atomically by several invocations of several subgroups
 * (the state every further read leaves; the readers' subgroup-barrier
 * count only matters while one subgroup reads).  ev_shm_replay may be
 * skipped for it. */
static inline int ev_shm_read_is_noop(const ev_ctx *c, const ev_shm *s)
{
    return s->r_epoch == c->epoch && s->r_multi && s->r_sg == -1 && !s->r_atomic &&
           s->init && s->w_epoch != c->epoch;
}

#endif
