/* bufinit.c - buffer contents from a plan's "init".  Contract in bufinit.h. */
#include "bufinit.h"
#include "input.h"
#include "half.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

uint64_t bufinit_rng(uint64_t *s)
{
    /* splitmix64 */
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

uint64_t bufinit_seed(uint64_t seed, uint32_t set, uint32_t binding)
{
    return seed ^ ((uint64_t)set << 32 | binding) * 0x2545f4914f6cdd1dull;
}

int bufinit_given(const plan_buffer *b)
{
    return b && b->init != PLAN_INIT_RANDOM;
}

/* Stores v as element i of type e (e.bytes != 0). */
static void put(uint8_t *p, uint64_t i, bufinit_elem e, double v)
{
    uint8_t *d = p + i * e.bytes;
    if (e.is_bool) {
        uint32_t x = v != 0;
        memcpy(d, &x, 4);
    } else if (e.is_float) {
        if (e.bytes == 2) {
            uint16_t x = cw_float_to_half((float)v);
            memcpy(d, &x, 2);
        } else if (e.bytes == 8) {
            memcpy(d, &v, 8);
        } else {
            float x = (float)v;
            memcpy(d, &x, 4);
        }
    } else {
        /* integers: through a 64-bit integer, truncated to the width */
        int64_t x = v < -9.2e18 ? INT64_MIN : v > 9.2e18 ? INT64_MAX : (int64_t)v;
        if (!e.is_signed && v >= 9.2e18)
            x = -1;
        memcpy(d, &x, e.bytes); /* little-endian host */
    }
}

static double random_value(uint64_t *s, bufinit_elem e)
{
    uint64_t r = bufinit_rng(s);
    if (e.is_float)
        return (double)(r >> 40) / (double)(1 << 23) - 1.0;
    if (e.is_bool)
        return (double)(r & 1);
    if (e.is_signed)
        return (double)(int)(r % 17) - 8.0;
    return (double)(r % 16);
}

static void put_value(uint8_t *dst, uint64_t i, bufinit_elem e, const plan_value *pv)
{
    if (e.bytes) {
        if (pv->is_integer && !e.is_float)
            put(dst, i, e, (double)pv->ivalue);
        else
            put(dst, i, e, pv->value);
        return;
    }
    /* untyped: 32-bit words */
    bufinit_elem w = {4, (uint8_t)!pv->is_integer, (uint8_t)(pv->is_integer && pv->ivalue < 0), 0};
    if (pv->is_integer) {
        uint32_t x = (uint32_t)pv->ivalue;
        memcpy(dst + 4 * i, &x, 4);
    } else {
        put(dst, i, w, pv->value);
    }
}

static int fill_file(uint8_t *dst, uint64_t bytes, const plan_buffer *b, cw_error *err)
{
    /* opened as every user input is: a FIFO or a directory never blocks */
    FILE *f;
    if (cw_open_input(b->init_file, "init file", 1, &f, err))
        return -1;
    size_t got = fread(dst, 1, (size_t)bytes, f);
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        cw_error_set(err, b->init_file, 0, 0, "cannot read init file: read error");
        return -1;
    }
    memset(dst + got, 0, (size_t)(bytes - got));
    return 0;
}

int bufinit_fill(uint8_t *dst, uint64_t bytes, bufinit_elem e, const plan_buffer *b,
                 uint64_t seed, cw_error *err)
{
    plan_init init = b ? b->init : PLAN_INIT_RANDOM;
    if (init == PLAN_INIT_ZERO) {
        memset(dst, 0, (size_t)bytes);
        return 0;
    }
    if (init == PLAN_INIT_FILE)
        return fill_file(dst, bytes, b, err);
    bufinit_elem t = e.bytes ? e : (bufinit_elem){4, 1, 0, 0};
    uint64_t n = bytes / t.bytes;
    if (init == PLAN_INIT_VALUES) {
        memset(dst, 0, (size_t)bytes);
        for (uint64_t i = 0; i < n && i < b->ninit_values; i++)
            put_value(dst, i, e, &b->init_values[i]);
        return 0;
    }
    uint64_t s = bufinit_seed(seed, b ? b->set : 0, b ? b->binding : 0);
    for (uint64_t i = 0; i < n; i++) {
        double v = init == PLAN_INIT_RAMP ? (double)i
                 : init == PLAN_INIT_CONST ? b->init_value
                 : random_value(&s, t);
        put(dst, i, t, v);
    }
    /* a tail shorter than one element: deterministic bytes, not zeros */
    for (uint64_t i = n * t.bytes; i < bytes; i++)
        dst[i] = (uint8_t)(0xA5 ^ i);
    return 0;
}

int bufinit_peek(uint8_t *dst, uint64_t from, uint64_t len, uint64_t bytes,
                 bufinit_elem e, const plan_buffer *b, uint64_t seed)
{
    plan_init init = b ? b->init : PLAN_INIT_RANDOM;
    if (init == PLAN_INIT_VALUES || init == PLAN_INIT_FILE || from > bytes ||
        len > bytes - from)
        return -1;
    if (init == PLAN_INIT_ZERO) {
        memset(dst, 0, (size_t)len);
        return 0;
    }
    bufinit_elem t = e.bytes ? e : (bufinit_elem){4, 1, 0, 0};
    uint64_t s0 = bufinit_seed(seed, b ? b->set : 0, b ? b->binding : 0);
    uint8_t one[8];
    uint64_t whole = bytes / t.bytes * t.bytes;
    for (uint64_t at = from; at < from + len;) {
        if (at >= whole) { /* the tail, as bufinit_fill writes it */
            dst[at - from] = (uint8_t)(0xA5 ^ at);
            at++;
            continue;
        }
        uint64_t i = at / t.bytes, in = at % t.bytes;
        uint64_t s = s0 + i * 0x9e3779b97f4a7c15ull; /* i steps of bufinit_rng */
        double v = init == PLAN_INIT_RAMP ? (double)i
                 : init == PLAN_INIT_CONST ? b->init_value
                 : random_value(&s, t);
        put(one, 0, t, v);
        for (; in < t.bytes && at < from + len; in++, at++)
            dst[at - from] = one[in];
    }
    return 0;
}
