/* model_path.c - the GPU latency path of a workgroup (model_path.h). */
#include "model_path.h"

#include <math.h>
#include <stdlib.h>

#include "model_access.h"

static int is_global(const access_summary *a)
{
    return a->space == SPACE_STORAGE || a->space == SPACE_UNIFORM;
}

/* The round trip (ns) one execution of load a adds while nothing covers
 * it.  Of the sectors it requests at L1 (all of it without a
 * simulation), the share DRAM serves (its DRAM bytes) waits the DRAM
 * latency unless its DRAM bytes in flight per unit (lanes x bytes a lane)
 * reach the DRAM bandwidth-delay product; the share L2 serves (its
 * sectors at L2 beyond that) the L2 hit latency unless its L2 sectors in
 * flight reach L2's; the L1 hits the L1 latency unless its sectors
 * requested in flight reach L1's.  A table L1 or L2 holds, chased by few
 * lanes, waits their trips, not DRAM's; a stream of misses keeps the DRAM
 * rule.  slowest: the latency of the slowest level it still waits for
 * instead of the shares' (a workgroup waits for the last of its requests:
 * a load issued with the others waits DRAM's round trip once any of its
 * requests misses).  Without an L2 latency every trip is a DRAM trip on
 * DRAM bytes. */
static double trip_ns(const gpu_path_in *in, const access_summary *a,
                      double lanes, const double bdp[3], int slowest)
{
    double dram = access_inflight_bytes(a, in->sector, 1);
    int dram_hidden = lanes * dram >= bdp[0];
    if (!(in->l2_latency_ns > 0) || !(bdp[1] > 0) || a->sim_execs <= 0)
        return dram_hidden ? 0 : in->latency_ns;
    double l2 = access_inflight_bytes(a, in->sector, 0);
    double l1 = fmax(access_inflight_bytes(a, in->sector, 2), l2);
    if (!(l1 > 0))
        return dram_hidden ? 0 : in->latency_ns;
    double from_dram = fmin(1, dram / l1);
    double from_l2 = fmax(0, fmin(1, l2 / l1) - from_dram);
    double from_l1 = fmax(0, 1 - from_dram - from_l2);
    double l1_lat = in->l1_latency_ns > 0 ? in->l1_latency_ns : in->l2_latency_ns;
    double dram_ns = from_dram > 0 && !dram_hidden ? in->latency_ns : 0;
    double l2_ns = from_l2 > 0 && lanes * l2 < bdp[1] ? in->l2_latency_ns : 0;
    double l1_ns = from_l1 > 0 && !(lanes * l1 >= bdp[2] && bdp[2] > 0) ? l1_lat : 0;
    if (slowest)
        return fmax(dram_ns, fmax(l2_ns, l1_ns));
    return from_dram * dram_ns + from_l2 * l2_ns + from_l1 * l1_ns;
}

/* Executions of a that wait for the load whose value its address is
 * computed from (verifier.h chase_of): one per execution of that load at
 * most (x[col[j]] waits for every col[j]; a[i + n[0]] for n's one load;
 * p = next[p] is its own source, every step), none when that load is one
 * address for every lane run once by each (a parameter the compiler keeps
 * in a register; a lone lane's walk is one address too, step after
 * step). */
static double chase_steps_within(const kernel_counts *c, const access_summary *a,
                                 double groups, size_t depth)
{
    if (!a->chase_of || a->chase_of > c->naccesses || depth > c->naccesses)
        return 0;
    const access_summary *src = &c->accesses[a->chase_of - 1];
    /* a uniform source waits only when it is itself a step of a walk (a
     * lone lane's next[p], run more than once an invocation): a parameter
     * reloaded every loop trip (a[k * P.stride]) runs as often but its
     * address is no load's value */
    if (src->uniform && src != a &&
        !(src->chain_execs > groups && chase_steps_within(c, src, groups, depth + 1) > 0))
        return 0;
    return fmin(a->count, src->count);
}

static double chase_steps(const kernel_counts *c, const access_summary *a,
                          double groups)
{
    return chase_steps_within(c, a, groups, 0);
}

