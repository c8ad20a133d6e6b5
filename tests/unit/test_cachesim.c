/* test_cachesim.c - the sector-level cache model on synthetic subgroup
 * streams whose traffic is computed by hand: a row walk, a transpose, a
 * stencil, a gather, write merging and LRU capacity. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "cachesim.h"

/* NVIDIA-like: 32 B sectors, 128 B lines, write-through L1. */
static csim_config gpu_cfg(uint64_t l1, uint64_t l2)
{
    csim_config c = {32, 128, l1, 4, 0, l2, 16, 0, 0, 1, 0};
    return c;
}

/* One request of 32 lanes, lane l at base + l * stride, 4 bytes each. */
static void req32(cachesim *s, csim_op op, uint64_t base, int64_t stride,
                  uint32_t tag)
{
    uint64_t a[32];
    uint32_t z[32];
    for (int l = 0; l < 32; l++) {
        a[l] = base + (uint64_t)((int64_t)l * stride);
        z[l] = 4;
    }
    csim_request(s, 0, op, a, z, 32, tag);
}

/* Each lane walks its own row of 1024 floats (rows 4 KiB apart), elements
 * j = 0..31.  Every request touches 32 sectors in 32 lines: 1024 sectors
 * at L1.  A sector holds 8 floats, so only j = 0, 8, 16, 24 miss: 32 x 4 =
 * 128 sectors go to L2 and DRAM reads them once: 4096 B, the compulsory
 * bytes (32 rows x 32 floats x 4 B).  Without L1 reuse (the old model)
 * DRAM would move 1024 sectors. */
static void test_row_walk(void **state)
{
    (void)state;
    csim_config c = gpu_cfg(64 << 10, 1 << 20);
    cachesim *s = csim_new(&c, 1, 1);
    assert_non_null(s);
    for (int j = 0; j < 32; j++)
        req32(s, CSIM_LOAD, (uint64_t)j * 4, 4096, 0);
    csim_flush(s);
    csim_stats t = csim_total(s);
    assert_true(t.requests == 32);
    assert_true(t.lane_bytes == 4096);
    assert_true(t.l1_sectors == 1024);
    assert_true(t.l1_lines == 1024); /* 32 lines a request */
    assert_true(t.l1_hit_sectors == 1024 - 128);
    assert_true(t.l2_sectors == 128);
    assert_true(t.l2_hit_sectors == 0);
    assert_true(t.dram_read_bytes == 4096);
    assert_true(t.dram_write_bytes == 0);
    csim_free(s);
}

/* Naive transpose of a 32 x 32 float tile (rows of 128 B = one line): lane
 * l reads in[r][l] (coalesced: one line, 4 sectors per request) and writes
 * out[l][r] (32 lines, one 4-byte piece of a sector each).  Reads: 32 x 4 =
 * 128 sectors, 4096 B from DRAM.  Writes: 32 x 32 = 1024 sectors at L2, but
 * the lines stay in L2 while r = 0..7 complete each sector, so DRAM writes
 * 128 sectors = 4096 B (write merging).  With an L2 of 2 lines every
 * partial sector is evicted before it is completed: 1024 x 32 B. */
static void transpose(cachesim *s)
{
    for (int r = 0; r < 32; r++) {
        req32(s, CSIM_LOAD, (uint64_t)r * 128, 4, 0);
        req32(s, CSIM_STORE, (1u << 20) + (uint64_t)r * 4, 128, 1);
    }
    csim_flush(s);
}

