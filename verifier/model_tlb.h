/* model_tlb.h - address translation of scattered requests past the TLB's
 * reach (docs/model.md section 4.2, "Translation reach").
 *
 * Contract:
 *   tlb_request_scattered(addr, size, n, line_bytes): 1 when one subgroup
 *   request's lanes span more bytes than n lines would (the lanes are not
 *   one contiguous run: a gather, a column, a scatter), else 0.  Only such
 *   requests are priced: a contiguous request is one translation that the
 *   requests before it and after it share.
 *
 *   tlb_estimate(kc, p, resident): from the simulated accesses' scattered
 *   line requests (sim_tlb_lines) and spans (sim_group_span), sets every
 *   access's sim_tlb_misses and returns the working set W (bytes) the
 *   miss share was taken against, 0 when the term is off (profile without
 *   tlb_reach_mib or tlb_miss_gops, or nothing scattered).  A unit's
 *   translations serve its `resident` workgroups at once: one access's
 *   pages on a unit are min(F, resident x H) bytes (H the span of one
 *   workgroup's scattered requests, F the access's index span over the
 *   dispatch, at least H): groups that share a table share its pages, groups that
 *   own a window each bring theirs.  Accesses of one binding share pages
 *   (the largest counts), bindings add: W = sum over bindings.  Uniform
 *   requests over W bytes of pages through an LRU of R bytes (the reach)
 *   miss with probability max(0, 1 - R/W) (calibrate_tlb.h).
 *
 *   tlb_miss_us(p, misses): what the missed translations add to the L2
 *   line lookups, µs (misses / tlb_miss_gops); 0 when unknown.
 * Pure. */
#ifndef CW_MODEL_TLB_H
#define CW_MODEL_TLB_H

#include <stdint.h>

#include "profile.h"
#include "verifier.h"

int tlb_request_scattered(const uint64_t *addr, const uint32_t *size,
                          uint32_t n, uint32_t line_bytes);
double tlb_miss_share(const device_profile *p, double working_set_bytes);
double tlb_estimate(kernel_counts *kc, const device_profile *p,
                    double resident);
double tlb_miss_us(const device_profile *p, double misses);

#endif