/* The steps of a's longest chain in a workgroup, averaged over the
 * workgroups: the most executions of it by one invocation (verifier.h
 * chain_execs), bounded by its source's as chase_steps bounds the count;
 * never below mean, its steps an invocation on average (all of it
 * without chain counts: counts made by hand).  A group waits for its
 * longest chain: one lane chasing 512 pointers while the others return is
 * 512 trips, not 512 / 1024. */
static double chain_steps(const kernel_counts *c, const access_summary *a,
                          double mean, double groups)
{
    if (!(a->chain_execs > 0))
        return mean;
    double steps = a->chain_execs / groups;
    if (a->chase_of && a->chase_of <= c->naccesses) {
        const access_summary *src = &c->accesses[a->chase_of - 1];
        if (src->chain_execs > 0)
            steps = fmin(steps, src->chain_execs / groups);
    }
    return fmax(steps, mean);
}

/* The share of a group's invocations that run a at once: its executions
 * an invocation over its longest chain's (1 without chain counts). */
static double running_share(const access_summary *a, double inv, double groups)
{
    if (!(a->chain_execs > 0))
        return 1;
    return fmin(1, a->count / inv / (a->chain_execs / groups));
}

/* The chases' trips along the longest chain one invocation runs: for
 * each chase load, its own longest chain's steps (own) at its trip
 * (step_ns) plus the other chase loads that invocation runs (its chain
 * peers, verifier.h) at theirs; the most of these.  Chains run by
 * different lanes (one lane chasing a list, its neighbours streaming)
 * overlap instead of adding up. */
static double longest_chain_ns(const kernel_counts *c, double groups,
                               const double *step_ns, const double *own)
{
    double most = 0;
    for (size_t i = 0; i < c->naccesses; i++) {
        if (!(step_ns[i] > 0))
            continue;
        const access_summary *a = &c->accesses[i];
        double ns = own[i] * step_ns[i];
        for (int k = 0; k < CW_CHAIN_PEERS && a->chain_peer[k]; k++) {
            size_t b = a->chain_peer[k] - 1;
            if (b < c->naccesses && b != i)
                ns += fmin(a->chain_peer_execs[k] / groups, own[b]) * step_ns[b];
        }
        most = fmax(most, ns);
    }
    return most;
}

/* A workgroup cannot finish faster than its invocations' dependent path;
 * each slot runs `waves` workgroups one after the other.  The path: one
 * memory round trip (load, use, store), one more per load whose address
 * comes from buffer contents (a pointer chase: index unknown to the
 * evaluator, or computed from a load's value the plan gives), the longer of issuing its counted instructions (one per
 * clock) and its FP dependency chain, and the barriers.  Loads with known
 * addresses in a loop do not wait for each other (the compiler unrolls and
 * batches them): their cost is bandwidth.  Per-invocation figures are
 * averages over the launched invocations (an invocation that writes
 * nothing still runs the loop before it). */