static void test_transpose_write_merging(void **state)
{
    (void)state;
    csim_config c = gpu_cfg(64 << 10, 1 << 20);
    cachesim *s = csim_new(&c, 1, 2);
    transpose(s);
    csim_stats rd = csim_tag(s, 0), wr = csim_tag(s, 1);
    assert_true(rd.l1_sectors == 128);
    assert_true(rd.l1_lines == 32); /* one line a request */
    assert_true(rd.dram_read_bytes == 4096);
    assert_true(wr.l1_sectors == 1024);
    assert_true(wr.l2_sectors == 1024);
    assert_true(wr.dram_read_bytes == 0); /* no fetch on write */
    assert_true(wr.dram_write_bytes == 4096);
    /* every one of the 1024 store sectors is written 4 bytes at a time:
     * all partial (the L2 merges each into its sector); the loads and the
     * write-backs are whole sectors */
    assert_true(wr.l2_partial_sectors == 1024);
    assert_true(rd.l2_partial_sectors == 0);
    csim_free(s);

    csim_config tiny = {32, 128, 0, 1, 0, 256, 2, 0, 0, 1, 0}; /* no L1, L2 of 2 lines */
    s = csim_new(&tiny, 1, 2);
    transpose(s);
    wr = csim_tag(s, 1);
    assert_true(wr.l2_sectors == 1024);
    assert_true(wr.dram_write_bytes == 1024 * 32);
    csim_free(s);

    /* a coalesced store fills its 4 sectors whole: none partial */
    s = csim_new(&c, 1, 1);
    req32(s, CSIM_STORE, 0, 4, 0);
    assert_true(csim_total(s).l2_sectors == 4);
    assert_true(csim_total(s).l2_partial_sectors == 0);
    csim_free(s);
}

/* 5-point stencil on a 64-float-wide grid (rows of 256 B), one subgroup of
 * lanes x = 0..31 computing rows y = 1..8; x - 1 clamped at 0.  Per row y:
 * up (row y-1, x): 4 sectors, down (y+1): 4, centre: 4, left (clamped,
 * 0..30): 4, right (1..32: bytes 4..131): 5 -> 21 sectors at L1, 168 in
 * all.  Distinct sectors: rows 1..8 sectors 0..4 (40) and rows 0 and 9
 * sectors 0..3 (8): 48 misses, 1536 B from DRAM.  The neighbour reads come
 * from L1, which is why counting each read as DRAM traffic is 3.5x over. */
static void test_stencil(void **state)
{
    (void)state;
    csim_config c = gpu_cfg(64 << 10, 1 << 20);
    cachesim *s = csim_new(&c, 1, 1);
    for (int y = 1; y <= 8; y++) {
        uint64_t row = (uint64_t)y * 256;
        uint64_t a[32];
        uint32_t z[32];
        for (int l = 0; l < 32; l++)
            z[l] = 4;
        req32(s, CSIM_LOAD, row - 256, 4, 0);
        req32(s, CSIM_LOAD, row + 256, 4, 0);
        req32(s, CSIM_LOAD, row, 4, 0);
        for (int l = 0; l < 32; l++)
            a[l] = row + (uint64_t)(l > 0 ? l - 1 : 0) * 4;
        csim_request(s, 0, CSIM_LOAD, a, z, 32, 0);
        req32(s, CSIM_LOAD, row + 4, 4, 0);
    }
    csim_flush(s);
    csim_stats t = csim_total(s);
    assert_true(t.l1_sectors == 168);
    assert_true(t.l1_lines == 8 * 6); /* right: bytes 4..131 span 2 lines */
    assert_true(t.l2_sectors == 48);
    assert_true(t.dram_read_bytes == 1536);
    csim_free(s);
}

/* A gather whose lanes are 256 B apart (a hashed index spreads them over
 * distinct sectors), run twice: 32 sectors per request; the second pass
 * hits L1 entirely; DRAM reads 32 sectors.  Two L1s (two units) do not
 * share: the same gather on unit 1 misses L1 and hits L2. */
static void test_gather(void **state)
{
    (void)state;
    csim_config c = gpu_cfg(64 << 10, 1 << 20);
    cachesim *s = csim_new(&c, 2, 1);
    uint64_t a[32];
    uint32_t z[32];
    for (int l = 0; l < 32; l++) {
        a[l] = (uint64_t)((l * 37) % 32) * 256; /* a permutation */
        z[l] = 4;
    }
    csim_request(s, 0, CSIM_LOAD, a, z, 32, 0);
    csim_request(s, 0, CSIM_LOAD, a, z, 32, 0);
    csim_stats t = csim_total(s);
    assert_true(t.l1_sectors == 64);
    assert_true(t.l1_hit_sectors == 32);
    assert_true(t.l2_sectors == 32);
    assert_true(t.dram_read_bytes == 32 * 32);
    csim_request(s, 1, CSIM_LOAD, a, z, 32, 0);
    t = csim_total(s);
    assert_true(t.l1_hit_sectors == 32);
    assert_true(t.l2_sectors == 64);
    assert_true(t.l2_hit_sectors == 32);
    assert_true(t.dram_read_bytes == 32 * 32);
    csim_free(s);
}

