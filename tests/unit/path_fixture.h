/* path_fixture.h - the loads the latency-path and memory-term tests
 * (test_model_path.c, test_model_memterms.c) write by hand. */
#ifndef CW_PATH_FIXTURE_H
#define CW_PATH_FIXTURE_H

#include "verifier.h"

/* Appends to c (its accesses array has room) a simulated 4-byte storage
 * load, executions per invocation, each l2_sectors sectors at L2 and dram
 * bytes from DRAM; index_known 0: a pointer chase. */
static inline access_summary *path_load(kernel_counts *c, double executions,
                                        double l2_sectors, double dram,
                                        int index_known)
{
    access_summary *a = &c->accesses[c->naccesses++];
    memset(a, 0, sizeof *a);
    a->space = SPACE_STORAGE;
    a->bytes = 4;
    a->count = executions * (double)c->invocations;
    a->index_known = index_known;
    a->stride_known = index_known;
    a->sim_execs = 1;
    a->sim_l2_sectors = l2_sectors;
    a->sim_dram_bytes = dram;
    return a;
}

#endif
