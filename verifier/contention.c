/* contention.c - per-address atomic request counts (see contention.h). */
#include "contention.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "u64map.h"

enum { CT_MAX_LANES = 128, CT_MAX_QUEUES = 8 };

/* The value of an address (or an L2 unit's block) in the table. */
typedef struct ct_slot {
    double requests;
    uint32_t groups;
    uint32_t last_group;
    uint32_t unit;    /* 1 + its entry in units (slice tables); 0: none */
} ct_slot;

/* An L2 atomic unit's work over the stream (ct_slice_request): the line
 * requests pass its front one after another; the queues drain side by
 * side, so the unit's time is the front plus its busiest queue. */
typedef struct ct_unit_work {
    double front_ns;
    double queue_ns[CT_MAX_QUEUES];
} ct_unit_work;

struct ct_table {
    u64map slots;     /* address -> ct_slot */
    double total;
    ct_unit_work *units;
    size_t nunits, capunits;
};

ct_table *ct_new(void)
{
    ct_table *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    u64map_init(&t->slots, sizeof(ct_slot), 0);
    return t;
}

void ct_free(ct_table *t)
{
    if (!t)
        return;
    u64map_free(&t->slots);
    free(t->units);
    free(t);
}

/* addr's slot, its groups counted; NULL when out of memory */
static ct_slot *touch(ct_table *t, uint32_t group, uint64_t addr)
{
    int created;
    ct_slot *e = u64map_get(&t->slots, addr, &created);
    if (!e)
        return NULL; /* out of memory: the count is lost, not the process */
    if (created) {
        e->last_group = group;
        e->groups = 1;
    } else if (e->last_group != group) {
        e->last_group = group;
        e->groups++;
    }
    return e;
}

static void bump(ct_table *t, uint32_t group, uint64_t addr, double v)
{
    ct_slot *e = touch(t, group, addr);
    if (!e)
        return;
    e->requests += v;
    t->total += v;
}

/* One instruction's work at the unit of block `addr`: its line requests
 * at the front, each queue's passes on that queue.  The block's requests
 * become front + busiest queue over everything it was given so far. */
static void bump_unit(ct_table *t, uint32_t group, uint64_t addr,
                      double front_ns, const double *queue_ns,
                      uint32_t queues)
{
    ct_slot *e = touch(t, group, addr);
    if (!e)
        return;
    if (!e->unit) {
        if (t->nunits == t->capunits) {
            size_t nc = t->capunits ? 2 * t->capunits : 64;
            ct_unit_work *nu = realloc(t->units, nc * sizeof *nu);
            if (!nu)
                return;
            t->units = nu;
            t->capunits = nc;
        }
        memset(&t->units[t->nunits], 0, sizeof t->units[0]);
        e->unit = (uint32_t)++t->nunits;
    }
    ct_unit_work *u = &t->units[e->unit - 1];
    u->front_ns += front_ns;
    double most = 0;
    for (uint32_t q = 0; q < CT_MAX_QUEUES; q++) {
        if (q < queues)
            u->queue_ns[q] += queue_ns[q];
        most = fmax(most, u->queue_ns[q]);
    }
    double v = u->front_ns + most;
    t->total += v - e->requests;
    e->requests = v;
}

void ct_request(ct_table *t, uint32_t group, const uint64_t *addr, uint32_t n,
                int combine, uint32_t granule)
{
    if (!t)
        return;
    if (!granule)
        granule = 1;
    for (uint32_t i = 0; i < n; i++) {
        if (combine) {
            int dup = 0;
            for (uint32_t j = 0; j < i && !dup; j++)
                dup = addr[j] == addr[i];
            if (dup)
                continue;
        }
        bump(t, group, addr[i] / granule * granule, 1);
    }
}

/* lane i's word (or, with granule = a line, its line) appeared before */
static int seen_before(const uint64_t *addr, uint32_t i, uint64_t granule)
{
    for (uint32_t j = 0; j < i; j++)
        if (addr[j] / granule == addr[i] / granule)
            return 1;
    return 0;
}

/* lanes after lane i on lane i's word */
static uint32_t later_on_word(const uint64_t *addr, uint32_t i, uint32_t n)
{
    uint32_t k = 0;
    for (uint32_t j = i + 1; j < n; j++)
        k += addr[j] == addr[i];
    return k;
}

typedef struct ct_block_work {
    uint64_t block;
    uint32_t lines;
    uint32_t passes[CT_MAX_QUEUES];
} ct_block_work;

