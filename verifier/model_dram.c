/* model_dram.c - DRAM transfer time of a read/write mix (see model_dram.h). */
#include "model_dram.h"

#include <math.h>
#include <stdint.h>

static int known(double v) { return v > 0 && isfinite(v); }

/* The cost of opening a DRAM page, from calibrate's isolated random read
 * (a 4-byte read costing dram_random_read_bytes at the read bandwidth: the
 * block L2 fetches, a sector or l2_fetch_bytes, plus the opening) and
 * random store (dram_random_write_bytes at the copy bandwidth: a
 * read-modify-write of one sector each way, a read opening and a write
 * opening); dram_page_ns when those are unknown. */
static void resolve_pages(dram_rates *r, const device_profile *p,
                          double copy_bpus, double sec, double line)
{
    double rd = known(p->dram_read_gbs) ? p->dram_read_gbs * 1e3 : copy_bpus;
    r->page_read_us = r->page_write_us = 0;
    if (p->dram_random_read_bytes > sec) {
        /* the isolated read moved its fetch block, not just a sector */
        double fetch = dram_fetch_bytes(p, sec, line);
        double extra_r = fmax(0, p->dram_random_read_bytes - fetch);
        r->page_read_us = extra_r / rd;
        if (p->dram_random_write_bytes > 2 * sec + extra_r)
            r->page_write_us = (p->dram_random_write_bytes - 2 * sec -
                                extra_r) / copy_bpus;
    } else if (known(p->dram_page_ns)) {
        r->page_read_us = r->page_write_us = p->dram_page_ns * 1e-3;
    }
}

double dram_fetch_bytes(const device_profile *p, double sector, double line)
{
    double f = p->l2_fetch_bytes;
    if (!(sector > 0) || !known(f) || f <= sector || f > line)
        return sector;
    double q = f / sector;
    if (q != floor(q) || ((uint64_t)q & ((uint64_t)q - 1)))
        return sector;
    return f;
}

double dram_reopen_weight(const device_profile *p, double sector, double line)
{
    double fetch = dram_fetch_bytes(p, sector, line);
    double walk = p->dram_walk_fetch_bytes, rnd = p->dram_random_read_bytes;
    if (!known(walk) || !known(rnd) || walk <= fetch || rnd <= fetch)
        return 1;
    return (walk - fetch) / (rnd - fetch);
}

void dram_rates_resolve(dram_rates *r, const device_profile *p,
                        double copy_bpus, double sector, double line)
{
    r->read_bpus = r->write_bpus = copy_bpus;
    r->turn_us_per_byte = 0;
    if (known(p->dram_read_gbs) && known(p->dram_write_gbs)) {
        r->read_bpus = p->dram_read_gbs * 1e3;
        r->write_bpus = p->dram_write_gbs * 1e3;
        double turn = 2 / copy_bpus - 1 / r->read_bpus - 1 / r->write_bpus;
        r->turn_us_per_byte = turn > 0 ? turn : 0;
    }
    resolve_pages(r, p, copy_bpus, sector, line);
}

double dram_transfer_us(const dram_rates *r, double read_bytes,
                        double write_bytes, double read_pages,
                        double write_pages)
{
    double rb = read_bytes > 0 ? read_bytes : 0;
    double wb = write_bytes > 0 ? write_bytes : 0;
    return rb / r->read_bpus + wb / r->write_bpus +
           fmin(rb, wb) * r->turn_us_per_byte +
           read_pages * r->page_read_us + write_pages * r->page_write_us;
}
