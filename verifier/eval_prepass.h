/* eval_prepass.h - static prepasses and the evaluation context
 * (eval_prepass.c).
 *
 * Contract:
 *   ev_ctx_new builds everything that does not depend on a workgroup:
 *     variables (storage class, plan buffer size, runtime-array layout,
 *     component storage), static accesses (one ev_access_def per load/
 *     store/atomic of a buffer, shared or push variable), the structured
 *     scheduling order of every function's blocks, static costs per
 *     instruction (FLOPs, SFU, integer ops, issued instructions), and three
 *     data-flow facts iterated to their fixpoint (each a monotone bit per
 *     id); a module that has not converged after EV_PREPASS_MAX_PASSES
 *     passes (each pass is linear, the bound keeps hostile modules linear)
 *     gets the conservative answer and an assumption saying so:
 *       dep   which invocation-dependent inputs an id depends on (messages);
 *       ctrl  which ids and variables feed a branch or an address;
 *       na    which ids are non-affine functions of loop-varying state.
 *     Returns NULL with why set when nothing can be evaluated.
 *   ev_ctx_free releases it (NULL is fine).
 *   ev_root_var   the variable a pointer id is statically derived from
 *                 (access chains, copies), EV_NONE when not static.
 *   ev_note       adds an assumption (deduplicated, 64 at most) and marks
 *                 the result estimated.
 */
#ifndef CW_EVAL_PREPASS_H
#define CW_EVAL_PREPASS_H

#define EV_PREPASS_MAX_PASSES 64

uint32_t ev_root_var(ev_ctx *c, uint32_t id);

/* eval_wgdep.c: per workgroup axis, whether a branch condition, an
 * address or a shared-memory index depends on the group id in a way that
 * is not monotone (wg == 37, wg % 4, a band, a switch), so that groups
 * between two probes that behave alike may still differ: sets
 * info.wg_nm (bit per axis, with the instruction and reason) and
 * info.wg_cand (group ids named by constants compared with the group id,
 * worth probing).  A data-flow that does not converge flags every axis. */
void ev_setup_wgdep(ev_ctx *c);

/* OpControlBarrier at instruction i by its execution scope: workgroup
 * (CrossDevice, Device, Workgroup, QueueFamily: every invocation of the
 * workgroup waits), subgroup (the invocations of one subgroup executing it
 * together), invocation (nothing); | EV_BAR_ORDERS when its memory
 * semantics include WorkgroupMemory (or are None, the pre-Vulkan-memory-
 * model reading of GLSL's barrier()): shared accesses before it happen
 * before those after it for the invocations it synchronises.  A scope that
 * is not a known constant counts as workgroup.  OpMemoryBarrier alone
 * synchronises nothing (memoryBarrierShared(), groupMemoryBarrier() and
 * their subgroup variants order one invocation's accesses only). */
uint8_t ev_barrier_kind(const spv_module *m, const spv_inst *in);

#endif
