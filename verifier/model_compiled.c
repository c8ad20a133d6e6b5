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
