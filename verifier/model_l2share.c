/* model_l2share.c - L2 hits of gathers over a shared table (see
 * model_l2share.h). */
#include "model_l2share.h"

#include <math.h>

double l2_shared_hit_fraction(const device_profile *p, double footprint,
                              double reuse, double sectors_per_line)
{
    if (!p->l2_partitions || !p->l2_bytes || !p->line_bytes ||
        !(footprint > 0) || !(reuse > 1) || !(sectors_per_line >= 1))
        return 0;
    double lines = footprint / p->line_bytes;
    double cap = (double)p->l2_bytes / p->l2_partitions / p->line_bytes;
    double h = cap >= lines ? 1
                            : 1 - pow(1 - cap / lines, 1 / sectors_per_line);
    double most = 1 - 1 / reuse;
    return h < most ? h : most;
}