void gpu_path(const gpu_path_in *in, gpu_path_out *out)
{
    const kernel_counts *c = in->c;
    double inv = c->invocations ? (double)c->invocations : in->groups * in->wg;
    if (inv <= 0)
        inv = 1;
    double units = in->units > 0 ? in->units : 1;
    /* Little's law per round trip: when the bytes one load puts in flight
     * per unit (resident lanes x its bytes a lane) reach the
     * bandwidth-delay product, the trip's latency is covered by the
     * transfer of the bytes already queued: it adds nothing to the path */
    double bdp = in->read_bpus * in->latency_ns * 1e-3 / units;
    double l1_lat = in->l1_latency_ns > 0 ? in->l1_latency_ns : in->l2_latency_ns;
    double bdps[3] = {bdp, in->l2_bpus * in->l2_latency_ns * 1e-3 / units,
                      in->l1_bpus * l1_lat * 1e-3 / units};
    double lanes = fmin(in->resident, ceil(in->groups / units)) * in->wg;
    double groups = in->groups > 0 ? in->groups : 1;
    double slot_inflight = 0;
    double base_ns = 0, sum_ns = 0; /* the base trip, the chases' trips */
    int loads = 0, affine = 0, by_chain = 1;
    /* each chase load's trip (ns) and its longest chain's steps; without
     * the memory, every chase on one chain */
    double *step_ns = calloc(2 * c->naccesses + 1, sizeof *step_ns);
    double *own = step_ns ? step_ns + c->naccesses : NULL;
    for (size_t i = 0; i < c->naccesses; i++) {
        const access_summary *a = &c->accesses[i];
        if (!is_global(a) || a->is_store || a->count <= 0 || a->sim_merge == 2)
            continue; /* a merged access's trip is its piece's */
        /* in flight together: a merged request's executions, or the
         * copies full unrolling issues (model_access.h) */
        double lane_bytes = access_inflight_bytes(a, in->sector, 1);
        /* a group's lanes that run it at once (a rare branch's few);
         * simulated loads only: their DRAM bytes are known */
        double slot = lane_bytes * in->wg *
                      fmin(1, a->count / inv / fmax(a->copies, 1));
        if (!a->uniform && a->sim_execs > 0 && slot > slot_inflight)
            slot_inflight = slot;
        loads = 1;
        /* one address for every lane: a parameter loaded once, unless it
         * is a chase step (one lane, or a whole subgroup, walking a list:
         * each step still waits for the last) */
        double steps = chase_steps(c, a, groups);
        if (a->uniform && !(steps > 0))
            continue;
        if (!a->index_known || steps > 0) {
            /* one chase step after the other: their trips add up along
             * the group's longest chain (a chase whose values the plan
             * gives waits the same); the lanes that run it at once (a
             * lone chaser's one) decide what covers a trip */
            double mean = (a->index_known ? steps : a->count) / inv;
            double at_once = lanes * running_share(a, inv, groups);
            double trip = trip_ns(in, a, at_once, bdps, 0);
            double chain = chain_steps(c, a, mean, groups);
            if (step_ns)
                step_ns[i] = trip, own[i] = chain;
            sum_ns += chain * trip;
            by_chain &= a->chain_execs > 0;
        } else {
            /* issued together: the base trip waits for the slowest */
            affine = 1;
            base_ns = fmax(base_ns, trip_ns(in, a, lanes, bdps, 1));
        }
    }
    double chase_ns = by_chain && step_ns ? longest_chain_ns(c, groups, step_ns, own)
                                          : sum_ns;
    free(step_ns);
    if (loads && !affine)
        base_ns = in->latency_ns; /* no affine load: the base trip as is */
    int chains = c->fp_chains > 0 ? c->fp_chains : 1;
    double fl = c->flops_fp16 + c->flops_fp32 + c->flops_fp64;
    double issue_cyc = (c->instructions - in->ctl_instructions) / inv;
    double chain_cyc = fl / inv / 2 / chains * in->fp_lat_cyc + in->chain_cycles;
    /* subgroup operations on the path: each is a dependent step of its
     * invocation (a shuffle tree, a reduction); after a barrier an
     * invocation reads what others wrote (barrier_ns holds that round
     * trip: nothing can be fetched ahead across the barrier; a subgroup
     * barrier that orders workgroup memory, the round trip alone: a
     * calibrate row for its own cost is still missing) */
    /* the group's busiest invocation issues its instructions one after
     * the other: a tree's lane 0 runs every level, its average lane a
     * few (verifier.h chain_instr_ratio) */
    double busiest = c->chain_instr_ratio > 1 ? c->chain_instr_ratio : 1;
    double per_group_ns = base_ns + chase_ns +
                          fmax(issue_cyc, chain_cyc) * busiest / in->clock_ghz +
                          c->barriers / groups * in->barrier_ns +
                          c->subgroup_barriers / inv * in->shared_latency_ns +
                          c->subgroup_ops / inv * in->subgroup_op_ns;
    out->path_us = in->waves * per_group_ns * 1e-3;
    out->slot_inflight = slot_inflight;
    out->bdp = bdp;
}
