/* cachesim.h - a sector-level cache model: per-unit L1s, one L2, DRAM.
 *
 * Contract: a cachesim is fed one subgroup request at a time (the lanes'
 * byte addresses and sizes, one operation for the whole request) and counts
 * the sectors that move between the levels and the bytes that DRAM reads
 * and writes.  It is a pure data structure: no I/O, no knowledge of SPIR-V
 * or of the device beyond csim_config.  Every count is also kept per `tag`
 * (the caller's static access index) so that traffic can be attributed to
 * the instruction that caused it.
 *
 * Model (docs/model.md, "Simulated traffic"):
 *   - a request is coalesced first: the lanes' bytes are mapped onto
 *     sectors of lines; each distinct sector is requested once;
 *   - L1 (one per unit, chosen by the caller) and L2 are set-associative
 *     with LRU replacement, sectored: a line is allocated as a whole, its
 *     sectors are filled (and written) one by one; the set index is a hash
 *     of the line address (real GPUs hash their set mapping; a plain modulo
 *     would make power-of-two strides conflict where the hardware does
 *     not);
 *   - loads: L1 hit sectors stop there, misses go to L2, L2 misses read
 *     their sectors from DRAM and fill both levels; with fetch_sectors F
 *     > 1 an L2 miss reads the aligned block of F sectors around each
 *     missed sector from DRAM (the whole block is counted: DRAM moves the
 *     burst, whatever of it L2 already held), all of them valid in L2
 *     after (a one-sector-per-line stream moves F sectors a line);
 *   - stores, write-through L1 (NVIDIA): counted at L1 (they pass its
 *     pipeline) and sent to L2 without allocating in L1; L2 allocates
 *     without fetching (byte-masked writes) and marks the sectors dirty;
 *     a dirty sector costs one sector of DRAM write when it is evicted or
 *     flushed, however many stores wrote it (write merging);
 *   - stores, write-back L1 (CPUs): write-allocate in L1 (missing sectors
 *     fetched from L2), dirty sectors written to L2 when evicted;
 *   - atomics are performed at L2: they read the sector (DRAM on a miss) and
 *     leave it dirty; they do not allocate in L1;
 *   - with partial_write_fill, a dirty sector that leaves L2 with only some
 *     of its bytes written (and never read) is read from DRAM and merged
 *     first (read-modify-write for an ECC computed per sector); stores
 *     that complete the sector while it is in L2 avoid it;
 *   - DRAM pages (csim_pages.h): a transfer (fill or write-back) to a
 *     page none of the last CSIM_OPEN_PAGES openings touched opens it (a
 *     row activation),
 *     counted in dram_pages: streams open a page per page, scattered
 *     sectors one per sector; the whole sectors beyond the first that a
 *     page-opening write-back writes are counted too
 *     (dram_write_page_sectors: the opening overlaps their transfer);
 *   - a store writing part of a sector counts in l2_partial_sectors, and
 *     in l2_partial_open too when L2 does not hold that sector whole (not
 *     read from DRAM, not yet completed by earlier stores); a run's
 *     request (csim_request_run) counts each member store that writes
 *     into a sector the run leaves partial;
 *   - L1 lookup cycles: a request's lines are served one a cycle, or with
 *     l1_line_groups = G > 1 one line in each of G equal parts of the line
 *     a cycle (lines whose touched sectors lie in different parts share a
 *     cycle; a line spanning several parts takes a slot in each), so a
 *     request costs the most lines any one part holds (l1_slots), and a
 *     load at least the lines it misses in L1 (the miss path, one a
 *     cycle);
 * Not modelled: MSHR merging of concurrent misses in time, bank conflicts
 * in the caches, prefetching, the TLB.
 */
#ifndef CW_CACHESIM_H
#define CW_CACHESIM_H

#include <stdint.h>

#include "csim_pages.h"

typedef struct csim_config {
    uint32_t sector_bytes;   /* power of two, >= 4 */
    uint32_t line_bytes;     /* power of two, multiple of sector, <= 64 sectors */
    uint64_t l1_bytes;       /* per L1 instance; 0: no L1 */
    uint32_t l1_ways;        /* >= 1 */
    int l1_write_back;       /* 0 write-through without allocate, 1 write-back */
    uint64_t l2_bytes;       /* >= one line */
    uint32_t l2_ways;        /* >= 1 */
    uint32_t dram_page_bytes;/* DRAM page (row) size; 0: pages not tracked */
    int partial_write_fill;  /* a sector written only in part reads the
                                rest from DRAM when it leaves L2 (ECC
                                computed per sector) */
    uint32_t l1_line_groups; /* the L1 serves, per lookup cycle, one line
                                in each of this many equal parts of the
                                line (a power of two, at most the sectors
                                of a line); 0 or 1: one line a cycle */
    uint32_t fetch_sectors;  /* an L2 read miss fetches from DRAM the
                                aligned block of this many sectors around
                                each missed sector (a power of two, at most
                                a line; the profile's l2_fetch_bytes); the
                                block's other sectors become valid; 0 or
                                1: the missed sectors alone */
} csim_config;

