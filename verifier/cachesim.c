/* cachesim.c - sector-level L1/L2/DRAM model (see cachesim.h). */
#include "cachesim.h"

#include "csim_pages.h"

#include <stdlib.h>
#include <string.h>

typedef struct csim_line {
    uint64_t addr;   /* line address + 1; 0 = empty */
    uint64_t valid;  /* sector bits */
    uint64_t full;   /* sectors whose every byte is known: read, or
                        written whole (by one or several stores) */
    uint64_t dirty;
    uint32_t wtag;   /* tag of the last writer (write-back attribution) */
    uint32_t owner;  /* L2: 1 + the L1 that last fetched the line; 0 none */
} csim_line;

/* A level is one block of memory a set (a power of two of bytes, aligned
 * to the host's cache lines): the set's tags, then its LRU stamps, then
 * its lines, then the bytes written per sector of each line.  A lookup
 * reads the tags only (16 ways: two host lines), the replacement the tags
 * and stamps, and a set's data shares its page: whole lines with their
 * written-byte counts in place (64 a line) were 28 host lines a set, and
 * one array each a page walk each. */
typedef struct csim_level {
    uint64_t nsets;
    uint32_t ways;
    uint32_t spl;          /* sectors per line */
    unsigned set_shift;    /* log2 of a set's block */
    unsigned char *mem;    /* nsets blocks, 64-aligned */
    void *raw;             /* what mem lies in */
} csim_level;

/* line address + 1 of each way of the set; 0 = empty */
static uint64_t *tags_of(const csim_level *lv, uint64_t set)
{
    return (uint64_t *)(void *)(lv->mem + (set << lv->set_shift));
}

/* LRU stamp of each way */
static uint64_t *stamps_of(const csim_level *lv, uint64_t set)
{
    return tags_of(lv, set) + lv->ways;
}

/* the rest of each way (addr repeats the tag) */
static csim_line *lines_of(const csim_level *lv, uint64_t set)
{
    return (csim_line *)(void *)(tags_of(lv, set) + 2 * (size_t)lv->ways);
}

/* spl a way: bytes written per sector (saturating) */
static uint8_t *wbytes_of(const csim_level *lv, uint64_t set)
{
    return (uint8_t *)(lines_of(lv, set) + lv->ways);
}

/* The set that line slot l of lv lies in, and its way there. */
static uint64_t set_of_slot(const csim_level *lv, const csim_line *l)
{
    return (uint64_t)((const unsigned char *)l - lv->mem) >> lv->set_shift;
}

static uint32_t way_of(const csim_level *lv, uint64_t set, const csim_line *l)
{
    return (uint32_t)(l - lines_of(lv, set));
}

struct cachesim {
    csim_config cfg;
    uint32_t spl;    /* sectors per line */
    uint32_t nl1;
    csim_level *l1;    /* nl1 instances, or NULL */
    csim_level l2;
    uint64_t tick;
    uint32_t ntags;
    csim_stats total;
    csim_stats *tags;
    csim_pages *pages; /* DRAM page openings (csim_pages.h) */
    uint32_t requester; /* the L1 (group) of the request in progress */
};

static int pow2(uint64_t v) { return v && !(v & (v - 1)); }

/* Bits set, inline (the builtin is a library call without -mpopcnt). */
static int popc(uint64_t v)
{
    v = v - ((v >> 1) & 0x5555555555555555ull);
    v = (v & 0x3333333333333333ull) + ((v >> 2) & 0x3333333333333333ull);
    v = (v + (v >> 4)) & 0x0f0f0f0f0f0f0f0full;
    return (int)((v * 0x0101010101010101ull) >> 56);
}

static int level_init(csim_level *lv, uint64_t bytes, uint32_t line,
                      uint32_t ways, uint32_t spl)
{
    uint64_t lines = bytes / line;
    if (!lines || !ways)
        return -1;
    if (ways > lines)
        ways = (uint32_t)lines;
    lv->ways = ways;
    lv->nsets = lines / ways;
    lv->spl = spl;
    uint64_t need = (uint64_t)ways * (2 * sizeof(uint64_t) + sizeof(csim_line) + spl);
    lv->set_shift = 6;
    while (((uint64_t)1 << lv->set_shift) < need)
        lv->set_shift++;
    /* one block more: room to align (a block is at least 64 bytes) */
    lv->raw = calloc(lv->nsets + 1, (size_t)1 << lv->set_shift);
    if (!lv->raw)
        return -1;
    lv->mem = (unsigned char *)lv->raw + (64 - (uintptr_t)lv->raw % 64) % 64;
    return 0;
}

