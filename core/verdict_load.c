/* verdict_load.c - the verdict on a busy machine (see verdict_load.h). */
#include "verdict_load.h"
#include "alloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"

double machine_load_available(const machine_load *l)
{
    if (!l->valid || !l->cpus)
        return 1;
    double left = (double)l->cpus - l->others_cpus - l->steal_cpus;
    double min = 0.05 * (double)l->cpus;
    return (left > min ? left : min) / (double)l->cpus;
}

int machine_load_busy(const machine_load *l)
{
    return l->valid && machine_load_available(l) < 0.8;
}

void machine_load_describe(const machine_load *l, char *buf, size_t n)
{
    if (!l->valid) {
        snprintf(buf, n, "machine load not measured");
        return;
    }
    int w = snprintf(buf, n, "other processes held %.1f of %u CPUs", l->others_cpus,
                     l->cpus);
    if (w > 0 && (size_t)w < n && l->steal_cpus >= 0.05)
        w += snprintf(buf + w, n - (size_t)w, ", the hypervisor stole %.1f",
                      l->steal_cpus);
    if (w > 0 && (size_t)w < n)
        snprintf(buf + w, n - (size_t)w, " (load average %.1f; this run used %.1f)",
                 l->loadavg1, l->self_cpus);
}

static void prepend(divergence *d, const char *head)
{
    const char *old = d->explanation ? d->explanation : "";
    size_t n = strlen(head) + strlen(old) + 3;
    char *s = xmalloc(n);
    snprintf(s, n, "%s%s%s", head, *old ? "; " : "", old);
    free(d->explanation);
    d->explanation = s;
}

void verdict_apply_load(const measurement *m, double band, load_target target,
                        divergence *d)
{
    const machine_load *l = &m->load;
    if (!d->valid || !m->valid || !machine_load_busy(l))
        return;
    char who[200], head[600];
    machine_load_describe(l, who, sizeof who);
    double stretch = 1 / machine_load_available(l);
    if (target == LOAD_GPU) {
        snprintf(head, sizeof head, "the host was busy while it was measured (%s); GPU "
                 "timestamps do not depend on it", who);
        prepend(d, head);
        return;
    }
    if (target == LOAD_NATIVE_CPU) {
        snprintf(head, sizeof head, "measured on a busy machine (%s); the efficiency "
                 "below discounts the time the kernel's threads waited for a CPU", who);
        prepend(d, head);
        return;
    }
    if (d->status == DIV_SLOWER && d->ratio <= (1 + band) * stretch) {
        d->status = DIV_UNKNOWN;
        snprintf(head, sizeof head, "too busy to judge: %s while it was measured, which "
                 "alone can make it up to %.1f× slower; measured %.2f× the prediction. "
                 "Measure again on a quiet machine", who, stretch, d->ratio);
    } else if (d->status == DIV_SLOWER) {
        snprintf(head, sizeof head, "slower even allowing for the load (%s: up to %.1f× "
                 "slower)", who, stretch);
    } else {
        snprintf(head, sizeof head, "measured on a busy machine (%s)", who);
    }
    prepend(d, head);
}
