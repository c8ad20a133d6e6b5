/* model_lavapipe.h - lavapipe's instruction cost by class and its
 * per-workgroup and per-subgroup overheads.
 *
 * Contract: the core cycles a CPU Vulkan device (llvmpipe) spends issuing
 * a kernel's counted instructions, one 8-lane (subgroup-wide) vector
 * instruction at a time, from the profile's per-class costs (cpu_costs):
 * FP instructions ((flops_fp16 + flops_fp32 + flops_fp64) / 2, an FMA
 * counted as 2 FLOPs), integer operations (int_ops), special functions
 * (sfu_ops) and the rest (every other counted instruction).  A class whose
 * cost the profile does not know is priced with the rest's
 * (cycles_per_instruction), so a profile without class costs gives
 * instructions x cycles_per_instruction exactly as before.  llvmpipe runs
 * a workgroup on one thread as a loop over its subgroup-size vectors, so
 * besides a workgroup's start (ns_per_group) each vector costs its own
 * (cycles_per_subgroup: an empty 1024-wide workgroup takes ~16x an 8-wide
 * one).  Pure.
 */
#ifndef CW_MODEL_LAVAPIPE_H
#define CW_MODEL_LAVAPIPE_H

#include "profile.h"
#include "verifier.h"

/* Cycles over the dispatch: counted lane-instructions x cycles per vector
 * instruction / subgroup lanes.  rest_cyc: the resolved
 * cycles_per_instruction (> 0). */
double lp_instruction_cycles(const device_profile *p, const kernel_counts *c,
                             double rest_cyc, double subgroup);

/* Core nanoseconds over the dispatch that llvmpipe spends starting
 * workgroups and, within each, running its subgroups one after the other
 * (one coroutine per subgroup-size vector): groups x (group_ns +
 * ceil(wg / subgroup) x cycles_per_subgroup / clock_ghz).  group_ns: the
 * resolved ns_per_group; a profile without cycles_per_subgroup costs the
 * subgroups nothing (the workgroup cost alone, as before). */
double lp_dispatch_ns(const device_profile *p, double groups, double wg,
                      double subgroup, double group_ns, double clock_ghz);

/* How many classes had their own cost (0..3), for the assumptions. */
int lp_known_classes(const device_profile *p);

#endif