cachesim *csim_new(const csim_config *cfg, uint32_t nl1, uint32_t ntags)
{
    if (!cfg || cfg->sector_bytes < 4 || !pow2(cfg->sector_bytes) ||
        !pow2(cfg->line_bytes) || cfg->line_bytes < cfg->sector_bytes ||
        cfg->line_bytes / cfg->sector_bytes > 64)
        return NULL;
    cachesim *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->cfg = *cfg;
    s->spl = cfg->line_bytes / cfg->sector_bytes;
    s->ntags = ntags;
    s->tags = calloc((size_t)ntags + 1, sizeof *s->tags);
    s->pages = csim_pages_new(ntags);
    if (!s->tags || !s->pages || level_init(&s->l2, cfg->l2_bytes, cfg->line_bytes,
                               cfg->l2_ways ? cfg->l2_ways : 1, s->spl) != 0)
        goto fail;
    if (cfg->l1_bytes && nl1) {
        s->nl1 = nl1;
        s->l1 = calloc(nl1, sizeof *s->l1);
        if (!s->l1)
            goto fail;
        for (uint32_t i = 0; i < nl1; i++)
            if (level_init(&s->l1[i], cfg->l1_bytes, cfg->line_bytes,
                           cfg->l1_ways ? cfg->l1_ways : 1, s->spl) != 0)
                goto fail;
    }
    return s;
fail:
    csim_free(s);
    return NULL;
}

static void level_release(csim_level *lv)
{
    free(lv->raw);
}

void csim_free(cachesim *s)
{
    if (!s)
        return;
    if (s->l1)
        for (uint32_t i = 0; i < s->nl1; i++)
            level_release(&s->l1[i]);
    free(s->l1);
    level_release(&s->l2);
    free(s->tags);
    csim_pages_free(s->pages);
    free(s);
}

/* ---- statistics ---- */

static csim_stats *tag_of(cachesim *s, uint32_t tag)
{
    return &s->tags[tag < s->ntags ? tag : s->ntags];
}

#define COUNT(s, tag, field, v)                                              \
    do {                                                                     \
        double v_ = (v);                                                     \
        (s)->total.field += v_;                                              \
        tag_of((s), (tag))->field += v_;                                     \
    } while (0)

/* ---- one level ---- */

/* A strong 64-bit mix of the line address: the set index. */
static uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    x ^= x >> 33;
    return x;
}

/* The set line maps to. */
static uint64_t set_of(const csim_level *lv, uint64_t line)
{
    return mix(line) % lv->nsets;
}

/* A set's ways fill in order (the victim is its first empty way while it
 * has one) and empty only all together (flush, forget), so its occupied
 * ways are a prefix: a lookup stops at the first empty way. */
static csim_line *find_in(csim_level *lv, uint64_t set, uint64_t line)
{
    const uint64_t *tag = tags_of(lv, set);
    for (uint32_t w = 0; w < lv->ways && tag[w]; w++)
        if (tag[w] == line + 1)
            return &lines_of(lv, set)[w];
    return NULL;
}

static csim_line *find(csim_level *lv, uint64_t line)
{
    return find_in(lv, set_of(lv, line), line);
}

/* The LRU (or an empty) way of the set; *old receives what it held. */
static csim_line *victim(csim_level *lv, uint64_t set, uint64_t line,
                         csim_line *old)
{
    uint64_t *tag = tags_of(lv, set), *used = stamps_of(lv, set);
    uint32_t v = 0;
    while (v < lv->ways && tag[v]) /* the first empty way */
        v++;
    if (v == lv->ways) { /* none: the least recently used, the first of equals */
        v = 0;
        for (uint32_t w = 1; w < lv->ways; w++)
            if (used[w] < used[v])
                v = w;
    }
    csim_line *l = &lines_of(lv, set)[v];
    *old = *l;
    memset(l, 0, sizeof *l);
    l->addr = line + 1;
    tag[v] = line + 1;
    used[v] = 0;
    memset(&wbytes_of(lv, set)[(size_t)v * lv->spl], 0, lv->spl);
    return l;
}

