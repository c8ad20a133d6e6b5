/* model_traffic.h - traffic and contention from the kernel's own address
 * stream: the evaluator re-runs representative workgroups with every loop
 * iteration executed, its access observer (eval_options.on_access) feeds
 * each subgroup request to the cache model (cachesim.h) and the atomic
 * requests to the contention counts (contention.h).
 *
 * Contract: model_traffic_simulate(m, r, k, p, kc) is called after
 * eval_run filled kc.  It fills, for every storage/uniform access of kc,
 * the sim_* fields (traffic per lane execution in the simulated
 * workgroups) and kc's contention fields, sets kc->sim and appends one
 * assumption saying what was simulated and how it was scaled.  It does
 * nothing (kc->sim = 0) for CPU devices, for kernels without buffer
 * accesses or when the evaluator produced no counts.  The work is bounded
 * by a step budget; a group cut short contributes the prefix it ran.
 * Pure apart from the evaluator: no I/O.
 *
 * Sampling (docs/model.md, "Simulated traffic"): windows of up to 4
 * consecutive workgroups at the start, middle and end of the dispatch (all
 * workgroups when there are at most 12).  Consecutive workgroups run at the
 * same time on different units, so each has its own L1 and they share one
 * L2; the L1 a group sees is the unit's L1 (less the workgroup memory the
 * resident groups carve out of it) divided by the groups resident on a
 * unit; the L2 is the device's L2 scaled by the window's share of the
 * groups running at once.  Within a group the requests come in the
 * evaluator's lock-step order: one instruction for every subgroup, then
 * the next, as a round-robin warp scheduler interleaves them.  Traffic per
 * lane execution of each access, times the evaluator's exact execution
 * count, gives the dispatch's traffic.
 */
#ifndef CW_MODEL_TRAFFIC_H
#define CW_MODEL_TRAFFIC_H

#include "plan.h"
#include "profile.h"
#include "spirv.h"
#include "verifier.h"

/* The L1's line groups (cachesim.h csim_config.l1_line_groups) from the
 * profile's two row-walk rates (l1_spread_lines_gops / l1_row_lines_gops,
 * rounded down to a power of two); 1 when either is unknown. */
uint32_t l1_line_groups(const device_profile *p);

void model_traffic_simulate(const spv_module *m, const reflection *r,
                            const plan_kernel *k, const device_profile *p,
                            kernel_counts *kc);

#endif
