/* model_compiled.c - kept loops' control priced per trip (model_compiled.h). */
#include "model_compiled.h"

#include <math.h>
#include <string.h>

static int known(double v)
{
    return v >= 0 && isfinite(v);
}

void mc_loop_control(const device_profile *p, const kernel_counts *c,
                     double fma_lanes_pus, double inv, mc_loops *out)
{
    memset(out, 0, sizeof *out);
    if (!p || p->kind != DEVICE_KIND_GPU || !known(p->loop_trip_slots) ||
        !known(p->loop_trip_cycles) || !(c->loop_trips > 0) || !(fma_lanes_pus > 0) ||
        !(inv > 0))
        return;
    out->on = 1;
    out->ctl_instructions = c->loop_ctl_instructions;
    out->ctl_int_ops = c->loop_ctl_int_ops;
    out->issue_us = c->loop_trips * p->loop_trip_slots / fma_lanes_pus;
    out->chain_cycles = c->loop_trips / inv * p->loop_trip_cycles;
}

double mc_issue_slots_us(const device_profile *p, const kernel_counts *c,
                         const mc_loops *loops, double fma_lanes_pus)
{
    /* kept loops' control must be priced per trip: counted, it is most
     * of a small loop's instructions */
    if (!p || p->kind != DEVICE_KIND_GPU || p->full_unroll_trips == 0 ||
        !(fma_lanes_pus > 0) || (c->loop_trips > 0 && !loops->on))
        return 0;
    /* FP16 arithmetic issues two lanes' worth a packed instruction */
    double fp = (c->flops_fp16 / 2 + c->flops_fp32 + c->flops_fp64) / 2;
    double n = c->instructions - loops->ctl_instructions - c->flops_fp16 / 4;
    /* FP instructions counted as FMAs where the count says more (an FMA
     * is one instruction for 2 FLOPs) */
    return fmax(n, fp) / fma_lanes_pus;
}
