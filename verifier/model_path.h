/* model_path.h - the GPU latency path of a workgroup and the bytes it
 * keeps in flight (docs/model.md section 4.1).
 *
 * Contract: from the evaluator's counts (verifier.h) and the dispatch's
 * shape, the dependent path of one workgroup times the waves (µs): its
 * memory round trips (a pointer chase's along the longest chain one
 * invocation runs: chain_execs, chain_peer in verifier.h; chains of
 * different lanes overlap), the longer of issuing its instructions and its FP
 * chain, its barriers and subgroup operations; and the DRAM bytes its
 * largest simulated load keeps in flight at once.  A load's round trip is
 * the latency of where its data comes from: of the sectors it requests at
 * L1, the share DRAM serves (its simulated DRAM bytes) waits the DRAM round
 * trip, the share L2 serves the L2 hit latency, the rest the L1 hit
 * latency.  Each part leaves the path when the bytes the load puts in
 * flight per unit reach that level's bandwidth-delay product (Little's law
 * per trip): DRAM bytes against DRAM's, L2 sectors against L2's, L1
 * sectors against L1's.  Pure function, no I/O.
 */
#ifndef CW_MODEL_PATH_H
#define CW_MODEL_PATH_H

#include "verifier.h"

typedef struct gpu_path_in {
    const kernel_counts *c;
    double groups, wg, units, resident, waves;
    double read_bpus;        /* DRAM read bandwidth, bytes per µs */
    double latency_ns;       /* DRAM round trip */
    double l2_bpus;          /* L2 bandwidth, bytes per µs */
    double l2_latency_ns;    /* a load that hits L2; <= 0 unknown: every
                                trip a DRAM trip, decided on DRAM bytes */
    double l1_bpus;          /* L1 hit bandwidth, all units, bytes per µs */
    double l1_latency_ns;    /* a load that hits L1; <= 0 unknown: its
                                hits wait the L2 latency */
    double sector;           /* bytes */
    double clock_ghz, fp_lat_cyc;
    double barrier_ns;       /* a barrier, plus a workgroup-memory round
                                trip when the kernel reads that memory */
    double shared_latency_ns;/* that round trip (0: the kernel reads none,
                                or unknown): what a subgroup barrier
                                ordering workgroup memory adds */
    double subgroup_op_ns;
    double ctl_instructions; /* kept loops' control, priced per trip */
    double chain_cycles;     /* what those trips add to the chain */
} gpu_path_in;

typedef struct gpu_path_out {
    double path_us;          /* waves x one workgroup's path */
    double slot_inflight;    /* DRAM bytes one workgroup's largest
                                simulated load puts in flight at once */
    double bdp;              /* bytes per unit that cover a round trip */
} gpu_path_out;

void gpu_path(const gpu_path_in *in, gpu_path_out *out);

#endif
