/* u64map.c - open-addressing u64 map (see u64map.h). */
#include "u64map.h"

#include <stdlib.h>
#include <string.h>

enum { FIRST_CAP = 1024 };

static uint64_t hash(uint64_t x)
{
    x ^= x >> 31;
    x *= 0x9e3779b97f4a7c15ull;
    x ^= x >> 29;
    return x;
}

void u64map_init(u64map *m, size_t val_size, size_t max_cap)
{
    memset(m, 0, sizeof *m);
    m->val_size = val_size ? val_size : 1;
    m->max_cap = max_cap;
}

void u64map_free(u64map *m)
{
    free(m->keys);
    free(m->vals);
    m->keys = NULL;
    m->vals = NULL;
    m->cap = m->n = 0;
}

void u64map_clear(u64map *m)
{
    if (m->keys)
        memset(m->keys, 0, m->cap * sizeof *m->keys);
    m->n = 0;
}

/* key's slot in keys of capacity cap: where it is or the empty one that
 * ends its probe sequence */
static size_t slot(const uint64_t *keys, size_t cap, uint64_t key)
{
    size_t i = hash(key) & (cap - 1);
    while (keys[i] && keys[i] != key + 1)
        i = (i + 1) & (cap - 1);
    return i;
}

void *u64map_find(const u64map *m, uint64_t key)
{
    if (!m->cap || key == UINT64_MAX)
        return NULL;
    size_t i = slot(m->keys, m->cap, key);
    return m->keys[i] ? u64map_val(m, i) : NULL;
}

/* Doubles the slots, re-inserting in slot order; 0, or -1 (unchanged)
 * when memory ran out. */
static int grow(u64map *m)
{
    size_t cap = m->cap ? 2 * m->cap : FIRST_CAP;
    uint64_t *keys = calloc(cap, sizeof *keys);
    unsigned char *vals = calloc(cap, m->val_size);
    if (!keys || !vals) {
        free(keys);
        free(vals);
        return -1;
    }
    for (size_t i = 0; i < m->cap; i++) {
        if (!m->keys[i])
            continue;
        size_t j = slot(keys, cap, m->keys[i] - 1);
        keys[j] = m->keys[i];
        memcpy(vals + j * m->val_size, u64map_val(m, i), m->val_size);
    }
    free(m->keys);
    free(m->vals);
    m->keys = keys;
    m->vals = vals;
    m->cap = cap;
    return 0;
}

void *u64map_get(u64map *m, uint64_t key, int *created)
{
    if (created)
        *created = 0;
    if (key == UINT64_MAX)
        return NULL;
    /* at half load: grow, or (capped, out of memory) take no new key */
    int room = 1;
    if (m->n * 2 >= m->cap)
        room = (m->max_cap && m->cap && 2 * m->cap > m->max_cap) ? 0 : grow(m) == 0;
    if (!m->cap)
        return NULL;
    size_t i = slot(m->keys, m->cap, key);
    if (!m->keys[i]) {
        if (!room)
            return NULL;
        m->keys[i] = key + 1;
        memset(u64map_val(m, i), 0, m->val_size);
        m->n++;
        if (created)
            *created = 1;
    }
    return u64map_val(m, i);
}
