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
/* One atomic instruction of one subgroup in workgroup `group`. */
void ct_request(ct_table *t, uint32_t group, const uint64_t *addr, uint32_t n,
                int combine);
ct_busiest ct_get(const ct_table *t);

/* Requests on the busiest address over the whole dispatch of `groups`
 * workgroups, from a sample of `sampled` workgroups. */
double ct_dispatch_busiest(const ct_busiest *b, double sampled, double groups);

/* max(requests / distinct-address rate, busiest x same-address cost), µs:
 * requests spread over many addresses go at the distinct-address
 * throughput; those on one address follow each other. */
double ct_time_us(double requests, double busiest, double same_ns,
                  double distinct_gops);

#endif
