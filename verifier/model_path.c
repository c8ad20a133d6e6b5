/* model_path.c - the GPU latency path of a workgroup (model_path.h). */
#include "model_path.h"

#include <math.h>

#include "model_access.h"

static int is_global(const access_summary *a)
{
    return a->space == SPACE_STORAGE || a->space == SPACE_UNIFORM;
}

/* A workgroup cannot finish faster than its invocations' dependent path;
 * each slot runs `waves` workgroups one after the other.  The path: one
 * memory round trip (load, use, store), one more per load whose address
 * comes from buffer contents (a pointer chase: index unknown to the
 * evaluator), the longer of issuing its counted instructions (one per
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
    /* Little's law per round trip: when the DRAM bytes one load puts in
     * flight per unit (resident lanes x its bytes a lane) reach the
     * bandwidth-delay product, the trip's latency is covered by the
     * transfer of the bytes already queued: it adds nothing to the path */
    double bdp = in->read_bpus * in->latency_ns * 1e-3 / units;
    double lanes = fmin(in->resident, ceil(in->groups / units)) * in->wg;
    double trips = 0, slot_inflight = 0;
    int affine = 0, base_hidden = 1;
    for (size_t i = 0; i < c->naccesses; i++) {
        const access_summary *a = &c->accesses[i];
        if (!is_global(a) || a->is_store || a->count <= 0 || a->sim_merge == 2)
            continue; /* a merged access's trip is its piece's */
        /* in flight together: a merged request's executions, or the
         * copies full unrolling issues (model_access.h) */
        double lane_bytes = access_inflight_bytes(a, in->sector, 1);
        int hidden = lanes * lane_bytes >= bdp;
        /* a group's lanes that run it at once (a rare branch's few);
         * simulated loads only: their DRAM bytes are known */
        double slot = lane_bytes * in->wg *
                      fmin(1, a->count / inv / fmax(a->copies, 1));
        if (!a->uniform && a->sim_execs > 0 && slot > slot_inflight)
            slot_inflight = slot;
        if (trips < 1)
            trips = 1;
        if (!a->index_known && !a->uniform) {
            if (!hidden)
                trips += a->count / inv;
        } else if (!a->uniform) {
            affine = 1;
            if (!hidden)
                base_hidden = 0;
        }
    }
    if (trips >= 1 && affine && base_hidden)
        trips -= 1; /* every affine load's trip is covered */
    int chains = c->fp_chains > 0 ? c->fp_chains : 1;
    double fl = c->flops_fp16 + c->flops_fp32 + c->flops_fp64;
    double issue_cyc = (c->instructions - in->ctl_instructions) / inv;
    double chain_cyc = fl / inv / 2 / chains * in->fp_lat_cyc + in->chain_cycles;
    /* subgroup operations on the path: each is a dependent step of its
     * invocation (a shuffle tree, a reduction); after a barrier an
     * invocation reads what others wrote (barrier_ns holds that round
     * trip: nothing can be fetched ahead across the barrier) */
    double groups = in->groups > 0 ? in->groups : 1;
    double per_group_ns = trips * in->latency_ns +
                          fmax(issue_cyc, chain_cyc) / in->clock_ghz +
                          c->barriers / groups * in->barrier_ns +
                          c->subgroup_ops / inv * in->subgroup_op_ns;
    out->path_us = in->waves * per_group_ns * 1e-3;
    out->slot_inflight = slot_inflight;
    out->bdp = bdp;
}
