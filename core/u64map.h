/* u64map.h - an open-addressing map from 64-bit keys to fixed-size values.
 *
 * For the model's per-address tables (atomic contention per address and
 * per L2 unit, DRAM page sharing): linear probing, doubling at half load,
 * a value zeroed when its key is inserted.  max_cap (0: none) caps the
 * slots: once the map is full at that size a new key is refused while the
 * keys it holds are still found, so a caller counting over more keys than
 * it can hold counts over the first ones.  Running out of memory is not
 * fatal: u64map_get returns NULL and the caller goes on without that key
 * (a lost count, not a lost process).  UINT64_MAX is not a valid key.
 *
 * Iterate: for (size_t i = 0; i < m->cap; i++) if (u64map_used(m, i))
 * ... u64map_key(m, i), u64map_val(m, i).  The order is the slots', which
 * depends only on the keys and the order they were inserted in.
 */
#ifndef CW_U64MAP_H
#define CW_U64MAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct u64map {
    uint64_t *keys;        /* key + 1; 0: empty */
    unsigned char *vals;   /* cap x val_size bytes */
    size_t val_size, cap, n, max_cap;
} u64map;

void u64map_init(u64map *m, size_t val_size, size_t max_cap);
void u64map_free(u64map *m);
/* Forgets every key; keeps the memory. */
void u64map_clear(u64map *m);
/* key's value, or NULL. */
void *u64map_find(const u64map *m, uint64_t key);
/* key's value, inserted (zeroed, *created = 1) when absent; NULL when the
 * map is full at max_cap, memory ran out, or key is UINT64_MAX. */
void *u64map_get(u64map *m, uint64_t key, int *created);

static inline int u64map_used(const u64map *m, size_t i) { return m->keys[i] != 0; }
static inline uint64_t u64map_key(const u64map *m, size_t i) { return m->keys[i] - 1; }
static inline void *u64map_val(const u64map *m, size_t i)
{
    return m->vals + i * m->val_size;
}

#endif