/* Marks l (a line of lv) the most recently used. */
static void touch(cachesim *s, csim_level *lv, const csim_line *l)
{
    uint64_t set = set_of_slot(lv, l);
    stamps_of(lv, set)[way_of(lv, set, l)] = ++s->tick;
}

/* Empties every way of lv. */
static void level_clear(csim_level *lv)
{
    memset(lv->mem, 0, (size_t)lv->nsets << lv->set_shift);
}

/* ---- L2 and DRAM ---- */

/* One DRAM transfer touching line: does it open a page?  Returns 1 when
 * it does.  demand: a read the request in progress makes (its group is
 * the requester); else an eviction's. */
static int dram_touch(cachesim *s, uint64_t line, uint32_t tag, int write,
                      int demand)
{
    if (!s->cfg.dram_page_bytes)
        return 0;
    uint64_t page = line * s->cfg.line_bytes / s->cfg.dram_page_bytes;
    if (!csim_pages_touch(s->pages, page,
                          demand ? s->requester : CSIM_PAGES_EVICTION, tag))
        return 0;
    if (write)
        COUNT(s, tag, dram_write_pages, 1);
    else
        COUNT(s, tag, dram_pages, 1);
    return 1;
}

/* The sectors DRAM reads for missed sectors miss: each one's aligned
 * block of fetch_sectors. */
static uint64_t fetch_blocks(const cachesim *s, uint64_t miss)
{
    uint32_t f = s->cfg.fetch_sectors;
    if (f <= 1 || !miss)
        return miss;
    if (f > s->spl)
        f = s->spl;
    uint64_t block = f >= 64 ? ~0ull : (1ull << f) - 1, out = 0;
    for (uint32_t q = 0; q < s->spl; q += f)
        if (miss >> q & block)
            out |= block << q;
    return out;
}

/* A dirty line leaves L2: its dirty sectors are written; a sector only
 * partly written (and never read) is read first and merged
 * (read-modify-write, partial_write_fill): the sector alone, not a fetch
 * block (H200: a 4-byte store a line, `partial_write`, runs at one sector
 * read and written per store; with 64-B reads it would be +28%). */
static void l2_evicted(cachesim *s, const csim_line *old)
{
    if (!old->addr || !old->dirty)
        return;
    uint64_t partial = s->cfg.partial_write_fill ? old->dirty & ~old->full : 0;
    int opened = 0;
    if (partial) {
        COUNT(s, old->wtag, dram_read_bytes,
              (double)popc(partial) * s->cfg.sector_bytes);
        COUNT(s, old->wtag, dram_rmw_sectors, popc(partial));
        opened = dram_touch(s, old->addr - 1, old->wtag, 0, 0);
    }
    COUNT(s, old->wtag, dram_write_bytes,
          (double)popc(old->dirty) * s->cfg.sector_bytes);
    int whole = popc(old->dirty & old->full);
    if (opened) /* a scattered read-modify-write: read, turn, write back */
        COUNT(s, old->wtag, dram_write_pages, 1);
    else if (dram_touch(s, old->addr - 1, old->wtag, 1, 0) && whole > 1)
        COUNT(s, old->wtag, dram_write_page_sectors, whole - 1);
}

static csim_line *l2_line(cachesim *s, uint64_t line)
{
    uint64_t set = set_of(&s->l2, line);
    csim_line *l = find_in(&s->l2, set, line);
    if (!l) {
        csim_line old;
        l = victim(&s->l2, set, line, &old);
        l2_evicted(s, &old);
    }
    touch(s, &s->l2, l);
    return l;
}

/* Reads sectors mask of line through L2 (DRAM on a miss). */
static void l2_read(cachesim *s, uint64_t line, uint64_t mask, uint32_t tag)
{
    csim_line *l = l2_line(s, line);
    uint64_t hit = l->valid & mask, miss = mask & ~l->valid;
    COUNT(s, tag, l2_sectors, popc(mask));
    COUNT(s, tag, l2_hit_sectors, popc(hit));
    /* DRAM reads whole blocks; a block-mate already valid stays as L2
       has it (a written one is completed by the fill) */
    uint64_t fetched = fetch_blocks(s, miss);
    COUNT(s, tag, dram_read_bytes,
          (double)popc(fetched) * s->cfg.sector_bytes);
    if (miss)
        dram_touch(s, line, tag, 0, 1);
    l->valid |= fetched;
    l->full |= fetched;
}

