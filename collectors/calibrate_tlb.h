/* calibrate_tlb.h - the address-translation reach from calibrate's `tlb
 * span` rows.
 *
 * Contract: the rows read the same L2-resident lines (the same L2
 * footprint, every lane its own hashed line) spread over growing spans of
 * bytes, so only the pages the requests touch change.  Within the reach R
 * every translation hits; past it a request to a span S uniformly at
 * random misses with probability 1 - R/S (an LRU of R bytes of pages under
 * uniform requests), and a miss adds a fixed time c to the line's lookup:
 *
 *     t(S) = a + c * max(0, 1 - R/S)          (ns per line, whole device)
 *
 * cal_tlb_fit() finds R (bytes, on a grid of 1/8 MiB from 1/8 MiB up to
 * the largest span) and a, c (least squares for each R) from n rows of
 * (span bytes, G lines/s), and returns 0 with *reach_bytes = R and
 * *miss_gops = 1/c (missed translations per second, G, whole device); -1
 * when fewer than 3 rows are usable; 1 when the rows show no step (the
 * largest span's time within `step` of the smallest's, or c <= 0): the
 * fields are then left unknown.  Pure. */
#ifndef CW_CALIBRATE_TLB_H
#define CW_CALIBRATE_TLB_H

#include <stddef.h>

int cal_tlb_fit(const double *span_bytes, const double *lines_gops, size_t n,
                double step, double *reach_bytes, double *miss_gops,
                double *base_gops);

#endif