/* LRU capacity: an L1 of 2 lines (one set of 2 ways) streamed over 3 lines
 * in a loop misses every time; over 2 lines it hits after the first pass. */
static void test_lru_capacity(void **state)
{
    (void)state;
    csim_config c = {32, 128, 256, 2, 0, 1 << 20, 16, 0, 0, 1, 0};
    cachesim *s = csim_new(&c, 1, 1);
    uint64_t a;
    uint32_t z = 4;
    for (int pass = 0; pass < 4; pass++)
        for (int l = 0; l < 3; l++) {
            a = (uint64_t)l * 128;
            csim_request(s, 0, CSIM_LOAD, &a, &z, 1, 0);
        }
    assert_true(csim_total(s).l1_hit_sectors == 0);
    assert_true(csim_total(s).l2_sectors == 12);
    csim_free(s);

    s = csim_new(&c, 1, 1);
    for (int pass = 0; pass < 4; pass++)
        for (int l = 0; l < 2; l++) {
            a = (uint64_t)l * 128;
            csim_request(s, 0, CSIM_LOAD, &a, &z, 1, 0);
        }
    assert_true(csim_total(s).l1_hit_sectors == 6);
    csim_free(s);
}

/* Atomics are done at L2: the sector is read once from DRAM, written back
 * once, and never counted as an L1 hit. */
static void test_atomics_at_l2(void **state)
{
    (void)state;
    csim_config c = gpu_cfg(64 << 10, 1 << 20);
    cachesim *s = csim_new(&c, 1, 1);
    uint64_t a = 64;
    uint32_t z = 4;
    for (int i = 0; i < 10; i++)
        csim_request(s, 0, CSIM_ATOMIC, &a, &z, 1, 0);
    csim_flush(s);
    csim_stats t = csim_total(s);
    assert_true(t.l1_hit_sectors == 0);
    assert_true(t.l2_sectors == 10);
    assert_true(t.l2_hit_sectors == 9);
    assert_true(t.dram_read_bytes == 32);
    assert_true(t.dram_write_bytes == 32);
    csim_free(s);
}


/* DRAM pages of 2 KiB: a stream of 64 coalesced requests (8 KiB) opens 4
 * pages; 64 requests of one sector each at random 64 KiB-apart addresses
 * open 64. */
static void test_dram_pages(void **state)
{
    (void)state;
    csim_config c = {32, 128, 0, 1, 0, 1 << 20, 16, 2048, 0, 1, 0};
    cachesim *s = csim_new(&c, 1, 2);
    for (int r = 0; r < 64; r++)
        req32(s, CSIM_LOAD, (uint64_t)r * 128, 4, 0);
    uint64_t a;
    uint32_t z = 4;
    for (int r = 0; r < 64; r++) {
        a = (1u << 24) + (uint64_t)((r * 37) % 64) * 65536;
        csim_request(s, 0, CSIM_LOAD, &a, &z, 1, 1);
    }
    assert_true(csim_tag(s, 0).dram_pages == 4);
    assert_true(csim_tag(s, 1).dram_pages == 64);
    assert_true(csim_tag(s, 1).dram_read_bytes == 64 * 32);
    csim_free(s);
}

/* With partial_write_fill a sector that leaves L2 only partly written is
 * read and merged first (read-modify-write).  The transpose's column
 * writes (8 of 32 bytes per request) are completed in L2 by the later
 * requests: no read (as Nsight Compute saw on the H200: the naive
 * transpose moves its compulsory bytes).  A lone 4-byte store to a sector
 * far from the others costs a sector read and a sector write, and opens a
 * page for each. */
