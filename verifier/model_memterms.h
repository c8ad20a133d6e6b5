/* model_memterms.h - a GPU kernel's memory terms: DRAM (with the latency
 * path it overlaps), L2, L1 and workgroup memory (docs/model.md sections
 * 4.1, 4.2).
 *
 * Contract: from the traffic the model has already resolved (bytes moved
 * at each level, the simulated partial-sector stores, L2 line requests,
 * missed translations, DRAM pages), the device profile's rates and the
 * latency path's inputs (model_path.h), the time of each memory term in µs
 * (negative: the kernel has no such term) and the latency term:
 *   dram    the DRAM transfer (model_dram.h) and one workgroup's dependent
 *           path: their maximum when the other resident workgroups' loads
 *           in flight cover the bandwidth-delay product, else their sum
 *           when the transfer is the larger (the latency term is then the
 *           path, else the transfer plus the path);
 *   l2      the larger of the bytes at L2 (l2_term_us) and the line
 *           lookups, missed translations and store runs (model_access.h,
 *           model_tlb.h), times the busiest unit's imbalance; when a
 *           bound from below wins, an assumption naming it (the line
 *           lookups, or the store runs) is added to pred (NULL: none);
 *   l1      the simulated L1 bytes at the L1 rate (simulated kernels only);
 *   shared  the workgroup-memory bytes (bank conflicts included) at its
 *           rate.
 * Pure function apart from that assumption; no I/O.
 */
#ifndef CW_MODEL_MEMTERMS_H
#define CW_MODEL_MEMTERMS_H

#include "model_dram.h"
#include "model_path.h"
#include "profile.h"
#include "report.h"
#include "verifier.h"

typedef struct gpu_mem_in {
    const device_profile *p;
    const gpu_path_in *path;   /* counts and shape (model_path.h) */
    const dram_rates *dram;
    double dram_read, dram_write;        /* bytes, by direction */
    double dram_pages, dram_write_pages; /* DRAM pages opened */
    double l2_bytes, l2_bpus;  /* bytes requested at L2, bytes per µs */
    double sector;             /* bytes */
    double l2_partial;         /* partial-sector stores at L2 */
    double l2_partial_open;    /* of those, into sectors L2 did not hold */
    double l2_lines;           /* L2 line requests of L1-missed loads */
    double tlb_misses;         /* of those, translations missed */
    double l1_bytes, l1_bpus;
    double shared_bytes, shared_bpus;
    double imbalance;          /* busiest unit's share vs an even share */
} gpu_mem_in;

typedef struct gpu_mem_out {
    double dram_us, l2_us, l1_us, shared_us; /* < 0: no such term */
    double latency_us;         /* the latency term */
    int limited_by_inflight;   /* the path is a large share of DRAM's time
                                  and the loads in flight do not cover
                                  the bandwidth-delay product */
} gpu_mem_out;

void gpu_memory_terms(const gpu_mem_in *in, prediction *pred,
                      gpu_mem_out *out);

#endif
