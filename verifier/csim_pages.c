/* csim_pages.c - DRAM page openings of the cache model (csim_pages.h). */
#include "csim_pages.h"

#include <stdlib.h>
#include <string.h>

#include "u64map.h"

#define REUSE_BINS (CSIM_OPEN_PAGES + 1)
/* The sharing table stops growing here: 2 Mi slots of 12 B (8-byte key,
 * 4-byte bits) = 24 MiB, ~36 MiB at peak while the last rehash holds the
 * old 12 MiB table too; at half load that is 1 Mi pages.  A window that
 * touches more is sampled by its first pages, which a scattered access
 * spreads over as evenly as the rest. */
#define SHARING_MAX_SLOTS (1ull << 21)

struct csim_pages {
    uint64_t recent[CSIM_OPEN_PAGES]; /* page + 1 of the last openings */
    uint32_t last_by[CSIM_OPEN_PAGES]; /* the requester of its last touch */
    uint64_t stamp[CSIM_OPEN_PAGES];   /* touches so far at its last touch */
    uint64_t touches;                  /* transfers so far */
    uint32_t opened;                   /* openings so far */
    uint32_t ntags;
    double *reuse;      /* (ntags + 1) x REUSE_BINS: own re-touches by d */
    u64map sharing;     /* the window's demand-read pages: page -> the
                           requesters' bits (uint32_t) */
    double pairs;
};

csim_pages *csim_pages_new(uint32_t ntags)
{
    csim_pages *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->ntags = ntags;
    u64map_init(&p->sharing, sizeof(uint32_t), SHARING_MAX_SLOTS);
    p->reuse = calloc(((size_t)ntags + 1) * REUSE_BINS, sizeof *p->reuse);
    if (!p->reuse) {
        free(p);
        return NULL;
    }
    return p;
}

void csim_pages_free(csim_pages *p)
{
    if (!p)
        return;
    free(p->reuse);
    u64map_free(&p->sharing);
    free(p);
}

/* Counts the (page, requester) pair once (a page the full table has no
 * room for is not counted). */
static void note_sharing(csim_pages *p, uint64_t page, uint32_t bit)
{
    uint32_t *bits = u64map_get(&p->sharing, page, NULL);
    if (!bits)
        return;
    if (!(*bits & bit))
        p->pairs++;
    *bits |= bit;
}

int csim_pages_touch(csim_pages *p, uint64_t page, uint32_t by, uint32_t tag)
{
    uint64_t key = page + 1;
    if (by > CSIM_PAGES_EVICTION)
        by = CSIM_PAGES_EVICTION;
    if (by < CSIM_PAGES_EVICTION)
        note_sharing(p, page, 1u << by);
    int at = -1; /* without an early exit: the compiler vectorises it */
    for (int i = 0; i < CSIM_OPEN_PAGES; i++)
        at = p->recent[i] == key ? i : at;
    uint64_t now = ++p->touches;
    if (at < 0) {
        uint32_t i = p->opened++ % CSIM_OPEN_PAGES;
        p->recent[i] = key;
        p->last_by[i] = by;
        p->stamp[i] = now;
        return 1;
    }
    if (by < CSIM_PAGES_EVICTION && p->last_by[at] == by) {
        /* its stack distance: the open pages touched since it was */
        uint32_t d = 0;
        for (int i = 0; i < CSIM_OPEN_PAGES; i++)
            d += p->stamp[i] > p->stamp[at];
        size_t t = tag < p->ntags ? tag : p->ntags;
        p->reuse[t * REUSE_BINS + (d < REUSE_BINS ? d : REUSE_BINS - 1)] += 1;
    }
    p->last_by[at] = by;
    p->stamp[at] = now;
    return 0;
}

void csim_pages_forget(csim_pages *p)
{
    if (!p)
        return;
    for (int i = 0; i < CSIM_OPEN_PAGES; i++)
        p->last_by[i] = CSIM_PAGES_EVICTION;
    memset(p->reuse, 0, ((size_t)p->ntags + 1) * REUSE_BINS * sizeof *p->reuse);
    u64map_clear(&p->sharing);
    p->pairs = 0;
}

double csim_pages_reopened(const csim_pages *p, uint32_t tag, uint32_t window)
{
    if (!p || tag >= p->ntags)
        return 0;
    double n = 0;
    for (uint32_t d = window + 1; d < REUSE_BINS; d++)
        n += p->reuse[(size_t)tag * REUSE_BINS + d];
    return n;
}

double csim_pages_sharing(const csim_pages *p)
{
    return p && p->sharing.n ? p->pairs / (double)p->sharing.n : 1;
}