static void test_partial_write_fill(void **state)
{
    (void)state;
    csim_config c = {32, 128, 64 << 10, 4, 0, 1 << 20, 16, 2048, 1, 1, 0};
    cachesim *s = csim_new(&c, 1, 2);
    transpose(s);
    assert_true(csim_tag(s, 1).dram_read_bytes == 0);
    assert_true(csim_tag(s, 1).dram_rmw_sectors == 0);
    assert_true(csim_tag(s, 1).dram_write_bytes == 4096);
    csim_free(s);

    s = csim_new(&c, 1, 2);
    uint64_t a;
    uint32_t z = 4;
    for (int i = 0; i < 16; i++) {
        a = (uint64_t)((i * 7) % 16) * 65536 + 8;
        csim_request(s, 0, CSIM_STORE, &a, &z, 1, 1);
    }
    csim_flush(s);
    csim_stats t = csim_tag(s, 1);
    assert_true(t.dram_rmw_sectors == 16);
    assert_true(t.dram_read_bytes == 16 * 32);
    assert_true(t.dram_write_bytes == 16 * 32);
    assert_true(t.dram_pages == 16);
    assert_true(t.dram_write_pages == 16);
    csim_free(s);

    /* without the fill the same stores only write */
    c.partial_write_fill = 0;
    s = csim_new(&c, 1, 2);
    for (int i = 0; i < 16; i++) {
        a = (uint64_t)i * 65536 + 8;
        csim_request(s, 0, CSIM_STORE, &a, &z, 1, 1);
    }
    csim_flush(s);
    assert_true(csim_tag(s, 1).dram_read_bytes == 0);
    csim_free(s);
}

/* L1 lookup cycles (l1_slots) with the line split into parts.  A request
 * of 32 lanes of 4 bytes, lane l at l * stride, made twice: the first
 * misses L1 and costs its lines (the miss path, one a cycle), the second
 * hits and costs:
 *   stride 400 (rows of 100 floats): offsets in the line 400 l mod 128 =
 *     16 (l mod 8): 0, 16, ..., 112.  Halves (2 parts of 64 B): l mod 8 in
 *     0..3 -> half 0, 4..7 -> half 1: 16 lines each -> 16 slots; quarters
 *     (the 4 sectors): 2 of every 8 lanes a sector -> 8 slots; one part:
 *     32 (the 32 lines);
 *   stride 384 (rows of 96 floats): every lane at offset 0 -> 32 slots
 *     whatever the parts;
 *   stride 64: 16 lines, each touched in sectors 0 and 2 (lanes 2i, 2i+1):
 *     a line spanning two parts takes a slot in each -> 16 with halves and
 *     with quarters;
 *   stride 4 (coalesced): one line, all 4 sectors -> 1 slot.
 * l1_lines stays the distinct lines (32, 32, 16, 1) a request. */
static void test_l1_line_groups(void **state)
{
    (void)state;
    static const struct {
        int64_t stride;
        double lines, slots[3]; /* 1, 2, 4 parts */
    } cases[] = {
        {400, 32, {32, 16, 8}},
        {384, 32, {32, 32, 32}},
        {64, 16, {16, 16, 16}},
        {4, 1, {1, 1, 1}},
    };
    static const uint32_t parts[3] = {1, 2, 4};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        for (int g = 0; g < 3; g++) {
            csim_config c = gpu_cfg(64 << 10, 1 << 20);
            c.l1_line_groups = parts[g];
            cachesim *s = csim_new(&c, 1, 1);
            assert_non_null(s);
            req32(s, CSIM_LOAD, 0, cases[i].stride, 0); /* L1 cold */
            double cold = csim_total(s).l1_slots;
            /* a cold line goes through the miss path, one a cycle */
            assert_true(cold == cases[i].lines);
            req32(s, CSIM_LOAD, 0, cases[i].stride, 0); /* every line hits */
            csim_stats t = csim_total(s);
            t.l1_slots -= cold;
            assert_true(t.l1_lines == 2 * cases[i].lines);
            if (t.l1_slots != cases[i].slots[g])
                fail_msg("stride %lld, %u parts: %g slots, want %g",
                         (long long)cases[i].stride, parts[g], t.l1_slots,
                         cases[i].slots[g]);
            csim_free(s);
        }
    /* more parts than sectors: counted per sector (4 parts) */
    csim_config c = gpu_cfg(64 << 10, 1 << 20);
    c.l1_line_groups = 32;
    cachesim *s = csim_new(&c, 1, 1);
    req32(s, CSIM_LOAD, 0, 400, 0);
    req32(s, CSIM_LOAD, 0, 400, 0);
    assert_true(csim_total(s).l1_slots == 32 + 8);
    /* stores take no miss path (write-through, no allocation) */
    req32(s, CSIM_STORE, 1 << 20, 400, 0);
    assert_true(csim_total(s).l1_slots == 32 + 8 + 8);
    csim_free(s);
}