/* Writes sectors mask of line at L2: allocate without fetch, dirty;
 * partial (sectors only partly written) are fetched first when the config
 * says so and they are not in L2. */
static void l2_write(cachesim *s, uint64_t line, uint64_t mask,
                     const uint8_t *bytes, const uint8_t *stores, uint32_t tag)
{
    csim_line *l = l2_line(s, line);
    uint64_t set = set_of_slot(&s->l2, l);
    uint8_t *wb = &wbytes_of(&s->l2, set)[(size_t)way_of(&s->l2, set, l) * s->spl];
    COUNT(s, tag, l2_sectors, popc(mask));
    COUNT(s, tag, l2_hit_sectors, popc(l->valid & mask));
    for (uint32_t q = 0; q < s->spl; q++) {
        if (!((mask >> q) & 1))
            continue;
        if (bytes && bytes[q] < s->cfg.sector_bytes) {
            /* a run's members are separate stores: each writes its part
               of a sector the run leaves partial */
            uint32_t n = stores && stores[q] ? (uint32_t)popc(stores[q]) : 1;
            COUNT(s, tag, l2_partial_sectors, n);
            COUNT(s, tag, l2_sectors, n - 1);
            if (!((l->full >> q) & 1))
                COUNT(s, tag, l2_partial_open, n);
        }
        unsigned w = wb[q] + (bytes ? bytes[q] : s->cfg.sector_bytes);
        wb[q] = (uint8_t)(w > 255 ? 255 : w);
        if (wb[q] >= s->cfg.sector_bytes)
            l->full |= 1ull << q;
    }
    l->valid |= mask;
    l->dirty |= mask;
    l->wtag = tag;
}

/* ---- L1 ---- */

static csim_line *l1_line(cachesim *s, csim_level *lv, uint64_t line)
{
    uint64_t set = set_of(lv, line);
    csim_line *l = find_in(lv, set, line);
    if (!l) {
        csim_line old;
        l = victim(lv, set, line, &old);
        if (old.addr && old.dirty) /* write-back L1: whole sectors */
            l2_write(s, old.addr - 1, old.dirty, NULL, NULL, old.wtag);
    }
    touch(s, lv, l);
    return l;
}

/* A load's line request at L2 (l2_lines), after l2_read brought it in:
 * counted unless the same L1 fetched the line last.  One group's L1
 * (L1 / resident groups) with every lane in step re-fetches lines of
 * per-lane rows that the hardware keeps (run 6's row_l2_p* probes serve
 * them at the L1's rate); a line from DRAM, or one another unit fetched,
 * is a lookup the hardware makes too. */
static void l2_line_request(cachesim *s, const csim_level *l1, uint64_t line,
                            uint32_t tag)
{
    csim_line *l = find(&s->l2, line);
    uint32_t me = l1 ? (uint32_t)(l1 - s->l1) + 1 : 0;
    if (l && me && l->owner == me)
        return;
    if (l)
        l->owner = me;
    COUNT(s, tag, l2_lines, 1);
}

static void line_access(cachesim *s, csim_level *l1, csim_op op, uint64_t line,
                        uint64_t mask, const uint8_t *bytes,
                        const uint8_t *stores, uint32_t tag)
{
    if (op == CSIM_ATOMIC) {
        COUNT(s, tag, l1_sectors, popc(mask));
        l2_read(s, line, mask, tag);
        csim_line *l = l2_line(s, line);
        l->dirty |= mask;
        l->wtag = tag;
        if (l1) { /* the unit's copy is stale now */
            csim_line *c = find(l1, line);
            if (c)
                c->valid &= ~mask;
        }
        return;
    }
    if (!l1) {
        if (op == CSIM_LOAD) {
            l2_read(s, line, mask, tag);
            l2_line_request(s, NULL, line, tag);
        } else
            l2_write(s, line, mask, bytes, stores, tag);
        return;
    }
    COUNT(s, tag, l1_sectors, popc(mask));
    if (op == CSIM_STORE && !s->cfg.l1_write_back) {
        /* write-through, no allocate: a resident copy stays valid */
        csim_line *c = find(l1, line);
        if (c) {
            COUNT(s, tag, l1_hit_sectors, popc(c->valid & mask));
            touch(s, l1, c);
        }
        l2_write(s, line, mask, bytes, stores, tag);
        return;
    }
    csim_line *l = l1_line(s, l1, line);
    uint64_t hit = l->valid & mask, miss = mask & ~l->valid;
    COUNT(s, tag, l1_hit_sectors, popc(hit));
    if (miss) {
        l2_read(s, line, miss, tag);
        if (op == CSIM_LOAD)
            l2_line_request(s, l1, line, tag);
    }
    l->valid |= miss;
    if (op == CSIM_STORE) {
        l->dirty |= mask;
        l->wtag = tag;
    }
}

