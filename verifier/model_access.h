/* model_access.h - the static rules for one memory access of a subgroup.
 *
 * Contract: from an access's summary (verifier.h: bytes per lane, the
 * stride between neighbouring lanes, uniform or not) the sectors one
 * subgroup request touches against the fewest possible (coalescing), and
 * the bank-conflict degree of a workgroup-memory request (the simulated
 * requests' own degree when the simulation measured one, docs/model.md
 * section 3.2), and the L2 term's time with its partial-sector stores.
 * Pure functions of their arguments.
 */
#ifndef CW_MODEL_ACCESS_H
#define CW_MODEL_ACCESS_H

#include <stdint.h>

#include "profile.h"
#include "verifier.h"

/* Sectors (sector bytes each) touched by one request of subgroup lanes,
 * *got, and the minimum for its bytes, *best. */
void access_sectors(uint32_t subgroup, uint32_t sector,
                    const access_summary *a, double *got, double *best);

/* Passes of a workgroup-memory request over banks 4-byte banks against
 * the fewest its words need (1 = conflict-free; 1 without banks). */
double access_bank_degree(uint32_t banks, uint32_t subgroup,
                          const access_summary *a);

/* The L2 term's time, us: bytes requested at L2 at l2_bpus (bytes per
 * us), except the partial-sector stores (partial sectors of sector bytes,
 * of which open went into sectors L2 did not hold whole), which cost a
 * merge each: at the profile's l2_partial_write_gops, the open ones at
 * l2_partial_stream_gops where it is known.  Without a partial rate a
 * store is a sector at l2_bpus (docs/model.md section 4.2). */
double l2_term_us(const device_profile *p, double bytes, double sector,
                  double l2_bpus, double partial, double open);

/* The time, us, L2 takes to look up lines line requests (one per line a
 * request has sectors of at L2, cachesim.h l2_lines) at the profile's
 * l2_line_gops; 0 while that is unknown.  The L2 term is the larger of it
 * and l2_term_us: the rows that measure l2_gbs and l2_sector_gops (4
 * sectors a line) are reproduced by their own rates only when the line
 * lookups overlap the sector transfers (docs/model.md section 4.2). */
double l2_lines_us(const device_profile *p, double lines);

/* The most bytes DRAM can move for an access's footprint once, in blocks
 * of block bytes (what L2 fetches for a missed sector: a sector, or the
 * profile's l2_fetch_bytes): every execution in blocks of its own, at
 * most the blocks of its index span, at least its distinct bytes (those
 * alone when the span is unknown).  Reads
 * of a sector per line (a 4-byte lane every 128 B) touch 8 B of the
 * line's bytes but a 32-B sector of DRAM: that footprint, not the bytes,
 * says whether the data stays in L2 (docs/model.md section 3.1, "Per
 * binding"). */
double access_dram_footprint(const access_summary *a, double block);

/* The bytes one lane of a load puts in flight at once: its simulated
 * sectors at L2 per execution (level 1: its simulated DRAM bytes; level 2:
 * its sectors requested at L1) or else its bytes, times the copies the driver's full unrolling issues together
 * (access_summary.copies) or the executions a merged request serves
 * (sim_execs_per_request), the larger: eight unrolled loads of a float a
 * lane are 32 bytes in flight, the same load in a kept loop 4
 * (docs/model.md 4.1). */
double access_inflight_bytes(const access_summary *a, double sector, int level);

/* The L2 time of store requests that arrive as runs of an invocation's
 * adjacent scalar stores (each partial, the run completing its sectors):
 * requests / l2_store_run_gops; 0 when the rate is unknown.  A bound
 * taken with the line lookups (the l2 term is the larger). */
double l2_runs_us(const device_profile *p, double requests);

#endif
