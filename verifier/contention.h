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
/* One atomic instruction of one subgroup in workgroup `group`.  The unit
 * that serialises is a `granule`-byte block (the L2 line on NVIDIA: its
 * atomic unit works on one line at a time; 1 = per byte address): every
 * distinct address of the instruction is one operation on its block, and
 * lanes on the same address are one operation only when combine is set. */
void ct_request(ct_table *t, uint32_t group, const uint64_t *addr, uint32_t n,
                int combine, uint32_t granule);
ct_busiest ct_get(const ct_table *t);

/* The L2 atomic unit's costs (profile fields in parentheses). */
typedef struct ct_unit_costs {
    uint32_t line_bytes;  /* a request's block (atomic_unit_bytes) */
    uint32_t slice_bytes; /* lines of one such block queue at one unit
                             (atomic_slice_bytes) */
    double request_ns;    /* per line an instruction touches
                             (atomic_request_ns) */
    double word_ns;       /* per distinct word with one lane, hashed
                             lanes (atomic_word_ns) */
    double vector_ns;     /* per word, coalesced lanes (atomic_line_ns) */
    double collide_ns;    /* per distinct word two or more lanes of the
                             instruction share (atomic_collide_ns); <= 0:
                             priced as word_ns */
} ct_unit_costs;

/* The same instruction priced at the L2 atomic unit that queues every line
 * of a slice_bytes block (H200 probes: 8 lines of 1 KiB hashed are one
 * queue).  The instruction adds to each block request_ns per line it
 * touches there, plus per distinct word: vector_ns when the lanes are
 * coalesced (lane i on the word after lane i-1's: one vector operation per
 * line), collide_ns for a word two or more of its lanes share (the unit
 * merges their updates first), word_ns for the other words (hashed lanes,
 * one each: the unit takes the words one by one).  The table then holds ns
 * of work per block: ct_get() names the busiest block, total_requests the
 * work over all.  Returns the number of colliding words priced (so that a
 * caller pricing them without collide_ns can say so). */
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