uint32_t ct_slice_request(ct_table *t, uint32_t group, const uint64_t *addr,
                          uint32_t n, const ct_unit_costs *c)
{
    if (!t || !n || !c || !c->slice_bytes)
        return 0;
    if (n > CT_MAX_LANES)
        n = CT_MAX_LANES;
    uint64_t line = c->line_bytes ? c->line_bytes : 1;
    uint64_t sector = c->sector_bytes ? c->sector_bytes : line;
    uint32_t queues = c->queues ? c->queues : 1;
    if (queues > CT_MAX_QUEUES)
        queues = CT_MAX_QUEUES;
    /* passes per sector: the most lanes on one of its words */
    int uniform = 1;
    for (uint32_t i = 1; i < n && uniform; i++)
        uniform = addr[i] == addr[0];
    if (uniform && c->combine)
        n = 1; /* aggregated to one lane before it leaves the unit */
    uint64_t sec[CT_MAX_LANES];
    uint32_t sec_passes[CT_MAX_LANES], nsec = 0, total = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (seen_before(addr, i, 1))
            continue; /* the word was counted with its first lane */
        uint32_t lanes = 1 + later_on_word(addr, i, n);
        uint64_t s = addr[i] / sector;
        uint32_t k = 0;
        while (k < nsec && sec[k] != s)
            k++;
        if (k == nsec) {
            sec[nsec] = s;
            sec_passes[nsec++] = 0;
        }
        if (lanes > sec_passes[k])
            sec_passes[k] = lanes;
    }
    /* per block: lines touched, passes per queue */
    ct_block_work w[CT_MAX_LANES];
    uint32_t nw = 0;
    for (uint32_t k = 0; k < nsec; k++) {
        uint64_t ln = sec[k] * sector / line;
        uint64_t block = ln * line / c->slice_bytes;
        uint32_t b = 0;
        while (b < nw && w[b].block != block)
            b++;
        if (b == nw) {
            memset(&w[nw], 0, sizeof w[nw]);
            w[nw++].block = block;
        }
        int new_line = 1;
        for (uint32_t q = 0; q < k && new_line; q++)
            new_line = sec[q] * sector / line != ln;
        w[b].lines += new_line;
        w[b].passes[ln % queues] += sec_passes[k];
        total += sec_passes[k];
    }
    for (uint32_t b = 0; b < nw; b++) {
        double queue_ns[CT_MAX_QUEUES];
        for (uint32_t q = 0; q < queues; q++)
            queue_ns[q] = w[b].passes[q] * c->pass_ns;
        bump_unit(t, group, w[b].block * c->slice_bytes,
                  w[b].lines * c->request_ns, queue_ns, queues);
    }
    return total;
}

uint32_t ct_bank_passes(const uint64_t *addr, uint32_t n, uint32_t banks,
                        uint32_t word, uint32_t *distinct)
{
    enum { MAX_LANES = 128 };
    uint64_t first[MAX_LANES]; /* distinct words, in lane order */
    uint32_t words = 0, most = 0;
    if (!banks)
        banks = 1;
    if (!word)
        word = 4;
    for (uint32_t i = 0; i < n && words < MAX_LANES; i++) {
        uint32_t j = 0;
        while (j < words && first[j] != addr[i])
            j++;
        if (j == words)
            first[words++] = addr[i];
    }
    for (uint32_t i = 0; i < words; i++) {
        uint32_t in_bank = 0;
        for (uint32_t j = 0; j < words; j++)
            in_bank += first[j] / word % banks == first[i] / word % banks;
        if (in_bank > most)
            most = in_bank;
    }
    if (distinct)
        *distinct = words;
    return most;
}

ct_busiest ct_get(const ct_table *t)
{
    ct_busiest b;
    memset(&b, 0, sizeof b);
    if (!t)
        return b;
    const u64map *m = &t->slots;
    for (size_t i = 0; i < m->cap; i++) {
        const ct_slot *e = u64map_used(m, i) ? u64map_val(m, i) : NULL;
        if (e && e->requests > b.requests) {
            b.addr = u64map_key(m, i);
            b.requests = e->requests;
            b.groups = e->groups;
        }
    }
    b.total_requests = t->total;
    b.addresses = (double)m->n;
    return b;
}

double ct_dispatch_busiest(const ct_busiest *b, double sampled, double groups)
{
    if (!b || b->requests <= 0 || b->groups == 0)
        return 0;
    double per_group = b->requests / b->groups;
    if (b->groups < 2 || sampled < 2)
        return b->requests; /* one group's own address */
    double touching = b->groups / sampled * groups;
    if (touching < b->groups)
        touching = b->groups;
    return per_group * touching;
}

double ct_time_us(double requests, double busiest, double same_ns,
                  double distinct_gops)
{
    double spread = distinct_gops > 0 ? requests / (distinct_gops * 1e3) : 0;
    double serial = busiest * same_ns * 1e-3;
    double t = fmax(spread, serial);
    return isfinite(t) ? t : 0;
}
