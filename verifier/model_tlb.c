/* model_tlb.c - translation misses of scattered requests (model_tlb.h). */
#include "model_tlb.h"

#include <math.h>

static int known(double v) { return v > 0 && isfinite(v); }

uint32_t tlb_request_lines(const uint64_t *addr, uint32_t n,
                           uint32_t line_bytes)
{
    enum { MAX_LANES = 128 };
    uint64_t l[MAX_LANES];
    uint32_t d = 0;
    if (!line_bytes)
        return 0;
    for (uint32_t i = 0; i < n && i < MAX_LANES; i++) {
        uint64_t v = addr[i] / line_bytes;
        uint32_t j = 0;
        while (j < d && l[j] != v)
            j++;
        if (j == d)
            l[d++] = v;
    }
    return d;
}

int tlb_request_scattered(const uint64_t *addr, const uint32_t *size,
                          uint32_t n, uint32_t line_bytes, uint32_t *lines)
{
    *lines = 0;
    if (n < 2 || !line_bytes)
        return 0;
    uint64_t lo = addr[0], hi = addr[0] + size[0];
    for (uint32_t i = 1; i < n; i++) {
        if (addr[i] < lo)
            lo = addr[i];
        if (addr[i] + size[i] > hi)
            hi = addr[i] + size[i];
    }
    if (hi - lo <= (uint64_t)n * line_bytes)
        return 0; /* one run: the lines are not counted (the common case) */
    *lines = tlb_request_lines(addr, n, line_bytes);
    return 2 * *lines >= n;
}

double tlb_miss_share(const device_profile *p, double working_set_bytes)
{
    if (!known(p->tlb_reach_mib) || !known(p->tlb_miss_gops) ||
        !(working_set_bytes > 0))
        return 0;
    double reach = p->tlb_reach_mib * 1048576.0;
    return working_set_bytes > reach ? 1 - reach / working_set_bytes : 0;
}

/* one access's pages on a unit (model_tlb.h) */
static double unit_pages(const access_summary *a, double resident)
{
    double h = a->sim_group_span;
    double f = fmax(a->span_bytes > 0 ? a->span_bytes : a->footprint_bytes, h);
    return fmin(f, fmax(resident, 1) * h);
}

double tlb_estimate(kernel_counts *kc, const device_profile *p,
                    double resident)
{
    for (size_t i = 0; i < kc->naccesses; i++)
        kc->accesses[i].sim_tlb_misses = 0;
    if (!known(p->tlb_reach_mib) || !known(p->tlb_miss_gops))
        return 0;
    double w = 0;
    for (size_t i = 0; i < kc->naccesses; i++) {
        const access_summary *a = &kc->accesses[i];
        if (a->space != SPACE_STORAGE || !(a->sim_tlb_lines > 0))
            continue;
        int first = 1; /* the binding's largest, counted at its first */
        double most = 0;
        for (size_t j = 0; j < kc->naccesses; j++) {
            const access_summary *b = &kc->accesses[j];
            if (b->space != SPACE_STORAGE || !(b->sim_tlb_lines > 0) ||
                b->set != a->set || b->binding != a->binding)
                continue;
            if (j < i)
                first = 0;
            most = fmax(most, unit_pages(b, resident));
        }
        if (first)
            w += most;
    }
    double miss = tlb_miss_share(p, w);
    for (size_t i = 0; i < kc->naccesses; i++)
        kc->accesses[i].sim_tlb_misses = kc->accesses[i].sim_tlb_lines * miss;
    return miss > 0 ? w : 0;
}

double tlb_miss_us(const device_profile *p, double misses)
{
    double rate = p->tlb_miss_gops * 1e3; /* per us */
    return known(rate) && misses > 0 ? misses / rate : 0;
}