/* Partial-sector stores into sectors L2 holds whole or not
 * (l2_partial_open).  A naive transpose's column stores: 8 requests, lane
 * l at 4096 l + 4 k in request k, so each lane's sector gets its 8 words
 * from 8 requests: 256 partial stores, every one into a sector not yet
 * whole (the 8th completes it, but was made before it was whole): 256
 * open.  The same stores after the 32 sectors were read (filled from
 * DRAM): 256 partial, 0 open.  Whole-sector stores (lanes 4 B apart, 4
 * sectors of 32 B) are not partial at all. */
static void test_partial_open(void **state)
{
    (void)state;
    for (int read_first = 0; read_first < 2; read_first++) {
        csim_config c = gpu_cfg(64 << 10, 1 << 20);
        cachesim *s = csim_new(&c, 1, 1);
        assert_non_null(s);
        if (read_first)
            req32(s, CSIM_LOAD, 0, 4096, 0);
        for (int k = 0; k < 8; k++)
            req32(s, CSIM_STORE, (uint64_t)k * 4, 4096, 0);
        csim_stats t = csim_total(s);
        assert_true(t.l2_partial_sectors == 256);
        assert_true(t.l2_partial_open == (read_first ? 0 : 256));
        csim_free(s);
    }
    csim_config c = gpu_cfg(64 << 10, 1 << 20);
    cachesim *s = csim_new(&c, 1, 1);
    req32(s, CSIM_STORE, 0, 4, 0);
    assert_true(csim_total(s).l2_partial_sectors == 0);
    assert_true(csim_total(s).l2_partial_open == 0);
    csim_free(s);
}

/* A run of two 4-byte store instructions a lane sent as one 8-byte request
 * (csim_request_run): the H200 compiler issues them apart.
 *   lanes 48 B apart (8 B at byte 16 of 48-B records): 32 lanes, each its
 *     own sector, 8 of 32 bytes written: the run leaves all 32 sectors
 *     partial, both members write into each: 64 partial stores, all open
 *     (never read, never completed), 64 sectors at L2; DRAM as for one
 *     request (32 sectors read for the fill, 32 written: the members'
 *     split does not change what leaves L2);
 *   lanes 8 B apart (the run completes its 8 sectors): no partial store,
 *     8 sectors at L2, as one request;
 *   the 48-B records as csim_request (one instruction): 32 partial. */
static void test_run_partial_stores(void **state)
{
    (void)state;
    csim_config c = {32, 128, 64 << 10, 4, 0, 1 << 20, 16, 0, 1, 1, 0};
    uint64_t a[32];
    uint32_t z[32], m[64];
    for (int far = 1; far >= 0; far--) {
        for (int l = 0; l < 32; l++) {
            a[l] = far ? 48u * l + 16 : 8u * l;
            z[l] = 8;
            m[l] = 4;      /* member 0: x */
            m[32 + l] = 4; /* member 1: y */
        }
        cachesim *s = csim_new(&c, 1, 1);
        assert_non_null(s);
        csim_request_run(s, 0, CSIM_STORE, a, z, 32, 0, m, 2);
        csim_flush(s);
        csim_stats t = csim_total(s);
        assert_true(t.l2_partial_sectors == (far ? 64 : 0));
        assert_true(t.l2_partial_open == (far ? 64 : 0));
        assert_true(t.l2_sectors == (far ? 64 : 8));
        assert_true(t.dram_rmw_sectors == (far ? 32 : 0));
        assert_true(t.dram_write_bytes == (far ? 32 : 8) * 32);
        csim_free(s);
    }
    for (int l = 0; l < 32; l++)
        a[l] = 48u * l + 16;
    cachesim *s = csim_new(&c, 1, 1);
    csim_request(s, 0, CSIM_STORE, a, z, 32, 0);
    assert_true(csim_total(s).l2_partial_sectors == 32);
    assert_true(csim_total(s).l2_sectors == 32);
    csim_free(s);
}