/* ---- requests ---- */

typedef struct line_mask {
    uint64_t line, mask;
    uint8_t bytes[64];  /* bytes of each sector the request touches */
    uint8_t stores[64]; /* the run's member stores that write into each
                           sector, a bit each (0: the request is one) */
} line_mask;

#define CSIM_BATCH 256

static void batch_add(line_mask *b, uint32_t *n, uint64_t line, uint32_t sec,
                      uint32_t bytes, uint8_t stores)
{
    for (uint32_t i = *n; i-- > 0;)
        if (b[i].line == line) {
            b[i].mask |= 1ull << sec;
            unsigned w = b[i].bytes[sec] + bytes;
            b[i].bytes[sec] = (uint8_t)(w > 255 ? 255 : w);
            b[i].stores[sec] |= stores;
            return;
        }
    memset(&b[*n], 0, sizeof b[*n]);
    b[*n].line = line;
    b[*n].mask = 1ull << sec;
    b[*n].bytes[sec] = (uint8_t)(bytes > 255 ? 255 : bytes);
    b[*n].stores[sec] = stores;
    (*n)++;
}

/* L1 lookup cycles of a batch: the most lines touching one of the
 * l1_line_groups parts of a line (cachesim.h). */
static double batch_slots(const cachesim *s, const line_mask *b, uint32_t n)
{
    uint32_t spl = s->cfg.line_bytes / s->cfg.sector_bytes;
    uint32_t groups = s->cfg.l1_line_groups;
    if (groups <= 1 || spl < 2)
        return n;
    if (groups > spl)
        groups = spl;
    uint32_t per[64] = {0}, most = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t seen = 0; /* parts this line was counted in */
        for (uint32_t q = 0; q < spl; q++) {
            if (!(b[i].mask >> q & 1))
                continue;
            uint32_t g = q * groups / spl;
            if (seen >> g & 1)
                continue;
            seen |= 1u << g;
            if (++per[g] > most)
                most = per[g];
        }
    }
    return most;
}

/* Lines of a load batch that miss the unit's L1 (a sector not there):
 * each is allocated and filled through the miss path, one a cycle. */
static uint32_t batch_l1_misses(csim_level *l1, csim_op op,
                                const line_mask *b, uint32_t n)
{
    if (!l1 || op != CSIM_LOAD)
        return 0;
    uint32_t miss = 0;
    for (uint32_t i = 0; i < n; i++) {
        const csim_line *l = find(l1, b[i].line);
        if (!l || (b[i].mask & ~l->valid))
            miss++;
    }
    return miss;
}

static void batch_run(cachesim *s, csim_level *l1, csim_op op, line_mask *b,
                      uint32_t n, uint32_t tag)
{
    COUNT(s, tag, l1_lines, n);
    double slots = batch_slots(s, b, n);
    if (slots < n) {
        double miss = batch_l1_misses(l1, op, b, n);
        slots = miss > slots ? miss : slots;
    }
    COUNT(s, tag, l1_slots, slots);
    for (uint32_t i = 0; i < n; i++)
        line_access(s, l1, op, b[i].line, b[i].mask, b[i].bytes, b[i].stores, tag);
}

/* The bit of each member of lane i's run that writes into [lo, hi). */
static uint8_t run_stores_in(const uint64_t *addr, const uint32_t *member,
                             uint32_t members, uint32_t n, uint32_t i,
                             uint64_t lo, uint64_t hi)
{
    uint8_t bits = 0;
    uint64_t a = addr[i];
    for (uint32_t k = 0; k < members && k < 8; k++) {
        uint64_t e = a + member[(size_t)k * n + i];
        if (e > lo && a < hi)
            bits |= (uint8_t)(1u << k);
        a = e;
    }
    return bits;
}

