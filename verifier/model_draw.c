/* model_draw.c - addresses drawn from an index's range (model_draw.h). */
#include "model_draw.h"

#include <stdlib.h>
#include <string.h>

#define DRAW_UNSIZED_MAX (1u << 20) /* widest span drawn without an extent */

int draw_init(draw_state *d, uint32_t nacc, uint32_t lanes, uint32_t slots)
{
    memset(d, 0, sizeof *d);
    d->execs = calloc(nacc ? nacc : 1, sizeof *d->execs);
    if (!d->execs)
        return -1;
    d->nacc = nacc;
    d->lanes = lanes ? lanes : 1;
    d->slots = slots ? slots : 1;
    return 0;
}

void draw_window(draw_state *d)
{
    for (uint32_t i = 0; d->execs && i < d->nacc; i++)
        if (d->execs[i])
            memset(d->execs[i], 0, (size_t)d->lanes * d->slots * sizeof **d->execs);
}

void draw_free(draw_state *d)
{
    for (uint32_t i = 0; d->execs && i < d->nacc; i++)
        free(d->execs[i]);
    free(d->execs);
    memset(d, 0, sizeof *d);
}

static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* How many times this invocation has executed access acc in the group,
 * counting this one; warming groups and lanes past the table use the
 * access's sequence number instead (their draws need not agree). */
static uint64_t execution(draw_state *d, const eval_access *a, uint32_t acc,
                          uint32_t slot, int warming)
{
    if (warming || acc >= d->nacc || slot >= d->slots || a->invocation >= d->lanes)
        return a->seq | 1ull << 63;
    if (!d->execs[acc]) {
        d->execs[acc] = calloc((size_t)d->lanes * d->slots, sizeof **d->execs);
        if (!d->execs[acc])
            return a->seq | 1ull << 63;
    }
    return d->execs[acc][(size_t)slot * d->lanes + a->invocation]++;
}

int draw_offset(draw_state *d, const eval_access *a, uint32_t acc,
                uint32_t slot, uint64_t extent, int warming, int64_t *off)
{
    if (!d->execs || a->offset < 0 || a->offset_hi <= a->offset)
        return 0;
    uint64_t size = a->size ? a->size : 4;
    uint64_t lo = (uint64_t)a->offset, hi = (uint64_t)a->offset_hi;
    if (extent) {
        if (extent < size || lo > extent - size)
            return 0;
        if (hi > extent - size)
            hi = extent - size;
    } else if (hi - lo > DRAW_UNSIZED_MAX) {
        return 0;
    }
    uint64_t width = hi - lo;
    uint64_t n = execution(d, a, acc, slot, warming);
    uint64_t group = a->workgroup[0] ^ (uint64_t)a->workgroup[1] << 21 ^
                     (uint64_t)a->workgroup[2] << 42;
    uint64_t h = mix(group);
    h = mix(h ^ a->invocation);
    h = mix(h ^ n);
    h = mix(h ^ ((uint64_t)a->set << 32 | a->binding));
    h = mix(h ^ width);
    /* a 4-byte word of the span, then down to the access's alignment */
    uint64_t words = width / 4 + 1;
    uint64_t pick = (h % words) * 4;
    pick -= pick % size;
    *off = (int64_t)(lo + pick);
    return 1;
}
