/* model_dram.h - the DRAM transfer time of a kernel's traffic.
 *
 * Contract: from the device profile's three streaming bandwidths (reads
 * alone, writes alone, a 50/50 copy) and its random-access costs, the time
 * DRAM needs to move a given number of read and written bytes and to open
 * the pages the simulation counted.  Pure functions, no I/O.
 *
 * Model (docs/model.md section 4.1a):
 *   time = R / read_bw + W / write_bw + min(R, W) x turnaround
 *        + read pages x page_read + write pages x page_write
 * where turnaround, the cost per byte of the smaller direction of
 * switching the bus between reads and writes, is what the copy probe
 * (R = W) takes beyond its reads and writes at their own rates:
 *   turnaround = 2 / copy_bw - 1 / read_bw - 1 / write_bw   (>= 0).
 * A 50/50 kernel therefore moves at copy_bw, a read-only one at read_bw.
 * When read_bw or write_bw is unknown, every byte goes at copy_bw.
 */
#ifndef CW_MODEL_DRAM_H
#define CW_MODEL_DRAM_H

#include "profile.h"

typedef struct dram_rates {
    double read_bpus;        /* bytes per µs, reads alone */
    double write_bpus;       /* bytes per µs, writes alone */
    double turn_us_per_byte; /* per byte of the smaller direction */
    double page_read_us;     /* what opening a page adds to a read */
    double page_write_us;    /* ... to a write-back */
} dram_rates;

/* The block L2 reads from DRAM for one missed sector: the profile's
 * l2_fetch_bytes when it is a power of two from sector to line bytes,
 * else the sector (unknown: the term is off). */
double dram_fetch_bytes(const device_profile *p, double sector, double line);

/* What a page the device's other rows closed costs a read (a per-lane
 * row walk's fetch, calibrate `dram row walk`: dram_walk_fetch_bytes less
 * the fetch block), as a multiple of a read page opening (the isolated
 * random read's: dram_random_read_bytes less the block); 1 when either is
 * unknown or not above the block. */
double dram_reopen_weight(const device_profile *p, double sector, double line);

/* copy_bpus: the resolved copy bandwidth (bytes/µs, > 0); sector and
 * line: the resolved sector and line bytes (the profile's, or the model's
 * assumptions).  A page opening of a read costs what calibrate's isolated
 * random read took beyond the block it fetched (dram_fetch_bytes). */
void dram_rates_resolve(dram_rates *r, const device_profile *p,
                        double copy_bpus, double sector, double line);

/* µs to move read_bytes and write_bytes and open the pages. */
double dram_transfer_us(const dram_rates *r, double read_bytes,
                        double write_bytes, double read_pages,
                        double write_pages);

#endif
