/* model_memterms.c - a GPU kernel's memory terms (model_memterms.h). */
#include "model_memterms.h"

#include <math.h>

#include "model_access.h"
#include "model_tlb.h"

/* DRAM.  A slot (one resident workgroup) alternates its dependent path
 * (the latency term: load round trips, issue, barriers) with its share of
 * the transfer, so the two add up: with W waves of S slots, W x path +
 * W x S x bytes per group / bandwidth = latency + bytes / bandwidth.  This
 * is Little's law with the latency of a whole group: few bytes in flight
 * per group (one 4-byte load per invocation) leave the bandwidth idle for
 * the path's duration, many (vector loads, unrolled loops) make the path
 * small against the transfer.  The larger share names the term.
 * Scattered transfers open a DRAM page each (row activations): what an
 * isolated access costs beyond its sectors at the streaming bandwidth
 * (calibrate's random-read and random-write figures); reads and writes go
 * at their own streaming rates, with the bus turnaround of their
 * interleaving (model_dram.h). */
static void dram_term(const gpu_mem_in *in, gpu_mem_out *out)
{
    const gpu_path_in *pi = in->path;
    double dram_peak = dram_transfer_us(in->dram, in->dram_read,
                                        in->dram_write, in->dram_pages,
                                        in->dram_write_pages);
    gpu_path_out po;
    gpu_path(pi, &po);
    double path = po.path_us;
    out->limited_by_inflight = path > 0.25 * (dram_peak + path);
    /* the other groups of a unit keep the bandwidth busy through one
     * group's path when their loads in flight cover the bandwidth-delay
     * product: the path overlaps the transfer (Little's law per unit) */
    double others = fmin(pi->resident, ceil(pi->groups / pi->units)) - 1;
    if (others * po.slot_inflight >= po.bdp) {
        out->dram_us = fmax(dram_peak, path);
        out->latency_us = path;
        /* the bytes in flight already cover the round trip: more of them
         * would not shorten it */
        out->limited_by_inflight = 0;
    } else if (dram_peak >= path) {
        out->dram_us = dram_peak + path;
        out->latency_us = path;
    } else {
        out->dram_us = dram_peak;
        out->latency_us = dram_peak + path;
    }
}

/* A store writing part of a sector costs the L2 a merge (read, merge,
 * write back the sector): at calibrate's partial-write rate where the
 * profile has one; its line requests (tag lookups, with the translations
 * they miss) at calibrate's scattered-line rate and the requests of
 * unmerged store runs at calibrate's store-run rate bound it from below.
 * The assumption names the bound that won (pred NULL: none). */
static double l2_term(const gpu_mem_in *in, prediction *pred)
{
    const device_profile *p = in->p;
    double l2_us = l2_term_us(p, in->l2_bytes, in->sector, in->l2_bpus,
                              in->l2_partial, in->l2_partial_open);
    double tlb_us = tlb_miss_us(p, in->tlb_misses);
    double lookups_us = l2_lines_us(p, in->l2_lines) + tlb_us;
    double runs = in->path->c->l2_store_runs;
    double runs_us = l2_runs_us(p, runs);
    double lines_us = fmax(lookups_us, runs_us);
    if (pred && lines_us > l2_us && runs_us > lookups_us)
        prediction_add_assumption(pred,
                                  "L2 term from its store runs: %.4g M "
                                  "requests of adjacent stores the compiler "
                                  "does not merge at %.4g G/s "
                                  "(l2_store_run_gops)",
                                  runs * 1e-6, p->l2_store_run_gops);
    else if (pred && lines_us > l2_us)
        prediction_add_assumption(pred,
                                  "L2 term from its line lookups: %.4g M "
                                  "lines of L1-missed loads at %.4g G/s "
                                  "(l2_line_gops)%s",
                                  in->l2_lines * 1e-6, p->l2_line_gops,
                                  tlb_us > 0 ? ", with the translations they "
                                               "miss (model_tlb.h)"
                                             : "");
    return fmax(l2_us, lines_us) * in->imbalance;
}

void gpu_memory_terms(const gpu_mem_in *in, prediction *pred,
                      gpu_mem_out *out)
{
    const kernel_counts *c = in->path->c;
    double imb = in->imbalance;
    dram_term(in, out);
    out->l2_us = l2_term(in, pred);
    out->l1_us = c->sim && in->l1_bytes > 0
                     ? in->l1_bytes / in->l1_bpus * imb : -1;
    out->shared_us = in->shared_bytes > 0
                         ? in->shared_bytes / in->shared_bpus * imb : -1;
}
