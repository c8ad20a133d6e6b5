/* model_access.c - per-access static rules (see model_access.h). */
#include "model_access.h"

#include <math.h>

static double ceil_div(double a, double b) { return ceil(a / b); }

/* Sectors touched by one subgroup request, and the minimum possible. */
void access_sectors(uint32_t subgroup, uint32_t sector,
                    const access_summary *a, double *got, double *best)
{
    double b = a->bytes ? a->bytes : 4;
    double lanes = a->uniform ? 1 : subgroup;
    double sec = sector;
    *best = ceil_div(lanes * b, sec);
    if (a->uniform || !a->stride_known) {
        *got = *best;
        return;
    }
    double s = fabs((double)a->lane_stride_bytes);
    if (s == 0) {
        *got = ceil_div(b, sec);
        *best = *got;
        return;
    }
    double span = (lanes - 1) * s + b;
    double per_lane = ceil_div(b, sec) * lanes;
    *got = fmin(per_lane, ceil_div(span, sec));
    if (*got < *best)
        *got = *best;
}

/* Bank-conflict degree of one subgroup request to workgroup memory:
 * distinct 4-byte words per bank, vs the minimum for the bytes moved. */
double access_bank_degree(uint32_t banks, uint32_t subgroup,
                          const access_summary *a)
{
    /* the simulated requests' own passes (below 1 only for wide lanes that
     * share words across phases, shared_wide_broadcast) */
    if (banks && a->sim_bank_degree > 0 && a->sim_unknown <= 0)
        return a->sim_bank_degree;
    if (!banks || a->uniform || !a->stride_known)
        return 1;
    uint32_t nb = banks > 256 ? 256 : banks;
    uint32_t lanes = subgroup > 128 ? 128 : subgroup;
    int64_t s = a->lane_stride_bytes;
    uint32_t b = a->bytes ? a->bytes : 4;
    if (s > (INT64_C(1) << 40) || s < -(INT64_C(1) << 40))
        return 1; /* lanes far apart: no product below may overflow */
    uint32_t wpl = (b + 3) / 4; /* words per lane */
    if (wpl > 16)
        wpl = 16;
    /* words touched: lane * s / 4 + j; count distinct words per bank */
    int64_t words[128 * 16];
    uint32_t n = 0;
    for (uint32_t l = 0; l < lanes; l++)
        for (uint32_t j = 0; j < wpl; j++) {
            int64_t w = (int64_t)l * s / 4 + j;
            int dup = 0;
            for (uint32_t q = 0; q < n; q++)
                if (words[q] == w) {
                    dup = 1;
                    break;
                }
            if (!dup)
                words[n++] = w;
        }
    uint32_t per_bank[256] = {0};
    uint32_t worst = 0;
    for (uint32_t q = 0; q < n; q++) {
        uint32_t bank = (uint32_t)(((words[q] % nb) + nb) % nb);
        if (++per_bank[bank] > worst)
            worst = per_bank[bank];
    }
    double ideal = ceil((double)n / nb);
    return worst / (ideal > 0 ? ideal : 1);
}

static int rate_known(double r) { return r > 0 && isfinite(r); }

double l2_term_us(const device_profile *p, double bytes, double sector,
                  double l2_bpus, double partial, double open)
{
    double valid_rate = p->l2_partial_write_gops * 1e3; /* per us */
    double open_rate = p->l2_partial_stream_gops * 1e3;
    if (!rate_known(open_rate))
        open_rate = valid_rate;
    open = fmin(fmax(open, 0), partial);
    double priced_valid = rate_known(valid_rate) ? partial - open : 0;
    double priced_open = rate_known(open_rate) ? open : 0;
    double priced = fmin(priced_valid + priced_open, bytes / sector);
    if (priced <= 0)
        return bytes / l2_bpus;
    double scale = priced / (priced_valid + priced_open);
    return (bytes - priced * sector) / l2_bpus +
           scale * ((priced_valid > 0 ? priced_valid / valid_rate : 0) +
                    (priced_open > 0 ? priced_open / open_rate : 0));
}

double l2_runs_us(const device_profile *p, double requests)
{
    double rate = p->l2_store_run_gops * 1e3; /* per us */
    return rate_known(rate) && requests > 0 ? requests / rate : 0;
}

double l2_lines_us(const device_profile *p, double lines)
{
    double rate = p->l2_line_gops * 1e3; /* per us */
    return rate_known(rate) && lines > 0 ? lines / rate : 0;
}

double access_dram_footprint(const access_summary *a, double block)
{
    double bytes = a->bytes ? a->bytes : 4;
    double fb = a->footprint_bytes > 0 ? a->footprint_bytes : a->count * bytes;
    if (!(block > 0))
        return fb;
    if (!(a->span_bytes > 0))
        return fb; /* no index range: the distinct bytes alone */
    double up = a->count * ceil(bytes / block) * block;
    double span = ceil(a->span_bytes / block) * block;
    if (span < up)
        up = span;
    return up > fb ? up : fb;
}

double access_inflight_bytes(const access_summary *a, double sector, int level)
{
    double lane = a->sim_execs <= 0 ? (a->bytes ? a->bytes : 4)
                  : level == 1      ? a->sim_dram_bytes
                  : level == 2      ? a->sim_l1_sectors * sector
                                    : a->sim_l2_sectors * sector;
    double together = a->copies > a->sim_execs_per_request ? a->copies
                                                           : a->sim_execs_per_request;
    return lane * (together > 1 ? together : 1);
}
