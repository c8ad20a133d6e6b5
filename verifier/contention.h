/* contention.h - atomics serialise per address.
 *
 * Contract: a ct_table counts atomic requests per address from subgroup
 * atomic instructions (the lanes' addresses of one instruction), combining
 * the lanes of one instruction that hit the same address into one request
 * only when told the hardware does (profile atomic_combine /
 * atomic_shared_combine).  It remembers how many distinct sampled
 * workgroups touched each address, so that ct_dispatch_busiest() can scale
 * the busiest address from the sampled workgroups to the dispatch: an
 * address touched by several sampled groups is shared by the same fraction
 * of all groups; one touched by a single group is that group's own.
 * ct_time_us() is the contention term.  Pure: no I/O.
 */
#ifndef CW_CONTENTION_H
#define CW_CONTENTION_H

#include <stdint.h>

typedef struct ct_table ct_table;

typedef struct ct_busiest {
    uint64_t addr;           /* the busiest address */
    double requests;         /* requests on it in the sample */
    uint32_t groups;         /* sampled workgroups that touched it */
    double total_requests;   /* all requests in the sample */
    double addresses;        /* distinct addresses in the sample */
} ct_busiest;

ct_table *ct_new(void);
void ct_free(ct_table *t);
/* One atomic instruction of one subgroup in workgroup `group`, counted per
 * `granule`-byte block (0 or 1: per byte address, as the model counts
 * them; the line-level queueing is ct_slice_request's): every distinct
 * address of the instruction is one operation on its block, and lanes on
 * the same address are one operation only when combine is set. */
void ct_request(ct_table *t, uint32_t group, const uint64_t *addr, uint32_t n,
                int combine, uint32_t granule);
ct_busiest ct_get(const ct_table *t);

/* The L2 atomic unit's costs (profile fields in parentheses). */
typedef struct ct_unit_costs {
    uint32_t line_bytes;   /* a line (atomic_unit_bytes) */
    uint32_t slice_bytes;  /* lines of one such block queue at one unit
                              (atomic_slice_bytes) */
    uint32_t sector_bytes; /* the unit updates one sector a pass */
    uint32_t queues;       /* the block's lines alternate between this many
                              queues by line address (atomic_unit_queues;
                              0: one) */
    double request_ns;     /* per line an instruction touches
                              (atomic_request_ns) */
    double pass_ns;        /* per sector pass: (sector_bytes / 4) x
                              atomic_line_ns, a coalesced line being one
                              pass per sector */
    int combine;           /* an instruction whose lanes all hit one word
                              is one lane (atomic_combine: the compiler
                              aggregates a uniform address) */
} ct_unit_costs;

/* One instruction priced at the L2 atomic unit of each slice_bytes block
 * it touches (H200 probes: the lines of 1 KiB hashed are one unit).  The
 * unit updates a sector a pass, one lane per word a pass: a sector takes
 * as many passes as the most lanes on one of its words (lanes colliding
 * on a word need one pass each, distinct words of a sector share one).
 * With combine, lanes all on one word are one lane.
 * Per block the instruction adds request_ns per line it touches there to
 * the unit's front, and pass_ns per sector pass to the queue of its line
 * (line i of the block goes to queue i mod queues).  The front takes the
 * requests one after another; the queues drain side by side, across
 * instructions too (la_flush: 8 lines flushed by whole-line instructions
 * alternate between the 2 queues).  The table then holds per block its
 * front plus its busiest queue, ns: ct_get() names the busiest block,
 * total_requests the work over all.  Returns the instruction's sector
 * passes. */
uint32_t ct_slice_request(ct_table *t, uint32_t group, const uint64_t *addr,
                          uint32_t n, const ct_unit_costs *c);

/* Workgroup-memory bank passes of one instruction: the most distinct words
 * any one of `banks` banks (`word` bytes wide) holds among the lanes'
 * addresses (1 = conflict-free; lanes on one word are one word here, the
 * same-address term prices them).  *distinct gets the distinct words. */
uint32_t ct_bank_passes(const uint64_t *addr, uint32_t n, uint32_t banks,
                        uint32_t word, uint32_t *distinct);

/* Requests on the busiest address over the whole dispatch of `groups`
 * workgroups, from a sample of `sampled` workgroups. */
double ct_dispatch_busiest(const ct_busiest *b, double sampled, double groups);

/* max(requests / distinct-address rate, busiest x same-address cost), µs:
 * requests spread over many addresses go at the distinct-address
 * throughput; those on one address follow each other. */
double ct_time_us(double requests, double busiest, double same_ns,
                  double distinct_gops);

#endif
