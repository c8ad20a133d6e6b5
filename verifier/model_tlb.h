/* model_tlb.h - address translation of scattered requests past the TLB's
 * reach (docs/model.md section 4.2, "Translation reach").
 *
 * Contract:
 *   tlb_request_lines(addr, n, line_bytes): the distinct lines of one
 *   subgroup request's n lanes (n <= 128).
 *   tlb_request_scattered(addr, size, n, line_bytes, &lines): 1 when the
 *   request's lanes span more bytes than n lines would and touch at least
 *   n/2 distinct lines (mostly a line a lane: a gather, a column, a
 *   scatter), else 0; *lines = its distinct lines when the span was wide
 *   enough to count them, else 0.  Only such requests are priced: a contiguous request
 *   (or a tile's few row runs) shares its translations with the requests
 *   before and after it.
 *
 *   tlb_estimate(kc, p, resident): from the simulated accesses' scattered
 *   line requests (sim_tlb_lines) and step spans (sim_group_span: the hull
 *   of one execution of the access by a workgroup's subgroups, what its
 *   scattered requests reach at once), sets every
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

uint32_t tlb_request_lines(const uint64_t *addr, uint32_t n,
                           uint32_t line_bytes);
int tlb_request_scattered(const uint64_t *addr, const uint32_t *size,
                          uint32_t n, uint32_t line_bytes, uint32_t *lines);
double tlb_miss_share(const device_profile *p, double working_set_bytes);
double tlb_estimate(kernel_counts *kc, const device_profile *p,
                    double resident);
double tlb_miss_us(const device_profile *p, double misses);

#endif