/* Whole sectors written at write page openings: 32 lanes store a whole
 * 128-byte line, the lines 32 KiB apart (a page each): 4 write-backs, 4
 * pages, 4 whole sectors each, 3 beyond the first: 12; 16 lanes storing
 * half a line (2 sectors): 4 pages, 1 each beyond the first: 4; the lanes
 * storing every other word (half of each sector): 4 pages, no sector
 * whole: 0. */
static void test_line_write_pages(void **state)
{
    (void)state;
    static const struct { uint32_t lanes; int64_t stride; double extra; }
        cases[] = {{32, 4, 12}, {16, 4, 4}, {32, 8, 0}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        csim_config c = {32, 128, 0, 1, 0, 1 << 20, 16, 2048, 0, 1, 0};
        cachesim *s = csim_new(&c, 1, 1);
        assert_non_null(s);
        uint64_t a[32];
        uint32_t z[32];
        for (int k = 0; k < 4; k++) {
            for (uint32_t l = 0; l < cases[i].lanes; l++) {
                a[l] = ((uint64_t)k << 15) + (uint64_t)(l * cases[i].stride);
                z[l] = 4;
            }
            csim_request(s, 0, CSIM_STORE, a, z, cases[i].lanes, 0);
        }
        csim_flush(s);
        csim_stats t = csim_total(s);
        assert_true(t.dram_write_pages == 4);
        assert_true(t.dram_write_page_sectors == cases[i].extra);
        csim_free(s);
    }
}

/* L2 line requests of loads (l2_lines).  A gather: 32 lanes at lines 4
 * KiB + 128 B apart (each its own line), L1 of 16 KiB: 32 line requests of
 * one sector each (32 sectors).  Lanes 32 B apart (the `l2 sectors` row):
 * 8 lines of 4 sectors, 8 requests.  Lanes 4 B apart: 1 line.  The gather
 * again on unit 0 after its L1 lost the lines (a 64 KiB sweep in between)
 * re-fetches 32 lines it fetched itself: not counted; the same gather on
 * unit 1 (another L1): 32 more.  Stores make none. */
static void test_l2_lines(void **state)
{
    (void)state;
    struct { int64_t stride; double lines, sectors; } one[] = {
        {4096 + 128, 32, 32}, {32, 8, 32}, {4, 1, 4}};
    for (int i = 0; i < 3; i++) {
        csim_config c = gpu_cfg(16 << 10, 1 << 20);
        cachesim *s = csim_new(&c, 1, 1);
        assert_non_null(s);
        req32(s, CSIM_LOAD, 0, one[i].stride, 0);
        assert_true(csim_total(s).l2_lines == one[i].lines);
        assert_true(csim_total(s).l2_sectors == one[i].sectors);
        csim_free(s);
    }
    csim_config c = gpu_cfg(16 << 10, 1 << 20);
    cachesim *s = csim_new(&c, 2, 1);
    assert_non_null(s);
    req32(s, CSIM_LOAD, 0, 4096 + 128, 0);
    for (int k = 0; k < 16; k++) /* 64 KiB of other lines through L1 0 */
        req32(s, CSIM_LOAD, (1u << 19) + (uint64_t)k * 4096, 128, 0);
    double before = csim_total(s).l2_lines;
    assert_true(before == 32 + 16 * 32);
    req32(s, CSIM_LOAD, 0, 4096 + 128, 0);
    assert_true(csim_total(s).l2_sectors > 32 + 16 * 32 * 1); /* refetched */
    assert_true(csim_total(s).l2_lines == before);
    uint64_t a[32];
    uint32_t z[32];
    for (int l = 0; l < 32; l++) {
        a[l] = (uint64_t)l * (4096 + 128);
        z[l] = 4;
    }
    csim_request(s, 1, CSIM_LOAD, a, z, 32, 0);
    assert_true(csim_total(s).l2_lines == before + 32);
    req32(s, CSIM_STORE, 1u << 18, 4096 + 128, 0);
    assert_true(csim_total(s).l2_lines == before + 32);
    csim_free(s);
}