void csim_request(cachesim *s, uint32_t l1, csim_op op, const uint64_t *addr,
                const uint32_t *size, uint32_t n, uint32_t tag)
{
    csim_request_run(s, l1, op, addr, size, n, tag, NULL, 0);
}

void csim_request_run(cachesim *s, uint32_t l1, csim_op op, const uint64_t *addr,
                      const uint32_t *size, uint32_t n, uint32_t tag,
                      const uint32_t *member, uint32_t members)
{
    if (!s || !n)
        return;
    csim_level *lv = s->l1 ? &s->l1[l1 < s->nl1 ? l1 : 0] : NULL;
    uint64_t sec = s->cfg.sector_bytes, lb = s->cfg.line_bytes;
    s->requester = l1 < CSIM_PAGES_EVICTION ? l1 : CSIM_PAGES_EVICTION - 1;
    line_mask b[CSIM_BATCH];
    uint32_t nb = 0;
    COUNT(s, tag, requests, 1);
    for (uint32_t i = 0; i < n; i++) {
        if (!size[i])
            continue;
        COUNT(s, tag, lane_bytes, size[i]);
        uint64_t first = addr[i] / sec;
        uint64_t last = (addr[i] + size[i] - 1) / sec;
        if (last < first) /* wrapped at the top of the address space */
            last = first;
        for (uint64_t q = first; q <= last && q - first < 4096; q++) {
            uint64_t line = q * sec / lb;
            uint32_t bit = (uint32_t)((q * sec % lb) / sec);
            /* bytes of this lane inside sector q */
            uint64_t lo = q * sec > addr[i] ? q * sec : addr[i];
            uint64_t hi = (q + 1) * sec < addr[i] + size[i] ? (q + 1) * sec
                                                           : addr[i] + size[i];
            if (nb == CSIM_BATCH) {
                batch_run(s, lv, op, b, nb, tag);
                nb = 0;
            }
            uint8_t st = member && members > 1 && op == CSIM_STORE
                             ? run_stores_in(addr, member, members, n, i, lo, hi)
                             : 0;
            batch_add(b, &nb, line, bit, (uint32_t)(hi - lo), st);
        }
    }
    batch_run(s, lv, op, b, nb, tag);
}

static void level_flush(cachesim *s, csim_level *lv, int to_l2)
{
    for (uint64_t set = 0; set < lv->nsets; set++) {
        csim_line *lines = lines_of(lv, set);
        for (uint32_t w = 0; w < lv->ways; w++) {
            csim_line *l = &lines[w];
            if (l->addr && l->dirty) {
                if (to_l2)
                    l2_write(s, l->addr - 1, l->dirty, NULL, NULL, l->wtag);
                else
                    l2_evicted(s, l);
            }
        }
        memset(tags_of(lv, set), 0, (size_t)1 << lv->set_shift);
    }
}

void csim_flush(cachesim *s)
{
    if (!s)
        return;
    for (uint32_t i = 0; s->l1 && i < s->nl1; i++)
        level_flush(s, &s->l1[i], 1);
    level_flush(s, &s->l2, 0);
}

void csim_forget_counts(cachesim *s)
{
    if (!s)
        return;
    for (uint32_t i = 0; s->l1 && i < s->nl1; i++)
        level_clear(&s->l1[i]);
    for (uint64_t set = 0; set < s->l2.nsets; set++)
        for (uint32_t w = 0; w < s->l2.ways; w++)
            lines_of(&s->l2, set)[w].dirty = 0; /* written back by the
                         groups that wrote it; a sector they wrote in
                         part stays in part */
    memset(&s->total, 0, sizeof s->total);
    memset(s->tags, 0, ((size_t)s->ntags + 1) * sizeof *s->tags);
    csim_pages_forget(s->pages);
}

csim_stats csim_total(const cachesim *s)
{
    csim_stats z = {0};
    return s ? s->total : z;
}

csim_stats csim_tag(const cachesim *s, uint32_t tag)
{
    csim_stats z = {0};
    return s && tag < s->ntags ? s->tags[tag] : z;
}

double csim_reopened_pages(const cachesim *s, uint32_t tag, uint32_t window)
{
    return s ? csim_pages_reopened(s->pages, tag, window) : 0;
}

double csim_page_sharing(const cachesim *s)
{
    return s ? csim_pages_sharing(s->pages) : 1;
}