typedef enum { CSIM_LOAD = 0, CSIM_STORE, CSIM_ATOMIC } csim_op;


/* Traffic, in sectors unless named bytes. */
typedef struct csim_stats {
    double requests;         /* subgroup requests */
    double lane_bytes;       /* bytes the lanes asked for */
    double l1_sectors;       /* sectors requested at L1 (after coalescing) */
    double l1_lines;         /* distinct lines per request, summed: the L1
                                looks up one line per cycle (a request
                                touching 32 lines takes 32 cycles) */
    double l1_slots;         /* the L1 cycles the requests take: per
                                request the most lines whose touched
                                sectors fall in one part of the line
                                (l1_line_groups); = l1_lines with one part */
    double l1_hit_sectors;
    double l2_sectors;       /* sectors requested at L2 (L1 misses, stores,
                                atomics, write-backs) */
    double l2_lines;         /* loads' line requests at L2: one per line
                                an L1 misses (whatever its sectors),
                                except a line the same L1 fetched last
                                (a re-fetch of its own) */
    double l2_hit_sectors;
    double l2_partial_sectors; /* of l2_sectors, stores that write only
                                  part of a sector (the L2 merges them
                                  into the sector: read, merge, write) */
    double l2_partial_open;  /* of those, into a sector L2 does not hold
                                whole (never read, not yet completed by
                                stores): the sector is being assembled */
    double dram_read_bytes;
    double dram_write_bytes;
    double dram_pages;       /* DRAM reads that open a page (row): no
                                transfer to that page among the last
                                CSIM_OPEN_PAGES */
    double dram_write_pages; /* the same for DRAM writes */
    double dram_write_page_sectors; /* whole sectors beyond the first
                                       that the write-backs opening those
                                       pages write (no read-modify-write) */
    double dram_rmw_sectors; /* partly written sectors read before their
                                write-back (read-modify-write) */
} csim_stats;

typedef struct cachesim cachesim;

/* nl1 L1 instances (one per unit in the sample), ntags attribution slots.
 * Returns NULL on an invalid configuration or out of memory. */
cachesim *csim_new(const csim_config *cfg, uint32_t nl1, uint32_t ntags);
void csim_free(cachesim *s);

/* One subgroup request: n lanes, lane i touching size[i] bytes at addr[i].
 * l1 selects the unit's L1 (ignored when the config has none); tag (<
 * ntags) receives the attribution. */
void csim_request(cachesim *s, uint32_t l1, csim_op op, const uint64_t *addr,
                const uint32_t *size, uint32_t n, uint32_t tag);

/* The same for a run of `members` (<= 8) adjacent store instructions sent
 * as one request (eval_merge.h: the compiler issues them apart): member k
 * writes member[k * n + i] bytes of lane i, the members one after another
 * from addr[i] (their sum is size[i]).  Traffic is the request's, but a
 * sector that the request leaves partly written takes one partial store
 * (and one sector at L2) from each member that writes into it.  member
 * NULL or members < 2: csim_request. */
void csim_request_run(cachesim *s, uint32_t l1, csim_op op, const uint64_t *addr,
                      const uint32_t *size, uint32_t n, uint32_t tag,
                      const uint32_t *member, uint32_t members);

/* Writes back every dirty line (end of the kernel) and empties the caches. */
void csim_flush(cachesim *s);

/* Keeps what L2 holds and forgets the rest: the counts so far, the L1s'
 * contents and L2's dirty state (its lines count as written back; a
 * sector written in part stays partly written).  What earlier groups left in L2 for the next ones to
 * reuse, without their own traffic. */
void csim_forget_counts(cachesim *s);

/* Totals, and the share of one tag (zeros for an out-of-range tag). */
csim_stats csim_total(const cachesim *s);
csim_stats csim_tag(const cachesim *s, uint32_t tag);

/* Demand reads of tag whose DRAM page's last touch was their own group's,
 * with more than `window` other open pages touched since: the pages the
 * device's other groups close in between when a group's page outlasts
 * only `window` of its own (csim_pages.h). */
double csim_reopened_pages(const cachesim *s, uint32_t tag, uint32_t window);

/* The groups that touch each DRAM page the demand reads open, on average
 * over the sample since its start or csim_forget_counts (csim_pages.h). */
double csim_page_sharing(const cachesim *s);

#endif