/* L2 fetch blocks (fetch_sectors, the profile's l2_fetch_bytes): one
 * 4-byte read per 128-byte line, 32 lanes on 32 consecutive lines (a
 * `dram sector reads` request).  Sector alone: 32 x 32 = 1024 B from DRAM;
 * blocks of 2 sectors: 2048 B, and a second request for the sectors right
 * after (offset 32 in each line) hits L2 (32 hits, no DRAM); offset 64 then
 * misses again (+2048 B).  Blocks of 4: 4096 B, the whole lines, and both
 * later requests hit.  A request of whole lines moves the same with any
 * block (4096 B).  The read-modify-write of a lone 4-byte store reads its
 * sector alone whatever the block (32 B, partial_write_fill). */
static void test_fetch_blocks(void **state)
{
    (void)state;
    const struct { uint32_t f; double first, second, third; } cases[] = {
        {1, 1024, 2048, 3072}, {2, 2048, 2048, 4096}, {4, 4096, 4096, 4096}};
    for (int i = 0; i < 3; i++) {
        csim_config c = gpu_cfg(0, 1 << 20);
        c.fetch_sectors = cases[i].f;
        cachesim *s = csim_new(&c, 1, 1);
        assert_non_null(s);
        req32(s, CSIM_LOAD, 0, 128, 0);
        assert_true(csim_total(s).dram_read_bytes == cases[i].first);
        req32(s, CSIM_LOAD, 32, 128, 0);
        assert_true(csim_total(s).dram_read_bytes == cases[i].second);
        if (cases[i].f >= 2)
            assert_true(csim_total(s).l2_hit_sectors == 32);
        req32(s, CSIM_LOAD, 64, 128, 0);
        assert_true(csim_total(s).dram_read_bytes == cases[i].third);
        req32(s, CSIM_LOAD, 1u << 16, 4, 0); /* a whole line: 4 sectors */
        assert_true(csim_total(s).dram_read_bytes == cases[i].third + 128);
        csim_free(s);
        c.partial_write_fill = 1;
        s = csim_new(&c, 1, 1);
        uint64_t a = 1u << 18;
        uint32_t z = 4;
        csim_request(s, 0, CSIM_STORE, &a, &z, 1, 0);
        csim_flush(s);
        assert_true(csim_total(s).dram_read_bytes == 32);
        assert_true(csim_total(s).dram_write_bytes == 32);
        csim_free(s);
    }
}

static void test_bad_config(void **state)
{
    (void)state;
    csim_config c = {24, 128, 1024, 1, 0, 4096, 1, 0, 0, 1, 0}; /* sector not 2^n */
    assert_null(csim_new(&c, 1, 1));
    csim_config d = {32, 4096, 1024, 1, 0, 4096, 1, 0, 0, 1, 0}; /* 128 sectors a line */
    assert_null(csim_new(&d, 1, 1));
    csim_config e = {32, 128, 0, 1, 0, 64, 1, 0, 0, 1, 0}; /* L2 smaller than a line */
    assert_null(csim_new(&e, 1, 1));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_row_walk),
        cmocka_unit_test(test_transpose_write_merging),
        cmocka_unit_test(test_stencil),
        cmocka_unit_test(test_gather),
        cmocka_unit_test(test_lru_capacity),
        cmocka_unit_test(test_atomics_at_l2),
        cmocka_unit_test(test_dram_pages),
        cmocka_unit_test(test_partial_write_fill),
        cmocka_unit_test(test_l1_line_groups),
        cmocka_unit_test(test_partial_open),
        cmocka_unit_test(test_run_partial_stores),
        cmocka_unit_test(test_line_write_pages),
        cmocka_unit_test(test_l2_lines),
        cmocka_unit_test(test_fetch_blocks),
        cmocka_unit_test(test_bad_config),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
