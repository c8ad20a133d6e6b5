/* model_lavapipe.c - lavapipe's instruction cost by class (see
 * model_lavapipe.h). */
#include "model_lavapipe.h"

#include <math.h>

static int known(double v) { return v > 0 && isfinite(v); }

int lp_known_classes(const device_profile *p)
{
    return known(p->cpu_cycles_per_fp_instruction) +
           known(p->cpu_cycles_per_int_instruction) +
           known(p->cpu_cycles_per_sfu_instruction);
}

double lp_instruction_cycles(const device_profile *p, const kernel_counts *c,
                             double rest_cyc, double subgroup)
{
    if (subgroup < 1)
        subgroup = 1;
    double fp = (c->flops_fp16 + c->flops_fp32 + c->flops_fp64) / 2;
    double cls[3] = {fp, c->int_ops, c->sfu_ops};
    double cyc[3] = {p->cpu_cycles_per_fp_instruction,
                     p->cpu_cycles_per_int_instruction,
                     p->cpu_cycles_per_sfu_instruction};
    double rest = c->instructions, total = 0;
    for (int i = 0; i < 3; i++) {
        if (!known(cyc[i]) || cls[i] <= 0)
            continue; /* priced with the rest */
        double n = fmin(cls[i], fmax(rest, 0));
        total += n * cyc[i];
        rest -= n;
    }
    total += fmax(rest, 0) * rest_cyc;
    return total / subgroup;
}

double lp_dispatch_ns(const device_profile *p, double groups, double wg,
                      double subgroup, double group_ns, double clock_ghz)
{
    double per_group = group_ns > 0 ? group_ns : 0;
    if (known(p->cpu_cycles_per_subgroup) && clock_ghz > 0)
        per_group += ceil(wg / (subgroup >= 1 ? subgroup : 1)) *
                     p->cpu_cycles_per_subgroup / clock_ghz;
    return groups * per_group;
}
