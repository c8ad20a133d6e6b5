/* test_model_traffic.c - traffic and contention from a kernel's own address
 * stream: GLSL kernels evaluated, their requests simulated through the
 * cache model, results checked against numbers worked out by hand (a row
 * walk reads its compulsory bytes; atomics on few addresses, one atomic per
 * subgroup, shared hashed bins), and the model's terms built on them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include <cmocka.h>

#include "kernel_fixture.h"

#include "checks.h"
#include "eval.h"
#include "model.h"
#include "model_access.h"
#include "model_l2share.h"
#include "model_tlb.h"
#include "model_traffic.h"
#include "plan.h"
#include "profile.h"
#include "report.h"
#include "shader.h"

typedef kfix run;

/* A GPU (tests/unit/traffic_gpu.json): 4 units of 2048 invocations,
 * subgroups of 32, 256 KiB L1 per unit, 32 MiB L2, 32 B sectors in 128 B
 * lines, DRAM 1000 GB/s, atomics 2 ns on one address. */
static void gpu(device_profile *p)
{
    cw_error err;
    if (profile_load_file(cw_root_file("tests/unit/traffic_gpu.json"), p, &err))
        kfix_fail("profile", &err);
}

/* A test's changes to the profile gpu() builds; NULL: none. */
static void (*profile_tweak)(device_profile *p);

/* The kernel evaluated on gpu()'s profile (and profile_tweak's changes),
 * its accesses simulated through the cache model and its time predicted. */
static void run_kernel(run *x, const char *glsl, const char *plan_json)
{
    plan_kernel *k = kfix_open(x, glsl, plan_json);
    gpu(&x->prof);
    if (profile_tweak)
        profile_tweak(&x->prof);
    assert_int_equal(eval_run(&x->m, &x->r, k, &x->prof, &x->kc, x->kr), 0);
    model_traffic_simulate(&x->m, &x->r, k, &x->prof, &x->kc);
    model_predict(&x->kc, &x->r, k, &x->prof, &x->kr->prediction, x->kr);
}

/* run_kernel on a plan of kernel name: groups x 1 x 1 workgroups, one
 * buffer (binding 0) of elements. */
static void run_groups(run *x, const char *glsl, const char *name, int groups, long elements)
{
    char plan_json[512];
    snprintf(plan_json, sizeof plan_json,
             "{\"kernels\":[{\"name\":\"%s\",\"shader\":\"k.comp\","
             "\"workgroups\":[%d,1,1],\"buffers\":["
             "{\"binding\":0,\"elements\":%ld}]}]}", name, groups, elements);
    run_kernel(x, glsl, plan_json);
}

static const access_summary *access_of(const run *x, int store)
{
    for (size_t i = 0; i < x->kc.naccesses; i++)
        if (x->kc.accesses[i].space == SPACE_STORAGE &&
            x->kc.accesses[i].is_store == store)
            return &x->kc.accesses[i];
    return NULL;
}

/* run_kernel with tweak's profile on groups x 1 x 1 workgroups, binding 0
 * of elems0 elements and binding 1 of elems1; its first load (asserted). */
static const access_summary *run_load(run *x, void (*tweak)(device_profile *),
                                      const char *glsl, int groups,
                                      long elems0, long elems1)
{
    char pj[512];
    snprintf(pj, sizeof pj,
             "{\"kernels\":[{\"name\":\"k\",\"shader\":\"k.comp\","
             "\"workgroups\":[%d,1,1],\"buffers\":["
             "{\"binding\":0,\"elements\":%ld},"
             "{\"binding\":1,\"elements\":%ld}]}]}",
             groups, elems0, elems1);
    profile_tweak = tweak;
    run_kernel(x, glsl, pj);
    profile_tweak = NULL;
    const access_summary *a = access_of(x, 0);
    assert_non_null(a);
    return a;
}

static double term(const run *x, const char *name)
{
    const prediction *p = &x->kr->prediction;
    for (size_t i = 0; i < p->nterms; i++)
        if (strcmp(p->terms[i].name, name) == 0)
            return p->terms[i].time_us;
    return -1;
}

#define near(a, b, rel)                                                       \
    assert_true(fabs((double)(a) - (double)(b)) <= (rel) * fabs((double)(b)))

/* Kernels of 256 lanes that read a and write s, lane i. */
#define A_TO_S_HEAD                                                          \
    "#version 450\n"                                                         \
    "layout(local_size_x = 256) in;\n"                                       \
    "layout(set = 0, binding = 0) readonly buffer A { float a[]; };\n"       \
    "layout(set = 0, binding = 1) writeonly buffer S { float s[]; };\n"      \
    "void main() {\n"                                                        \
    "    uint i = gl_GlobalInvocationID.x;\n"

/* Each invocation sums its own row of 256 floats (rows 1 KiB apart): a
 * subgroup request touches 32 sectors in 32 lines, but a sector holds 8
 * floats.  Workgroups of 64: 16 resident per unit share the 256 KiB L1,
 * 16 KiB each, which holds the group's 64 lines: 7 of 8 requests hit.  Per
 * lane execution: 1 sector at L1, 1/8 at L2, 4 bytes from DRAM (the
 * compulsory bytes); the static rule charged a sector per lane from DRAM.
 * With two lines live per lane (TWO_LINES) every request misses L1
 * (capacity), still 4 bytes per execution from DRAM (the L2 holds them). */
/* What both row walks start with: a reads, s[r] gets row r's sum. */
#define ROW_WALK_HEAD                                                        \
    "#version 450\n"                                                         \
    "layout(local_size_x_id = 0) in;\n"                                      \
    "layout(set = 0, binding = 0) readonly buffer A { float a[]; };\n"       \
    "layout(set = 0, binding = 1) writeonly buffer S { float s[]; };\n"      \
    "void main() {\n"                                                        \
    "    uint r = gl_GlobalInvocationID.x;\n"                                \
    "    float acc = 0.0;\n"

static const char *ROW_WALK =
    ROW_WALK_HEAD
    "    for (uint j = 0u; j < 256u; j++)\n"
    "        acc += a[r * 256u + j];\n"
    "    s[r] = acc;\n"
    "}\n";

/* The same walk with two lines live per lane (both halves of the row at
 * once): 2 lines per invocation where the L1 share holds one, so LRU evicts
 * each line before its next use and every request misses L1. */
static const char *TWO_LINES =
    ROW_WALK_HEAD
    "    for (uint j = 0u; j < 128u; j++)\n"
    "        acc += a[r * 256u + j] + a[r * 256u + 128u + j];\n"
    "    s[r] = acc;\n"
    "}\n";

static void test_row_walk(void **state)
{
    (void)state;
    const struct {
        const char *glsl, *plan;
        double l2_per_exec;
    } cases[] = {
        {NULL, "{\"kernels\":[{\"name\":\"rows\",\"shader\":\"k.comp\","
         "\"workgroups\":[256,1,1],\"spec\":{\"0\":64},\"buffers\":["
         "{\"binding\":0,\"elements\":4194304},"
         "{\"binding\":1,\"elements\":16384}]}]}",
         1.0 / 8},
        {TWO_LINES, "{\"kernels\":[{\"name\":\"rows\",\"shader\":\"k.comp\","
         "\"workgroups\":[64,1,1],\"spec\":{\"0\":256},\"buffers\":["
         "{\"binding\":0,\"elements\":4194304},"
         "{\"binding\":1,\"elements\":16384}]}]}",
         1.0},
    };
    for (size_t i = 0; i < 2; i++) {
        run x;
        run_kernel(&x, cases[i].glsl ? cases[i].glsl : ROW_WALK,
                   cases[i].plan);
        assert_true(x.kc.sim);
        const access_summary *ld = access_of(&x, 0);
        assert_non_null(ld);
        assert_true(ld->sim_execs > 0);
        assert_true(ld->sim_unknown == 0);
        near(ld->sim_l1_sectors, 1.0, 1e-9);
        near(ld->sim_l2_sectors, cases[i].l2_per_exec, 0.02);
        near(ld->sim_dram_bytes, 4.0, 1e-9);
        /* the DRAM term is the compulsory 16 MiB + 64 KiB at 1000 GB/s:
         * the other groups of a unit keep far more than this profile's
         * 0.25-B bandwidth-delay product in flight, so the latency path
         * overlaps the transfer (docs/model.md 4.1) */
        near(term(&x, "dram"), (4194304.0 * 4 + 16384 * 4) / 1e6, 1e-6);
        /* the L1 looks up 32 lines a request (128 B per lane execution at
         * 8000 GB/s): it binds, and the uncoalesced finding names it with
         * the simulated 32 sectors a request instead of 4 */
        if (i == 0) {
            /* plus the coalesced stores: one line per 32 invocations */
            near(term(&x, "l1"), (4194304.0 * 128 + 16384 / 32 * 128) / 8e6,
                 1e-9);
            assert_string_equal(x.kr->prediction.bound, "l1");
            const finding *u = NULL;
            for (size_t q = 0; q < x.kr->nfindings; q++)
                if (strcmp(x.kr->findings[q].id, "uncoalesced-access") == 0)
                    u = &x.kr->findings[q];
            assert_non_null(u);
            assert_non_null(strstr(u->message, "32 32-byte transactions per "
                                               "request instead of 4"));
            assert_non_null(strstr(u->message, "(l1 term)"));
        }
        kfix_close(&x);
    }
}

/* Rows of 100 floats (lanes 400 B apart, rows not line-aligned), 16384
 * rows in 256 groups of 64 (16 resident; with a 1 MiB L1, 64 KiB each,
 * more than a group's 200 lines).  At element j lane l reads byte 400 l +
 * 4 j of A, at offset 16 (l mod 8) + 4 j (mod 128) of its own line: the 8
 * offsets are 16 B apart, so exactly 4 of every 8 lanes fall in each
 * 64-byte half of their lines.  With calibrate's row-walk rates saying the
 * L1 serves 2 lines a cycle in different halves (spread 200 G lines/s,
 * one offset 100), a request whose lines hit costs 16 cycles; lines that
 * miss cost one each: at j = 0 all 32 (cold), at j = 0 or 4 mod 8 the 16
 * even or odd lanes entering a new sector (16, no more than the halves'
 * 16).  A subgroup: 32 + 99 x 16 = 1616 slots, 512 subgroups x 1616 x
 * 128 B = 105906176 B at 8000 GB/s = 13.238 us, plus the coalesced stores
 * (512 requests of one line, 65536 B, 0.008 us): 13.247 us; without the
 * two rates 32 cycles a request: 26.2 us.
 * l1_line_groups: ratio 1.5 is one group, 1.7 two, 3.9 four, unknown one. */
static const char *ROWS_100 =
    ROW_WALK_HEAD
    "    for (uint j = 0u; j < 100u; j++)\n"
    "        acc += a[r * 100u + j];\n"
    "    s[r] = acc;\n"
    "}\n";

static void line_groups_2(device_profile *p)
{
    p->l1_row_lines_gops = 100;
    p->l1_spread_lines_gops = 200;
    p->l1_bytes = 1u << 20; /* 64 KiB a group: its 200 lines stay */
}

static void test_l1_line_groups(void **state)
{
    (void)state;
    static const char rows_plan[] =
        "{\"kernels\":[{\"name\":\"rows100\",\"shader\":\"k.comp\","
        "\"workgroups\":[256,1,1],\"spec\":{\"0\":64},\"buffers\":["
        "{\"binding\":0,\"elements\":1638400},"
        "{\"binding\":1,\"elements\":16384}]}]}";
    const double want[2] = {(1638400.0 / 32 * 32 * 128 + 65536) / 8e6,
                            (512.0 * 1616 * 128 + 65536) / 8e6};
    for (int g = 0; g < 2; g++) {
        run x;
        profile_tweak = g ? line_groups_2 : NULL;
        run_kernel(&x, ROWS_100, rows_plan);
        profile_tweak = NULL;
        assert_true(x.kc.sim);
        if (fabs(term(&x, "l1") - want[g]) > 1e-6 * want[g])
            fail_msg("groups %d: l1 %.6f us, want %.6f", g, term(&x, "l1"), want[g]);
        kfix_close(&x);
    }
    /* the same rows in groups of one subgroup (512 of 32): the loop's
     * next load by the same lanes is a new request (the lanes repeat),
     * not more lanes of the last one: 32 lines a request, 26.2 us again */
    run y;
    run_kernel(&y, ROWS_100,
               "{\"kernels\":[{\"name\":\"rows100\",\"shader\":\"k.comp\","
               "\"workgroups\":[512,1,1],\"spec\":{\"0\":32},\"buffers\":["
               "{\"binding\":0,\"elements\":1638400},"
               "{\"binding\":1,\"elements\":16384}]}]}");
    near(term(&y, "l1"), want[0], 1e-6);
    kfix_close(&y);
    device_profile p;
    gpu(&p);
    assert_int_equal(l1_line_groups(&p), 1);
    static const struct { double ratio; uint32_t groups; } r[] = {
        {1.0, 1}, {1.5, 1}, {1.7, 2}, {2.0, 2}, {3.9, 4}, {8.0, 8}};
    for (size_t i = 0; i < sizeof r / sizeof r[0]; i++) {
        p.l1_row_lines_gops = 50;
        p.l1_spread_lines_gops = 50 * r[i].ratio;
        assert_int_equal(l1_line_groups(&p), r[i].groups);
    }
}

/* A vertical 3-point stencil on 8 rows of 512 floats, 8 x 8 groups of 64
 * (group (x, y) sums rows y-1, y, y+1 of its 64 columns, clamped): loads
 * A (row y-1), B (row y), C (row y+1).  64 groups: windows of 4 at the
 * start (groups 0-3, row 0), middle (28-31, row 3) and end (60-63, row 7).
 * The middle and end windows first run their neighbours a row of groups
 * (8) earlier: 20-23 (row 2, reading rows 1-3) and 52-55 (row 6, reading
 * 5-7), which leave those rows in L2 only (L1s and counts forgotten).
 * DRAM bytes, 256 a row segment of a group:
 *   start: A row 0 misses (256), B row 0 hits L1, C row 1 misses (256);
 *   middle: A row 2, B row 3 hit L2, C row 4 misses (256);
 *   end: A row 6, B row 7 hit L2, C row 7 hits L1.
 * Over 12 groups x 64 executions: A 4 x 256 / 768 = 1.333 B an execution,
 * B 0, C 8 x 256 / 768 = 2.667.  Without the neighbours A would be 4.0
 * and B 2.667 (every window cold). */
static const char *STENCIL_ROWS =
    "#version 450\n"
    "layout(local_size_x = 64) in;\n"
    "layout(set = 0, binding = 0) readonly buffer I { float src[]; };\n"
    "layout(set = 0, binding = 1) writeonly buffer O { float dst[]; };\n"
    "void main() {\n"
    "    uint x = gl_GlobalInvocationID.x, y = gl_GlobalInvocationID.y;\n"
    "    uint ym = y > 0u ? y - 1u : 0u, yp = min(y + 1u, 7u);\n"
    "    float a = src[ym * 512u + x];\n"
    "    float b = src[y * 512u + x];\n"
    "    float c = src[yp * 512u + x];\n"
    "    dst[y * 512u + x] = a + b + c;\n"
    "}\n";

static void test_stencil_row_neighbours(void **state)
{
    (void)state;
    run x;
    run_kernel(&x, STENCIL_ROWS,
               "{\"kernels\":[{\"name\":\"rows3\",\"shader\":\"k.comp\","
               "\"workgroups\":[8,8,1],\"buffers\":["
               "{\"binding\":0,\"elements\":4096},"
               "{\"binding\":1,\"elements\":4096}]}]}");
    assert_true(x.kc.sim);
    const double want[3] = {4.0 / 3, 0, 8.0 / 3};
    int n = 0;
    for (size_t i = 0; i < x.kc.naccesses && n < 3; i++) {
        const access_summary *a = &x.kc.accesses[i];
        if (a->space != SPACE_STORAGE || a->is_store)
            continue;
        assert_true(a->sim_execs == 768);
        if (fabs(a->sim_dram_bytes - want[n]) > 1e-9)
            fail_msg("load %d: %g DRAM bytes an execution, want %g", n,
                     a->sim_dram_bytes, want[n]);
        n++;
    }
    assert_int_equal(n, 3);
    kfix_close(&x);
}

/* Whole lines stored 32 KiB apart: each 32-lane group writes one 128-byte
 * line, group g at 32 KiB x g, a DRAM page (2048 B) each.  With
 * calibrate's isolated costs of 112 B a read and 254 B a store (32 B
 * sectors), a store's write opening costs 254 - 2 x 32 - (112 - 32) = 110
 * B beyond its sector; a whole line overlaps 128 B of it with its
 * transfer: 110 + 32 - 128 = 14 B are left, 14 / 110 of an opening (each
 * whole sector beyond the first saves 32 / 110).  One
 * opening a line, 32 executions a line: 1 / 32 x 14 / 110 = 0.0039773
 * write pages an execution (0.03125 without the overlap). */
static const char *LINES_APART =
    "#version 450\n"
    "layout(local_size_x = 32) in;\n"
    "layout(set = 0, binding = 0) writeonly buffer O { float dst[]; };\n"
    "void main() {\n"
    "    dst[gl_WorkGroupID.x * 8192u + gl_LocalInvocationID.x] = 1.0;\n"
    "}\n";

static void page_costs(device_profile *p)
{
    p->dram_page_bytes = 2048;
    p->dram_random_read_bytes = 112, p->dram_random_write_bytes = 254;
}

static void test_whole_line_write_pages(void **state)
{
    (void)state;
    run x;
    profile_tweak = page_costs;
    run_groups(&x, LINES_APART, "lines", 64, 64 * 8192);
    const access_summary *st = access_of(&x, 1);
    profile_tweak = NULL;
    assert_true(x.kc.sim);
    assert_non_null(st);
    near(st->sim_dram_write_pages, 1.0 / 32 * 14 / 110, 1e-9);
    kfix_close(&x);
}

/* Per-lane rows of 2 KiB (a DRAM page each), 64 groups of 32 (one
 * subgroup: its 32 lanes touch their 32 pages in every request), 16 a
 * unit on 4 units: all 64 groups at once.  A lane fetches its row's 64
 * sectors from DRAM (8 floats each), the first opening its page; each of
 * the other 63 finds its page open in the sample, touched by its own group
 * with the group's other 31 pages since (stack distance 31).  With
 * dram_open_pages K the device keeps K x 1 (no page shared by groups) / 64
 * of them: K = 2048 keeps 32, all 63 stay open (1 opening per 512 loads);
 * K = 1024 keeps 16, all 63 reopen (64 per 512).  A reopened page priced
 * by `dram row walk` at 272 B a 32-B block against the random read's 112:
 * (272 - 32) / (112 - 32) = 3 read openings each: (1 + 63 x 3) / 512. */
static const char *ROWS_PAGE =
    ROW_WALK_HEAD
    "    for (uint j = 0u; j < 512u; j++)\n"
    "        acc += a[r * 512u + j];\n"
    "    s[r] = acc;\n"
    "}\n";

static uint32_t open_pages_k;
static double walk_bytes;

static void walk_pages(device_profile *p)
{
    page_costs(p);
    p->dram_open_pages = open_pages_k;
    p->dram_walk_fetch_bytes = walk_bytes;
}

static void test_row_walk_pages(void **state)
{
    (void)state;
    static const char walk_plan[] =
        "{\"kernels\":[{\"name\":\"rows\",\"shader\":\"k.comp\","
        "\"workgroups\":[64,1,1],\"spec\":{\"0\":32},\"buffers\":["
        "{\"binding\":0,\"elements\":1048576},"
        "{\"binding\":1,\"elements\":2048}]}]}";
    const struct {
        uint32_t k;
        double walk, pages;
    } cases[] = {
        {0, -1, 1.0 / 512},   /* no dram_open_pages: the sample's window */
        {2048, -1, 1.0 / 512},
        {1024, -1, 64.0 / 512},
        {1024, 272, (1 + 63 * 3.0) / 512},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        run x;
        open_pages_k = cases[i].k;
        walk_bytes = cases[i].walk;
        profile_tweak = walk_pages;
        run_kernel(&x, ROWS_PAGE, walk_plan);
        profile_tweak = NULL;
        assert_true(x.kc.sim);
        const access_summary *ld = access_of(&x, 0);
        assert_non_null(ld);
        near(ld->sim_dram_bytes, 4.0, 1e-9);
        near(ld->sim_dram_pages, cases[i].pages, 1e-9);
        kfix_close(&x);
    }
}

/* The kernel's memory time a hot atomic unit does not overlap (model.c
 * atomic_term): its DRAM or L2 term, whichever is larger. */
static double memory_us(const run *x)
{
    return fmax(term(x, "dram"), term(x, "l2"));
}

/* run_groups over 64 groups, simulated: its atomics (the workgroup-memory
 * ones when shared) make `requests` requests (< 0: not checked), the
 * busiest address takes `busiest` of them, the atomic term is atomic_us
 * (global atomics: what queues at the hot address or unit) plus, for
 * global ones, memory_us.  x stays open. */
static void run_atomics(run *x, const char *glsl, const char *name, long elements, int shared,
                        double requests, double busiest, double atomic_us)
{
    run_groups(x, glsl, name, 64, elements);
    assert_true(x->kc.sim);
    if (requests >= 0)
        near(shared ? x->kc.shared_atomic_requests : x->kc.atomic_requests, requests, 1e-9);
    near(shared ? x->kc.shared_atomic_busiest : x->kc.atomic_busiest, busiest, 1e-9);
    near(term(x, "atomic"), atomic_us + (shared ? 0 : memory_us(x)), 1e-9);
}

/* Global atomics on 8 addresses (hashed by invocation): with combining,
 * one subgroup instruction makes 8 requests (one per address), so 64 x 256
 * invocations make 16384 / 4 = 4096 requests, 512 on each address, and
 * every workgroup shares the addresses: the busiest takes 512 x 2 ns. */
static const char *FEW_BINS =
    "#version 450\n"
    "layout(local_size_x = 256) in;\n"
    "layout(set = 0, binding = 0) buffer H { uint h[]; };\n"
    "void main() {\n"
    "    atomicAdd(h[(gl_GlobalInvocationID.x * 5u) % 8u], 1u);\n"
    "}\n";

static void test_atomics_few_addresses(void **state)
{
    (void)state;
    run x;
    run_atomics(&x, FEW_BINS, "bins", 8, 0, 4096, 512, fmax(4096 / 100e3, 512 * 2e-3));
    /* addresses known: no range */
    assert_true(x.kr->prediction.time_high_us == 0);
    kfix_close(&x);
}

/* The same kernel priced at the L2 atomic unit: 128-byte lines queue per
 * 1 KiB block, 0.5 ns per line request, a sector pass 8 words x 0.75 =
 * 6 ns.  Each of the 512 subgroup instructions puts its 32 lanes on the 8
 * words of one sector, 4 lanes on each: 4 passes, 0.5 + 4 x 6 = 24.5 ns,
 * 12.544 us over the dispatch.  The busiest address (512 requests x 2 ns
 * = 1.024 us: atomics serialise per word; the line's 8 words are the
 * unit's work, not one address's) and the rate (4096 / 100 Gop/s) are
 * below it: the unit binds. */
static void slice_profile(device_profile *p)
{
    p->atomic_unit_bytes = 128;
    p->atomic_slice_bytes = 1024;
    p->atomic_request_ns = 0.5;
    p->atomic_line_ns = 0.75;
}

static void test_atomics_slice_unit(void **state)
{
    (void)state;
    run x;
    profile_tweak = slice_profile;
    run_atomics(&x, FEW_BINS, "bins", 8, 0, -1, 512, 12.544);
    profile_tweak = NULL;
    near(x.kc.atomic_slice_us, 512 * 24.5e-3, 1e-9);
    kfix_close(&x);
    /* without the unit's constants the term is the busiest line's */
    run_groups(&x, FEW_BINS, "bins", 64, 8);
    assert_true(x.kc.atomic_slice_us == 0);
    kfix_close(&x);
}

/* slice_profile's unit with its lines on two queues (line parity) */
static void two_queues(device_profile *p)
{
    slice_profile(p);
    p->atomic_unit_queues = 2;
}

/* A histogram's flush: each of 64 groups of 256 adds lane l's value to
 * word l of 256 counters (1 KiB: the 8 lines of one block), one whole
 * line an instruction, 8 instructions a group, line k on queue k mod 2.
 * At slice_profile's costs with 2 queues: the front takes the 8 line
 * requests, 8 x 0.5 = 4 ns a group; each queue 4 lines x 4 sector passes
 * x 6 ns = 96 ns, the two side by side: 100 ns a group, 6.4 us over the
 * dispatch (an instruction at a time, 8 x (0.5 + 24) = 196 ns: 12.544 us;
 * la_flush, the H200 probe of this shape: predicted 2.2x its 80.8 us so).
 * FLUSH_AFTER_LOADS first reads 256 words a lane (a grid-stride loop over
 * 16 MiB): the flush queues after the loads, the atomic term is 6.4 us
 * plus the kernel's DRAM (or L2) time. */
static const char *FLUSH =
    "#version 450\n"
    "layout(local_size_x = 256) in;\n"
    "layout(set = 0, binding = 0) buffer H { uint h[]; };\n"
    "layout(set = 0, binding = 1) readonly buffer S { uint s[]; };\n"
    "void main() {\n"
    "    atomicAdd(h[gl_LocalInvocationID.x], 1u);\n"
    "}\n";
static const char *FLUSH_AFTER_LOADS =
    "#version 450\n"
    "layout(local_size_x = 256) in;\n"
    "layout(set = 0, binding = 0) buffer H { uint h[]; };\n"
    "layout(set = 0, binding = 1) readonly buffer S { uint s[]; };\n"
    "void main() {\n"
    "    uint acc = 0u, i = gl_GlobalInvocationID.x;\n"
    "    for (uint k = 0u; k < 256u; k++, i += 16384u)\n"
    "        acc += s[i];\n"
    "    barrier();\n"
    "    atomicAdd(h[gl_LocalInvocationID.x], acc);\n"
    "}\n";

static void test_flush_queues(void **state)
{
    (void)state;
    static const char *plan_json =
        "{\"kernels\":[{\"name\":\"fl\",\"shader\":\"k.comp\","
        "\"workgroups\":[64,1,1],\"buffers\":["
        "{\"binding\":0,\"elements\":256},"
        "{\"binding\":1,\"elements\":4194304}]}]}";
    run x;
    profile_tweak = two_queues;
    run_kernel(&x, FLUSH, plan_json);
    assert_true(x.kc.sim);
    near(x.kc.atomic_slice_us, 6.4, 1e-9);
    near(term(&x, "atomic"), 6.4 + memory_us(&x), 1e-9);
    kfix_close(&x);
    run_kernel(&x, FLUSH_AFTER_LOADS, plan_json);
    profile_tweak = NULL;
    assert_true(x.kc.sim);
    near(x.kc.atomic_slice_us, 6.4, 1e-9);
    /* 16 MiB of loads: more memory time than the flush's own */
    assert_true(term(&x, "dram") > 6.4);
    near(term(&x, "atomic"), 6.4 + memory_us(&x), 1e-9);
    assert_string_equal(x.kr->prediction.bound, "atomic");
    kfix_close(&x);
}

/* Global atomics in a loop whose trip count is a key's: 2 + (key >> 4)
 * trips, 2 for the runner's contents (unsigned elements below 16).  The
 * evaluator, which may not rely on random contents, assumes a count; the
 * simulation, which runs the sampled groups with them where an address
 * depends on them (here the same key, adding 0), decides the loop, so the
 * dispatch's atomic executions are its: 64 x 256 lanes x 2 = 32768, lane
 * i on word (5i + j) mod 8, a subgroup's 32 lanes on 8 words: 8 requests an
 * instruction with combining, 32768 / 4 = 8192 requests, 1024 on each
 * word. */
static const char *KEYED_TRIPS =
    "#version 450\n"
    "layout(local_size_x = 256) in;\n"
    "layout(set = 0, binding = 0) buffer H { uint h[]; };\n"
    "layout(set = 0, binding = 1) readonly buffer K { uint key[]; };\n"
    "void main() {\n"
    "    uint i = gl_GlobalInvocationID.x, reps = 2u + (key[i] >> 4);\n"
    "    for (uint j = 0u; j < reps; j++)\n"
    "        atomicAdd(h[(i * 5u + j) % 8u + (key[i] >> 4)], 1u);\n"
    "}\n";

/* A switch on a key the plan does not give: the evaluator assumes the
 * default, a guess like a branch's on contents, so the executions under
 * it are assumed (verifier.h control_from_contents); the same switch on
 * the lane's index decides every case and assumes nothing. */
#define SWITCH_KERNEL(SEL)                                                    \
    "#version 450\n"                                                         \
    "layout(local_size_x = 256) in;\n"                                       \
    "layout(set = 0, binding = 0) buffer H { uint h[]; };\n"                 \
    "layout(set = 0, binding = 1) readonly buffer K { uint key[]; };\n"      \
    "void main() {\n"                                                        \
    "    uint i = gl_GlobalInvocationID.x, v = 0u;\n"                        \
    "    switch (" SEL " & 3u) {\n"                                           \
    "    case 1u: v = key[i] * 3u; break;\n"                                 \
    "    case 2u: v = key[i] + 7u; break;\n"                                 \
    "    default: v = 1u; break;\n"                                          \
    "    }\n"                                                                \
    "    h[i] = v;\n"                                                        \
    "}\n"

static void test_switch_on_contents_assumed(void **state)
{
    (void)state;
    static const char *sw_plan =
        "{\"kernels\":[{\"name\":\"sw\",\"shader\":\"k.comp\","
        "\"workgroups\":[4,1,1],\"buffers\":["
        "{\"binding\":0,\"elements\":1024},"
        "{\"binding\":1,\"elements\":1024}]}]}";
    run x, y;
    run_kernel(&x, SWITCH_KERNEL("key[i]"), sw_plan);
    assert_true(x.kc.control_from_contents);
    kfix_close(&x);
    run_kernel(&y, SWITCH_KERNEL("i"), sw_plan);
    assert_false(y.kc.control_from_contents);
    kfix_close(&y);
}

/* kernel glsl run on 64 groups of 256 lanes with KEYED_TRIPS's buffers
 * (h: 8 words, key: a lane's); returns its atomics' evaluator count. */
static double run_keyed(run *x, const char *glsl)
{
    run_kernel(x, glsl,
               "{\"kernels\":[{\"name\":\"kt\",\"shader\":\"k.comp\","
               "\"workgroups\":[64,1,1],\"buffers\":["
               "{\"binding\":0,\"elements\":8},"
               "{\"binding\":1,\"elements\":16384}]}]}");
    assert_true(x->kc.sim && x->kc.control_from_contents);
    double counted = 0;
    for (size_t i = 0; i < x->kc.naccesses; i++)
        if (x->kc.accesses[i].is_atomic)
            counted += x->kc.accesses[i].count;
    return counted;
}

static void test_trips_from_contents(void **state)
{
    (void)state;
    run x;
    /* more than the evaluator's assumed trips */
    assert_true(run_keyed(&x, KEYED_TRIPS) > 32768);
    near(x.kc.atomic_requests, 8192, 1e-9);
    near(x.kc.atomic_busiest, 1024, 1e-9);
    kfix_close(&x);
}

/* KEYED_TRIPS behind a chain of 400 multiply-adds: a module of over 1,600
 * instructions, 256 lanes and no shared memory, so the evaluator and the
 * simulation run 64 of each group's lanes (the first and last subgroup)
 * and scale.  The simulation's own executions stand for 64 lanes of 256,
 * so the dispatch's atomic executions are the evaluator's lane-scaled
 * count: 64 x 256 lanes x 66 trips (2 the key's range decides, reps >= 2,
 * then the 64 assumed of a loop on contents) = 1081344, not the
 * sample's (64 lanes a group, the runner's contents' 2 trips). */
static const char *KEYED_TRIPS_LONG =
    "#version 450\n"
    "layout(local_size_x = 256) in;\n"
    "layout(set = 0, binding = 0) buffer H { uint h[]; };\n"
    "layout(set = 0, binding = 1) readonly buffer K { uint key[]; };\n"
    "void main() {\n"
    "    uint i = gl_GlobalInvocationID.x, reps = 2u + (key[i] >> 4), x = i;\n"
    "%s"
    "    for (uint j = 0u; j < reps; j++)\n"
    "        atomicAdd(h[(i * 5u + j) %% 8u + (key[i] >> 4)], 1u + (x & 0u));\n"
    "}\n";

static void test_trips_from_contents_sampled(void **state)
{
    (void)state;
    static const char step[] = "    x = x * 1664525u + 1013904223u;\n";
    static char chain[400 * sizeof step], glsl[sizeof chain + 1024];
    for (int k = 0; k < 400; k++)
        memcpy(chain + k * (sizeof step - 1), step, sizeof step);
    snprintf(glsl, sizeof glsl, KEYED_TRIPS_LONG, chain);
    run x;
    near(run_keyed(&x, glsl), 64 * 256 * 66.0, 1e-9);
    /* 8 requests an instruction of 32 lanes (combining), 1 in 8 a word */
    near(x.kc.atomic_requests, 64 * 256 * 66.0 / 4, 1e-9);
    near(x.kc.atomic_busiest, 64 * 256 * 66.0 / 32, 1e-9);
    kfix_close(&x);
}

/* Scattered atomics: lane i adds 8 times to word 32 i (one a line) of a
 * 2 MiB table, 64 x 256 lanes, each alone in its sector: 131072 sector
 * passes.  The distinct-address rate (100 Gop/s, calibrate's lanes on
 * neighbouring words, 8 to a 32-byte sector pass) is 12.5 G passes/s:
 * 131072 / 12.5e3 = 10.48576 us, where the lanes at 100 Gop/s would take
 * 1.31072.  The busiest unit (2048 blocks of 8 lines) and the memory time
 * (each sector from DRAM once) are below. */
static const char *SCATTER_LINES =
    "#version 450\n"
    "layout(local_size_x = 256) in;\n"
    "layout(set = 0, binding = 0) buffer T { uint t[]; };\n"
    "void main() {\n"
    "    for (uint k = 0u; k < 8u; k++)\n"
    "        atomicAdd(t[gl_GlobalInvocationID.x * 32u], k);\n"
    "}\n";

static void test_scatter_passes(void **state)
{
    (void)state;
    run x;
    profile_tweak = slice_profile;
    run_groups(&x, SCATTER_LINES, "sc", 64, 16384 * 32);
    profile_tweak = NULL;
    assert_true(x.kc.sim);
    near(x.kc.atomic_passes, 131072, 1e-9);
    assert_true(x.kc.atomic_slice_us + memory_us(&x) < 10.48576);
    near(term(&x, "atomic"), 10.48576, 1e-9);
    kfix_close(&x);
}

/* One atomic per subgroup on one address: 64 groups x 8 subgroups = 512
 * requests, all on the same address. */
static const char *PER_SUBGROUP =
    "#version 450\n"
    "#extension GL_KHR_shader_subgroup_basic : require\n"
    "layout(local_size_x = 256) in;\n"
    "layout(set = 0, binding = 0) buffer C { uint c; };\n"
    "void main() {\n"
    "    if (subgroupElect())\n"
    "        atomicAdd(c, 1u);\n"
    "}\n";

static void test_atomic_per_subgroup(void **state)
{
    (void)state;
    run x;
    run_atomics(&x, PER_SUBGROUP, "elect", 1, 0, 512, 512, 512 * 2e-3);
    kfix_close(&x);
}

/* Workgroup-memory atomics over 4 hashed bins, not combined: 256 lanes per
 * group, 64 on each bin, one after another at 1 ns; 64 groups on 4 units
 * of 8 resident (2048 / 256): one wave. */
static const char *SHARED_BINS =
    "#version 450\n"
    "layout(local_size_x = 256) in;\n"
    "layout(set = 0, binding = 0) buffer O { uint o[]; };\n"
    "shared uint bins[4];\n"
    "void main() {\n"
    "    uint l = gl_LocalInvocationID.x;\n"
    "    if (l < 4u) bins[l] = 0u;\n"
    "    barrier();\n"
    "    atomicAdd(bins[(l * 3u) % 4u], 1u);\n"
    "    barrier();\n"
    "    if (l < 4u) o[gl_WorkGroupID.x * 4u + l] = bins[l];\n"
    "}\n";

static void test_shared_hashed_bins(void **state)
{
    (void)state;
    run x;
    /* serial: 2 waves (64 groups on 4 x 8 slots) x 64 x 1 ns; rate:
     * 16384 / 1000 Gop/s = 16.4 ns: serial binds */
    run_atomics(&x, SHARED_BINS, "sbins", 256, 1, 64 * 256, 64, 2 * 64 * 1e-3);
    kfix_close(&x);
}

/* Workgroup-memory bins 32 words apart: lane l on word 32l mod 256, so a
 * subgroup's 32 lanes hit 8 words (4 lanes each), all in bank 0 of 32: an
 * 8-way bank conflict, 8 passes of 32 lane slots.  Rate: 64 groups x 8
 * subgroups x 256 slots / 1000 Gop/s = 131.072 ns.  Serial: each word
 * takes 32 of a group's 256 lanes, 2 waves x 32 x 1 ns = 64 ns.  The
 * conflicts bind (conflict-free the rate term would be 16.4 ns). */
static const char *SHARED_BANK_BINS =
    "#version 450\n"
    "layout(local_size_x = 256) in;\n"
    "layout(set = 0, binding = 0) buffer O { uint o[]; };\n"
    "shared uint bins[256];\n"
    "void main() {\n"
    "    uint l = gl_LocalInvocationID.x;\n"
    "    bins[l] = 0u;\n"
    "    barrier();\n"
    "    atomicAdd(bins[(l * 32u) % 256u], 1u);\n"
    "    barrier();\n"
    "    o[gl_WorkGroupID.x * 4u + (l & 3u)] = bins[l];\n"
    "}\n";

static void test_shared_bank_conflicts(void **state)
{
    (void)state;
    run x;
    run_atomics(&x, SHARED_BANK_BINS, "sbank", 256, 1, 64 * 8 * 256, 32, 131.072e-3);
    kfix_close(&x);
}

/* Bank conflicts from the simulated addresses of workgroup-memory loads
 * and stores (no atomics).  Per subgroup of 32 lanes:
 *   - tile[(l % 16) * 64 + l / 16]: lanes 0-15 on words 0, 64, ..., 960
 *     (all bank 0), lanes 16-31 on words 1, 65, ... (bank 1): 16 passes
 *     where 32 distinct words need 1: degree 16.  Lanes 0 and 1 are 64
 *     words apart, so a stride rule extrapolating them says 32;
 *   - t4[l] = vec4: lane l on words 4l..4l+3, 128 distinct words, 4 in
 *     every bank: 4 passes, and 128 words need 4 at least: degree 1;
 *   - t4[l].x: words 4l, 8 banks with 4 words each: degree 4. */
static const char *SHARED_PASSES =
    "#version 450\n"
    "layout(local_size_x = 256) in;\n"
    "layout(set = 0, binding = 0) writeonly buffer O { float o[]; };\n"
    "shared float tile[1024];\n"
    "shared vec4 t4[256];\n"
    "void main() {\n"
    "    uint l = gl_LocalInvocationID.x;\n"
    "    tile[(l % 16u) * 64u + l / 16u] = float(l);\n"
    "    t4[l] = vec4(float(l));\n"
    "    barrier();\n"
    "    o[gl_GlobalInvocationID.x] = t4[l].x + tile[l];\n"
    "}\n";

static void test_shared_bank_passes(void **state)
{
    (void)state;
    run x;
    run_groups(&x, SHARED_PASSES, "spass", 64, 16384);
    assert_true(x.kc.sim);
    int seen = 0;
    for (size_t i = 0; i < x.kc.naccesses; i++) {
        const access_summary *a = &x.kc.accesses[i];
        if (a->space != SPACE_SHARED)
            continue;
        /* source lines 8 and 9: the stores; 11: t4[l].x (16 B apart),
         * then tile[l] */
        int t4x = a->line == 11 && a->lane_stride_bytes == 16;
        double want = a->line == 8 ? 16 : t4x ? 4 : 1;
        near(a->sim_bank_degree, want, 1e-9);
        seen |= a->line == 8 ? 1 : a->line == 9 ? 2 : t4x ? 4 : 8;
    }
    assert_int_equal(seen, 15);
    /* the shared term, bytes x degree per lane: 4 x 16 (tile store) +
     * 16 x 1 (vec4 store) + 4 x 4 (t4[l].x) + 4 x 1 (tile[l]) = 100 B,
     * x 16384 lanes = 1638400 B at 8000 GB/s = 204.8 ns */
    near(term(&x, "shared"), 1638400.0 / 8e6, 1e-9);
    kfix_close(&x);
}

/* Write merging: lane i stores dst[i * S].  S = 8 (32 bytes apart): every
 * lane writes 4 bytes of its own sector and no other store completes it,
 * so each of the 16384 sectors is read from DRAM before its write-back:
 * 16384 x 32 = 524288 bytes (partial-sector-write).  S = 1: the subgroup
 * fills whole sectors, nothing is read, no finding. */
static const char *STRIDED_STORE =
    "#version 450\n"
    "layout(local_size_x = 256) in;\n"
    "layout(constant_id = 0) const uint S = 1u;\n"
    "layout(set = 0, binding = 0) readonly buffer I { float src[]; };\n"
    "layout(set = 0, binding = 1) writeonly buffer O { float dst[]; };\n"
    "void main() {\n"
    "    uint i = gl_GlobalInvocationID.x;\n"
    "    dst[i * S] = src[i];\n"
    "}\n";

static void fill_partial(device_profile *p)
{
    p->partial_write_fill = 1;
    p->l2_partial_write_gops = 100;
}

static void fill_partial_stream(device_profile *p)
{
    fill_partial(p);
    p->l2_partial_stream_gops = 50;
}

/* l2_term_us on hand-made counts: 3200 bytes at L2 (100 sectors of 32 B)
 * at 100 B/us, 40 of the sectors partial stores, 10 of those into sectors
 * L2 did not hold whole.  Partial rate 0.01 G/s (10 per us), stream rate
 * 0.005 (5 per us): (3200 - 40 x 32) / 100 + 30 / 10 + 10 / 5 = 24.2 us;
 * without the stream rate all 40 at 10 per us: 19.2 + 4 = 23.2; without
 * either, all bytes at 100 B/us: 32. */
static void test_l2_term_partial_rates(void **state)
{
    (void)state;
    device_profile p;
    gpu(&p);
    p.l2_partial_write_gops = 0.01;
    p.l2_partial_stream_gops = 0.005;
    near(l2_term_us(&p, 3200, 32, 100, 40, 10), 24.2, 1e-12);
    p.l2_partial_stream_gops = -1;
    near(l2_term_us(&p, 3200, 32, 100, 40, 10), 23.2, 1e-12);
    p.l2_partial_write_gops = -1;
    near(l2_term_us(&p, 3200, 32, 100, 40, 10), 32, 1e-12);
}

/* Gathers over a shared table (model_l2share.h), by hand: a 32 MiB L2 of
 * 128-byte lines in 2 partitions holds K = 16 MiB / 128 = 131072 lines of
 * a table every unit reads; a 32 MiB table is N = 262144 lines, K/N = 0.5,
 * 4 sectors a line: h = 1 - 0.5^(1/4) = 0.159104.  One partition: K = N,
 * everything hits but the first request of a sector: with 100 requests a
 * sector 0.99.  1.1 requests a sector cap it at 1 - 1/1.1 = 0.0909;
 * partitions unknown: 0 (off). */
static void test_shared_table_hits(void **state)
{
    (void)state;
    device_profile p;
    gpu(&p);
    p.l2_bytes = 32u << 20;
    p.line_bytes = 128;
    p.l2_partitions = 2;
    double mib32 = 32.0 * (1 << 20);
    near(l2_shared_hit_fraction(&p, mib32, 100, 4), 1 - pow(0.5, 0.25), 1e-12);
    near(l2_shared_hit_fraction(&p, mib32, 100, 4), 0.159104, 1e-5);
    near(l2_shared_hit_fraction(&p, mib32, 1.1, 4), 1 - 1 / 1.1, 1e-12);
    p.l2_partitions = 1;
    near(l2_shared_hit_fraction(&p, mib32, 100, 4), 0.99, 1e-12);
    p.l2_partitions = 0;
    assert_true(l2_shared_hit_fraction(&p, mib32, 100, 4) == 0);
}

/* l2_lines_us: 2 M line requests at 100 G lines/s (1e5 per us) = 20 us;
 * unknown rate: 0 (the term is the byte/sector one alone). */
static void test_l2_lines_us(void **state)
{
    (void)state;
    device_profile p;
    gpu(&p);
    p.l2_line_gops = 100;
    near(l2_lines_us(&p, 2e6), 20, 1e-12);
    p.l2_line_gops = -1;
    near(l2_lines_us(&p, 2e6), 0, 0);
}

/* The L2's line lookups (l2_line_gops): a gather of my own, lane i's k-th
 * load at line (4 i + k) mod 8192 of a 1 MiB table (every lane its own
 * line, each load one sector): 64 groups of 256 (16 a unit on 4 units:
 * imbalance 1), 65536 loads = 65536 line requests, 1 an execution.  At the
 * rate a whole line's lookup keeps pace with its bytes, l2_gbs / 128 B =
 * 31.25 G lines/s, they take 65536 / 31250 per us = 2.097152 us, against
 * the bytes' (65536 x 32 B + 64 KiB of stores) / 4000 B/us = 0.540672 us
 * without the rate.  A copy (lanes 4 B apart: 512 lines of 16384 loads,
 * 128 KiB moved) does not move: 512 / 31250 = 0.016384 us < 0.032768. */
static const char *LINE_GATHER =
    "#version 450\n"
    "layout(local_size_x = 256) in;\n"
    "layout(set = 0, binding = 0) readonly buffer T { float table[]; };\n"
    "layout(set = 0, binding = 1) writeonly buffer O { float dst[]; };\n"
    "void main() {\n"
    "    uint i = gl_GlobalInvocationID.x;\n"
    "    float acc = 0.0;\n"
    "    for (uint k = 0u; k < 4u; k++)\n"
    "        acc += table[((i * 4u + k) & 8191u) * 32u];\n"
    "    dst[i] = acc;\n"
    "}\n";

static const char *LINE_COPY =
    "#version 450\n"
    "layout(local_size_x = 256) in;\n"
    "layout(set = 0, binding = 0) readonly buffer T { float table[]; };\n"
    "layout(set = 0, binding = 1) writeonly buffer O { float dst[]; };\n"
    "void main() {\n"
    "    uint i = gl_GlobalInvocationID.x;\n"
    "    dst[i] = table[i];\n"
    "}\n";

static void whole_line_rate(device_profile *p) { p->l2_line_gops = p->l2_gbs / 128; }

static void test_l2_line_lookups(void **state)
{
    (void)state;
    const char *line_plan = "{\"kernels\":[{\"name\":\"g\",\"shader\":\"k.comp\","
                       "\"workgroups\":[64,1,1],\"buffers\":["
                       "{\"binding\":0,\"elements\":262144},"
                       "{\"binding\":1,\"elements\":16384}]}]}";
    const struct { const char *glsl; double lines, with, without; } cases[] = {
        {LINE_GATHER, 1, 2.097152, 0.540672},
        {LINE_COPY, 1.0 / 32, 0.032768, 0.032768}};
    for (int i = 0; i < 2; i++) {
        run x, y;
        profile_tweak = whole_line_rate;
        run_kernel(&x, cases[i].glsl, line_plan);
        profile_tweak = NULL;
        run_kernel(&y, cases[i].glsl, line_plan);
        assert_true(x.kc.sim);
        near(access_of(&x, 0)->sim_l2_lines, cases[i].lines, 1e-9);
        near(term(&x, "l2"), cases[i].with, 1e-9);
        near(term(&y, "l2"), cases[i].without, 1e-9);
        kfix_close(&x);
        kfix_close(&y);
    }
}

/* Translation reach (model_tlb.h), the pure parts by hand: 32 lanes of 4
 * bytes side by side (128 B, one line), or 128 B apart (32 lines, hull
 * 31 x 128 + 4 = 3972 B, not more than 32 lines) are one run; 132 B apart
 * span 31 x 132 + 4 = 4096 = 32 lines, still not more; 256 B apart are
 * scattered.  A reach of
 * 8 MiB against 16 MiB of pages misses half; 4 MiB, none; 1 M misses at
 * 50 G/s (5e4 per us) take 20 us; unknown fields: off. */
static void test_tlb_pure(void **state)
{
    (void)state;
    uint64_t a[32];
    uint32_t sz[32];
    const uint32_t step[4] = {4, 128, 132, 256};
    for (int c = 0; c < 4; c++) {
        for (int l = 0; l < 32; l++) {
            a[l] = 1048576 + (uint64_t)l * step[c];
            sz[l] = 4;
        }
        assert_int_equal(tlb_request_lines(a, 32, 128), c == 0 ? 1 : 32);
        uint32_t lines;
        assert_int_equal(tlb_request_scattered(a, sz, 32, 128, &lines), c == 3);
        assert_int_equal(lines, c == 3 ? 32 : 0);
    }
    /* a tile's two rows of 16 lanes, 16 KiB apart: far apart, but 2 lines
     * for 32 lanes: not scattered */
    for (int l = 0; l < 32; l++)
        a[l] = 1048576 + (uint64_t)(l / 16) * 16384 + (uint64_t)(l % 16) * 4;
    assert_int_equal(tlb_request_lines(a, 32, 128), 2);
    uint32_t two;
    assert_false(tlb_request_scattered(a, sz, 32, 128, &two));
    assert_int_equal(two, 2);
    device_profile p;
    gpu(&p);
    assert_true(tlb_miss_share(&p, 16.0 * (1 << 20)) == 0);
    p.tlb_reach_mib = 8;
    p.tlb_miss_gops = 50;
    near(tlb_miss_share(&p, 16.0 * (1 << 20)), 0.5, 1e-12);
    assert_true(tlb_miss_share(&p, 4.0 * (1 << 20)) == 0);
    near(tlb_miss_us(&p, 1e6), 20, 1e-12);
    p.tlb_miss_gops = -1;
    assert_true(tlb_miss_us(&p, 1e6) == 0);
}

/* Gathers of my own through the translation term: 64 groups of 256 (8
 * resident a unit of 2048), 4 loads a lane, every load its own line, so
 * 65536 L1-missed line requests at 31.25 G lines/s = 2.097152 us (as in
 * test_l2_line_lookups); reach 4 MiB, a miss 1/10 G/s (1e4 per us).
 *  - SHARED: lane l of group g, load k, at line 256 l + 4 g + k: every
 *    group spans the whole table, lines 0 .. 65535 (index span (65535 x
 *    32 + 1) x 4 = 8388484 B; one step of a group (its 8 subgroups' k-th
 *    loads), line 4 g + k to 65280 + 4 g + k, 65280 x 128 + 4 = 8355844
 *    B); the unit's pages are the span (8
 *    groups share it): 1 - 4194304 / 8388484 = 0.4999925 of the requests
 *    miss, 32767.5 misses = 3.276751 us more: l2 5.373903 us.
 *  - WINDOWS: group g in its own 256 KiB (line 2048 g + 8 l + k): a step
 *    spans 255 x 8 x 128 + 4 = 261124 B, 8 resident groups 2088992 B,
 *    within the reach, though the dispatch spans 16 MiB: nothing missed.
 *  - STREAM: lanes on consecutive words, 4 runs 64 KiB apart: contiguous
 *    requests, nothing scattered.
 *  - ATOMICS: SHARED's pattern as atomicAdd: the same line requests reach
 *    L2 (none of them loads) and miss alike. */
/* lane l of group g sums 4 loads (k = 0..3) at table[index] */
#define TLB_GATHER(index)                                                     \
    "#version 450\n"                                                          \
    "layout(local_size_x = 256) in;\n"                                        \
    "layout(set = 0, binding = 0) readonly buffer T { float table[]; };\n"    \
    "layout(set = 0, binding = 1) writeonly buffer O { float dst[]; };\n"     \
    "void main() {\n"                                                         \
    "    uint l = gl_LocalInvocationID.x, g = gl_WorkGroupID.x;\n"            \
    "    float acc = 0.0;\n"                                                  \
    "    for (uint k = 0u; k < 4u; k++)\n"                                    \
    "        acc += table[" index "];\n"                                      \
    "    dst[gl_GlobalInvocationID.x] = acc;\n"                               \
    "}\n"
static const char *TLB_SHARED = TLB_GATHER("(l * 256u + g * 4u + k) * 32u");
static const char *TLB_WINDOWS = TLB_GATHER("(g * 2048u + l * 8u + k) * 32u");

static const char *TLB_STREAM = TLB_GATHER("k * 16384u + g * 256u + l");

/* the SHARED pattern as atomics: every one reaches L2, a line each */
static const char *TLB_ATOMICS =
    "#version 450\n"
    "layout(local_size_x = 256) in;\n"
    "layout(set = 0, binding = 0) buffer T { uint table[]; };\n"
    "void main() {\n"
    "    uint l = gl_LocalInvocationID.x, g = gl_WorkGroupID.x;\n"
    "    for (uint k = 0u; k < 4u; k++)\n"
    "        atomicAdd(table[(l * 256u + g * 4u + k) * 32u], 1u);\n"
    "}\n";

static void tlb_profile(device_profile *p)
{
    whole_line_rate(p);
    p->tlb_reach_mib = 4;
    p->tlb_miss_gops = 10;
}

static void test_tlb_reach(void **state)
{
    (void)state;
    const char *tplan = "{\"kernels\":[{\"name\":\"t\",\"shader\":\"k.comp\","
                       "\"workgroups\":[64,1,1],\"buffers\":["
                       "{\"binding\":0,\"elements\":4194304},"
                       "{\"binding\":1,\"elements\":16384}]}]}";
    const struct { const char *glsl; double miss, l2; } cases[] = {
        {TLB_SHARED, 1 - 4194304.0 / 8388484, 2.097152 + 3.276751},
        {TLB_WINDOWS, 0, 2.097152},
        {TLB_STREAM, 0, -1}};
    for (int i = 0; i < 3; i++) {
        run x;
        profile_tweak = tlb_profile;
        run_kernel(&x, cases[i].glsl, tplan);
        profile_tweak = NULL;
        assert_true(x.kc.sim);
        const access_summary *a = access_of(&x, 0);
        assert_non_null(a);
        near(a->sim_tlb_misses, a->sim_tlb_lines * cases[i].miss, 1e-9);
        if (i < 2) {
            near(a->sim_tlb_lines, 1, 1e-9);
            near(term(&x, "l2"), cases[i].l2, 1e-5);
        } else {
            assert_true(a->sim_tlb_lines == 0);
        }
        if (i == 0) {
            near(a->sim_group_span, 8355844, 1e-12);
            int said = 0;
            for (size_t q = 0; q < x.kr->prediction.nassumptions; q++)
                said |= strstr(x.kr->prediction.assumptions[q],
                               "translation: scattered") != NULL;
            assert_true(said);
        }
        if (i == 1)
            near(a->sim_group_span, 261124, 1e-12);
        kfix_close(&x);
    }
    /* atomics: no load lines, the same 65536 line requests and misses:
     * 32767.5 / 1e4 per us = 3.276751 us in the l2 term */
    run x;
    profile_tweak = tlb_profile;
    run_kernel(&x, TLB_ATOMICS, tplan);
    profile_tweak = NULL;
    const access_summary *a = NULL;
    for (size_t q = 0; q < x.kc.naccesses; q++)
        if (x.kc.accesses[q].is_atomic)
            a = &x.kc.accesses[q];
    assert_non_null(a);
    near(a->sim_tlb_lines, 1, 1e-9);
    near(a->sim_tlb_misses, 1 - 4194304.0 / 8388484, 1e-9);
    near(term(&x, "l2"), 3.276751, 1e-5);
    kfix_close(&x);
}

/* One load instruction whose requests are half contiguous, half
 * scattered: trip 0 reads a[i] (a subgroup's 32 lanes in one 128-B
 * line), trip 1 reads a[65536 + 64 i] (lanes 256 B apart: 32 lines).
 * Every line is new to its L1 (no lane reads another's), so a subgroup's
 * two requests send 1 + 32 lines to L2, of which the scattered request's
 * 32 are the ones whose translations count: 32 lines per 64 lane
 * executions, 0.5 an execution.  A share of all the lines by request
 * count (1 of 2) gave 33 / 2 / 64 = 0.2578. */
static const char *TLB_MIX =
    A_TO_S_HEAD
    "    float acc = 0.0;\n"
    "    for (uint k = 0u; k < 2u; k++) {\n"
    "        uint idx = k == 0u ? i : 65536u + i * 64u;\n"
    "        acc += a[idx];\n"
    "    }\n"
    "    s[i] = acc;\n"
    "}\n";

static void test_tlb_lines_of_scattered_loads(void **state)
{
    (void)state;
    run x;
    const access_summary *a = run_load(&x, tlb_profile, TLB_MIX, 16, 4194304, 4096);
    near(a->sim_l2_lines, 33 / 64.0, 1e-9);
    near(a->sim_tlb_lines, 0.5, 1e-9);
    kfix_close(&x);
}

static void test_partial_sector_write(void **state)
{
    (void)state;
    profile_tweak = fill_partial;
    for (int stride = 1; stride <= 8; stride += 7) {
        char text[512];
        snprintf(text, sizeof text,
                 "{\"kernels\":[{\"name\":\"pw\",\"shader\":\"k.comp\","
                 "\"workgroups\":[64,1,1],\"spec\":{\"0\":%d},\"buffers\":["
                 "{\"binding\":0,\"elements\":16384},"
                 "{\"binding\":1,\"elements\":131072}]}]}", stride);
        run x;
        run_kernel(&x, STRIDED_STORE, text);
        assert_true(x.kc.sim);
        const access_summary *st = access_of(&x, 1);
        assert_non_null(st);
        near(st->sim_dram_rmw_sectors, stride == 8 ? 1 : 0, 1e-9);
        /* at L2 each strided store writes 4 bytes of its sector: partial;
         * with l2_partial_write_gops 100 (1e5 per us) the 16384 of them
         * take 0.16384 us of the l2 term, the loads' 2048 sectors (64 KiB
         * at 4000 GB/s) 0.016384: 0.180224 (DRAM still binds) */
        near(st->sim_l2_partial, stride == 8 ? 1 : 0, 1e-9);
        /* never read and never completed: every one is open */
        near(st->sim_l2_partial_open, stride == 8 ? 1 : 0, 1e-9);
        if (stride == 8)
            near(term(&x, "l2"), 0.180224, 1e-9);
        if (stride == 8) {
            /* with l2_partial_stream_gops 50 (5e4 per us) the open
             * stores take 0.32768 us: 0.344064 */
            run y;
            profile_tweak = fill_partial_stream;
            run_kernel(&y, STRIDED_STORE, text);
            profile_tweak = fill_partial;
            near(term(&y, "l2"), 0.344064, 1e-9);
            kfix_close(&y);
        }
        const finding *f = NULL;
        for (size_t q = 0; q < x.kr->nfindings; q++)
            if (strcmp(x.kr->findings[q].id, "partial-sector-write") == 0)
                f = &x.kr->findings[q];
        if (stride == 1) {
            assert_null(f);
        } else {
            assert_non_null(f);
            assert_non_null(strstr(f->message, "(0.5 MB read for 0.1 MB "
                                               "stored)"));
            assert_non_null(strstr(f->message, "(dram term)"));
        }
        kfix_close(&x);
    }
    profile_tweak = NULL;
}

/* A gather whose index comes from a buffer the plan leaves random: the
 * simulation reads the contents the runner fills it with (unsigned
 * elements in [0, 16): every lane of a subgroup on v[0..15], 64 bytes of
 * one line: one L1 line per 32-lane request), and the first simulation,
 * which leaves those addresses unknown, is kept for the range's ends: the
 * worst case (a 32-byte sector per lane from DRAM) above the point, the
 * best case at or below it. */
static const char *GATHER =
    "#version 450\n"
    "layout(local_size_x = 256) in;\n"
    "layout(set = 0, binding = 0) readonly buffer I { uint idx[]; };\n"
    "layout(set = 0, binding = 1) readonly buffer V { float v[]; };\n"
    "layout(set = 0, binding = 2) writeonly buffer O { float o[]; };\n"
    "void main() {\n"
    "    uint i = gl_GlobalInvocationID.x;\n"
    "    o[i] = v[idx[i] % 16777216u];\n"
    "}\n";

/* The same gather through a hash of the key and the lane (as a hash table
 * does; key + 40503 i differs for every lane, and the multiply and the
 * xor-shift are one-to-one): 16 Mi lanes over 16 Mi words, each lane on a
 * sector of its own (two lanes of a subgroup share one of the 2 Mi
 * sectors with probability ~ 32 x 31 / 2 / 2 Mi): one L1 line and one L2
 * sector per lane execution. */
static const char *HASHED_GATHER =
    "#version 450\n"
    "layout(local_size_x = 256) in;\n"
    "layout(set = 0, binding = 0) readonly buffer I { uint idx[]; };\n"
    "layout(set = 0, binding = 1) readonly buffer V { float v[]; };\n"
    "layout(set = 0, binding = 2) writeonly buffer O { float o[]; };\n"
    "void main() {\n"
    "    uint i = gl_GlobalInvocationID.x;\n"
    "    uint h = (idx[i] + i * 40503u) * 2654435761u;\n"
    "    o[i] = v[(h ^ (h >> 15)) % 16777216u];\n"
    "}\n";

/* Hashed gathers over a 64 MiB table every group shares (the index is
 * arithmetic, so simulated): 65536 groups of 256 lanes, 4 gathers a lane,
 * 64 Mi gathers over 16 Mi words (4 a word).  With l2_partitions 2 the
 * 32 MiB L2 holds K = 16 MiB / 128 = 131072 lines of the table's N =
 * 524288: K/N = 0.25, h = 1 - 0.75^(1/4) = 0.0694 (under the reuse bound
 * 1 - 1/4); each gather is a sector alone in the sample (32 B of DRAM),
 * 32 x (1 - 0.0694) = 29.78 B an execution with the partitions known, 32
 * without (the term off). */
static const char *SHARED_GATHER =
    "#version 450\n"
    "layout(local_size_x = 256) in;\n"
    "layout(set = 0, binding = 0) readonly buffer T { float table[]; };\n"
    "layout(set = 0, binding = 1) writeonly buffer O { float dst[]; };\n"
    "void main() {\n"
    "    uint h = gl_GlobalInvocationID.x * 0x2c1b3c6du + 1u;\n"
    "    float acc = 0.0;\n"
    "    for (uint k = 0u; k < 4u; k++) {\n"
    "        h ^= h << 13; h ^= h >> 17; h ^= h << 5;\n"
    "        acc += table[h & 16777215u];\n"
    "    }\n"
    "    dst[gl_GlobalInvocationID.x] = acc;\n"
    "}\n";

static void two_partitions(device_profile *p) { p->l2_partitions = 2; }

static void test_shared_table_gather(void **state)
{
    (void)state;
    for (int known = 0; known < 2; known++) {
        run x;
        profile_tweak = known ? two_partitions : NULL;
        run_kernel(&x, SHARED_GATHER,
                   "{\"kernels\":[{\"name\":\"tg\",\"shader\":\"k.comp\","
                   "\"workgroups\":[65536,1,1],\"buffers\":["
                   "{\"binding\":0,\"elements\":16777216},"
                   "{\"binding\":1,\"elements\":16777216}]}]}");
        profile_tweak = NULL;
        const access_summary *ld = access_of(&x, 0);
        assert_non_null(ld);
        assert_true(ld->sim_execs > 0);
        double want = known ? 32 * pow(0.75, 0.25) : 32;
        if (fabs(ld->sim_dram_bytes - want) > 0.01 * want)
            fail_msg("partitions %s: %g DRAM bytes a gather, want %g",
                     known ? "2" : "unknown", ld->sim_dram_bytes, want);
        kfix_close(&x);
    }
}

static const char *GATHER_PLAN =
    "{\"kernels\":[{\"name\":\"gather\",\"shader\":\"k.comp\","
    "\"workgroups\":[65536,1,1],\"buffers\":["
    "{\"binding\":0,\"elements\":16777216},"
    "{\"binding\":1,\"elements\":16777216},"
    "{\"binding\":2,\"elements\":16777216}]}]}";

static const access_summary *access_at(const run *x, uint32_t binding)
{
    for (size_t i = 0; i < x->kc.naccesses; i++)
        if (x->kc.accesses[i].space == SPACE_STORAGE && x->kc.accesses[i].binding == binding)
            return &x->kc.accesses[i];
    return NULL;
}

static int said(const prediction *p, const char *text)
{
    for (size_t i = 0; i < p->nassumptions; i++)
        if (strstr(p->assumptions[i], text))
            return 1;
    return 0;
}

static void test_data_dependent_gather(void **state)
{
    (void)state;
    for (int hashed = 0; hashed < 2; hashed++) {
        run x;
        run_kernel(&x, hashed ? HASHED_GATHER : GATHER, GATHER_PLAN);
        assert_true(x.kc.sim);
        const access_summary *v = access_at(&x, 1);
        assert_non_null(v);
        assert_true(v->sim_drawn > 0);
        assert_true(v->sim_execs > 0 && v->sim_unknown == 0);
        near(v->sim_l1_lines, hashed ? 1.0 : 1.0 / 32, 0.02);
        if (hashed)
            near(v->sim_l2_sectors, 1.0, 0.02);
        /* the undrawn simulation: the addresses left unknown */
        assert_non_null(x.kc.undrawn);
        const access_summary *u = &x.kc.undrawn->accesses[v - x.kc.accesses];
        assert_true(u->sim_unknown > 0 && u->sim_execs == 0 && u->sim_drawn == 0);
        const prediction *p = &x.kr->prediction;
        assert_int_equal(p->conf, CONF_ESTIMATED);
        assert_true(p->time_low_us <= p->time_us);
        assert_true(p->time_high_us > p->time_us);
        /* the hashed gather is far from the best case */
        if (hashed)
            assert_true(p->time_us > 2 * p->time_low_us);
        assert_true(said(p, "depend on buffer contents"));
        assert_true(said(p, "the contents the runner fills"));
        kfix_close(&x);
    }
}

/* Global atomics whose index reads a buffer: (key[i] >> 4) is 0 for the
 * runner's contents (unsigned elements below 16), so the stream is
 * FEW_BINS's: 4096 requests, 512 on the busiest address, 512 x 2 ns, and
 * the kernel's memory time after it.  The best case (the addresses unknown: the distinct-address rate, 16384
 * atomics / 100 Gop/s) is the range's low end. */
static const char *KEYED_BINS =
    "#version 450\n"
    "layout(local_size_x = 256) in;\n"
    "layout(set = 0, binding = 0) buffer H { uint h[]; };\n"
    "layout(set = 0, binding = 1) readonly buffer K { uint key[]; };\n"
    "void main() {\n"
    "    uint i = gl_GlobalInvocationID.x;\n"
    "    atomicAdd(h[(key[i] >> 4) + (i * 5u) % 8u], 1u);\n"
    "}\n";

/* The same with a key buffer the kernel also writes: its contents are not
 * the runner's by the time they are read, so the index is drawn uniformly
 * from its range clipped to the 8 counters: lane i from words c..7, c =
 * (i * 5) % 8 (the unknown k >> 4 only adds).  A subgroup has 4 lanes of
 * each c, word w stays untouched with probability prod_{c <= w} ((7 - c)
 * / (8 - c))^4 = ((7 - w) / 8)^4, so it makes 8 - sum_m (m / 8)^4 = 6.858
 * requests on average: 512 x 6.858 = 3511 (word 7, which every lane with
 * c = 7 takes, is the busiest: 512).  The best case (addresses unknown)
 * stays below. */
static const char *WRITTEN_KEY_BINS =
    "#version 450\n"
    "layout(local_size_x = 256) in;\n"
    "layout(set = 0, binding = 0) buffer H { uint h[]; };\n"
    "layout(set = 0, binding = 1) buffer K { uint key[]; };\n"
    "void main() {\n"
    "    uint i = gl_GlobalInvocationID.x;\n"
    "    uint k = key[i];\n"
    "    key[i] = k + 1u;\n"
    "    atomicAdd(h[(k >> 4) + (i * 5u) % 8u], 1u);\n"
    "}\n";

/* A gather at columns the plan gives (init "ramp": the evaluator knows
 * every index, col[i] = i): x[col[i]] still waits for its column load, so
 * its latency term has a round trip more than x[i] beside the same column
 * load (eval_chase.h), while the traffic is the same. */
static const char *RAMP_GATHER =
    "#version 450\n"
    "layout(local_size_x = 256) in;\n"
    "layout(set = 0, binding = 0) readonly buffer I { uint col[]; };\n"
    "layout(set = 0, binding = 1) readonly buffer V { float v[]; };\n"
    "layout(set = 0, binding = 2) writeonly buffer O { float o[]; };\n"
    "void main() {\n"
    "    uint i = gl_GlobalInvocationID.x;\n"
    "    o[i] = v[col[i]];\n"
    "}\n";

static const char *RAMP_AFFINE =
    "#version 450\n"
    "layout(local_size_x = 256) in;\n"
    "layout(set = 0, binding = 0) readonly buffer I { uint col[]; };\n"
    "layout(set = 0, binding = 1) readonly buffer V { float v[]; };\n"
    "layout(set = 0, binding = 2) writeonly buffer O { float o[]; };\n"
    "void main() {\n"
    "    uint i = gl_GlobalInvocationID.x;\n"
    "    o[i] = v[i] + float(col[i]);\n"
    "}\n";

/* a round trip (10 us) no 64-group dispatch covers: 1000 GB/s x 10 us
 * = 2.5 MB a unit in flight needed, 64 KiB there */
static void slow_memory(device_profile *p) { p->mem_latency_ns = 1e4; }

static void test_chase_over_given_columns(void **state)
{
    (void)state;
    static const char *plan_json =
        "{\"kernels\":[{\"name\":\"rg\",\"shader\":\"k.comp\","
        "\"workgroups\":[64,1,1],\"buffers\":["
        "{\"binding\":0,\"elements\":16384,\"init\":\"ramp\"},"
        "{\"binding\":1,\"elements\":16384},"
        "{\"binding\":2,\"elements\":16384}]}]}";
    run x, y;
    profile_tweak = slow_memory;
    run_kernel(&x, RAMP_GATHER, plan_json);
    run_kernel(&y, RAMP_AFFINE, plan_json);
    profile_tweak = NULL;
    const access_summary *g = access_at(&x, 1), *a = access_at(&y, 1);
    assert_non_null(g);
    assert_non_null(a);
    assert_true(g->index_known && a->index_known);
    assert_true(g->chase_of > 0 && a->chase_of == 0);
    assert_int_equal(x.kc.accesses[g->chase_of - 1].binding, 0);
    near(g->sim_l2_sectors, a->sim_l2_sectors, 1e-9);
    /* one 10-us trip more a wave: 64 groups on 4 units of 8 slots (2048
     * lanes / 256) are 2 waves, 20 us */
    near(term(&x, "latency") - term(&y, "latency"), 20, 0.01);
    kfix_close(&x);
    kfix_close(&y);
}

/* An address that is an interval for want of a push constant the plan
 * does not give, with no load in its computation (eval_chase.h): no hash
 * of buffer contents, so nothing is drawn; the first simulation stands
 * and the prediction is the best case, as before. */
static const char *UNGIVEN_MODULUS =
    "#version 450\n"
    "layout(local_size_x = 256) in;\n"
    "layout(set = 0, binding = 0) readonly buffer V { float v[]; };\n"
    "layout(set = 0, binding = 1) writeonly buffer O { float o[]; };\n"
    "layout(push_constant) uniform P { uint n; };\n"
    "void main() {\n"
    "    uint i = gl_GlobalInvocationID.x;\n"
    "    o[i] = v[(i * 7u) % n];\n"
    "}\n";

static void test_no_draw_without_load(void **state)
{
    (void)state;
    run x;
    run_kernel(&x, UNGIVEN_MODULUS,
               "{\"kernels\":[{\"name\":\"um\",\"shader\":\"k.comp\","
               "\"workgroups\":[64,1,1],\"buffers\":["
               "{\"binding\":0,\"elements\":16384},"
               "{\"binding\":1,\"elements\":16384}]}]}");
    const access_summary *v = access_at(&x, 0);
    assert_non_null(v);
    assert_true(v->sim_unknown > 0);
    assert_true(v->sim_drawn == 0 && v->chase_of == 0);
    assert_null(x.kc.undrawn);
    assert_true(x.kr->prediction.time_low_us == x.kr->prediction.time_us);
    kfix_close(&x);
}

/* Stream compaction: an elected lane takes a subgroup's slots from a
 * counter (atomicAdd) and the lanes store at the returned base.  The
 * stores' address comes from an atomic's value, an allocation (dense, in
 * order), not a hash: it is not drawn, and the prediction stays the best
 * case (coalesced stores), with no second simulation. */
static const char *COMPACT =
    "#version 450\n"
    "#extension GL_KHR_shader_subgroup_basic : require\n"
    "#extension GL_KHR_shader_subgroup_ballot : require\n"
    "layout(local_size_x = 256) in;\n"
    "layout(set = 0, binding = 0) readonly buffer I { float src[]; };\n"
    "layout(set = 0, binding = 1) writeonly buffer O { float dst[]; };\n"
    "layout(set = 0, binding = 2) buffer C { uint count; };\n"
    "void main() {\n"
    "    uint i = gl_GlobalInvocationID.x;\n"
    "    float v = src[i];\n"
    "    bool keep = v > 0.0;\n"
    "    uvec4 b = subgroupBallot(keep);\n"
    "    uint base = 0u;\n"
    "    if (subgroupElect())\n"
    "        base = atomicAdd(count, subgroupBallotBitCount(b));\n"
    "    base = subgroupBroadcastFirst(base);\n"
    "    if (keep)\n"
    "        dst[base + subgroupBallotExclusiveBitCount(b)] = v;\n"
    "}\n";

static void test_no_draw_from_atomic(void **state)
{
    (void)state;
    run x;
    run_kernel(&x, COMPACT,
               "{\"kernels\":[{\"name\":\"cp\",\"shader\":\"k.comp\","
               "\"workgroups\":[64,1,1],\"buffers\":["
               "{\"binding\":0,\"elements\":16384},"
               "{\"binding\":1,\"elements\":16384},"
               "{\"binding\":2,\"bytes\":4,\"init\":\"zero\"}]}]}");
    const access_summary *st = access_at(&x, 1);
    assert_non_null(st);
    assert_true(st->chase_of > 0 && st->chase_atomic);
    assert_true(st->sim_unknown > 0 && st->sim_drawn == 0);
    assert_null(x.kc.undrawn);
    assert_true(x.kr->prediction.time_low_us == x.kr->prediction.time_us);
    kfix_close(&x);
}

static void test_keyed_atomics(void **state)
{
    (void)state;
    static const char *plan_json =
        "{\"kernels\":[{\"name\":\"kb\",\"shader\":\"k.comp\","
        "\"workgroups\":[64,1,1],\"buffers\":["
        "{\"binding\":0,\"elements\":8,\"init\":\"zero\"},"
        "{\"binding\":1,\"elements\":16384}]}]}";
    run x;
    run_kernel(&x, KEYED_BINS, plan_json);
    assert_true(x.kc.sim && x.kc.undrawn);
    near(x.kc.atomic_requests, 4096, 1e-9);
    near(x.kc.atomic_busiest, 512, 1e-9);
    near(term(&x, "atomic"), 512 * 2e-3 + memory_us(&x), 1e-9);
    const prediction *p = &x.kr->prediction;
    assert_int_equal(p->conf, CONF_ESTIMATED);
    /* the best case spreads the atomics: the rate binds, below the
     * memory time it would add to a hot address */
    assert_true(memory_us(&x) < 16384 / 100e3);
    near(p->time_us - p->time_low_us,
         512 * 2e-3 + memory_us(&x) - 16384 / 100e3, 1e-6);
    kfix_close(&x);

    run_kernel(&x, WRITTEN_KEY_BINS, plan_json);
    assert_true(x.kc.sim && x.kc.undrawn);
    double fourth = 0;
    for (int q = 0; q < 8; q++)
        fourth += pow(q / 8.0, 4);
    near(x.kc.atomic_requests, 512 * (8 - fourth), 0.03);
    near(x.kc.atomic_busiest, 512, 1e-9);
    assert_true(x.kr->prediction.time_low_us < x.kr->prediction.time_us);
    kfix_close(&x);
}

/* One 4-byte read per 128-byte line: lane i reads a[32 i], 64 groups of
 * 256 (16384 lines of a 2 MiB buffer), and stores s[i].  The lanes touch
 * 64 KiB of the buffer's bytes but 16384 sectors of DRAM: 512 KiB, all of
 * it moved (the buffer is far below half the 32 MiB L2, so the cap at the
 * footprint once applies, in DRAM's sectors: min(span 2 MiB, 16384 x
 * 32)); with l2_fetch_bytes 64 a read fetches two sectors: 1 MiB.  Plus
 * the 64 KiB of stores, at 1000 GB/s (no page costs in this profile); the
 * other groups of a unit keep 7 x 8 KiB in flight, far above the 0.25-B
 * bandwidth-delay product, so the path overlaps: dram = 0.589824 us
 * (1.114112 with 64-B fetches).  The grid-strided walk (2 lines a lane,
 * 32768 lines, `if (j < n)`) has no exact footprint: its hull is the 4 MiB
 * span, but the accesses move 128 KiB and touch no more: the compulsory
 * floor is at most that, the DRAM 1 MiB (2 MiB with 64-B fetches). */
static const char *SECTOR_LINES =
    A_TO_S_HEAD
    "    s[i] = a[i * 32u];\n"
    "}\n";

static const char *SECTOR_LINES_STRIDED =
    "#version 450\n"
    "layout(local_size_x = 256) in;\n"
    "layout(set = 0, binding = 0) readonly buffer A { float a[]; };\n"
    "layout(set = 0, binding = 1) writeonly buffer S { float s[]; };\n"
    "void main() {\n"
    "    uint i = gl_GlobalInvocationID.x;\n"
    "    uint lanes = gl_NumWorkGroups.x * 256u;\n"
    "    float acc = 0.0;\n"
    "    for (uint k = 0u; k < 2u; k++) {\n"
    "        uint j = i + k * lanes;\n"
    "        if (j < 32768u)\n"
    "            acc += a[j * 32u];\n"
    "    }\n"
    "    s[i] = acc;\n"
    "}\n";

static void fetch_64(device_profile *p) { p->l2_fetch_bytes = 64; }

static void test_one_sector_reads(void **state)
{
    (void)state;
    for (int f = 0; f < 2; f++)
        for (int strided = 0; strided < 2; strided++) {
            run x;
            profile_tweak = f ? fetch_64 : NULL;
            char pj[512];
            snprintf(pj, sizeof pj,
                     "{\"kernels\":[{\"name\":\"sr\",\"shader\":\"k.comp\","
                     "\"workgroups\":[64,1,1],\"buffers\":["
                     "{\"binding\":0,\"elements\":%d},"
                     "{\"binding\":1,\"elements\":16384}]}]}",
                     strided ? 1048576 : 524288);
            run_kernel(&x, strided ? SECTOR_LINES_STRIDED : SECTOR_LINES, pj);
            profile_tweak = NULL;
            const access_summary *ld = access_of(&x, 0);
            assert_non_null(ld);
            near(ld->sim_dram_bytes, f ? 64 : 32, 1e-9);
            double lines = strided ? 32768 : 16384;
            double want = (lines * (f ? 64 : 32) + 65536) / 1e6;
            if (fabs(term(&x, "dram") - want) > 1e-6 * want)
                fail_msg("fetch %d strided %d: dram %g us, want %g", 64 * f,
                         strided, term(&x, "dram"), want);
            /* the floor: no more than the bytes the accesses move */
            assert_true(x.kc.compulsory_read_bytes <= lines * 4 + 1e-9);
            kfix_close(&x);
        }
}

static void sectors_64_no_line(device_profile *p)
{
    p->sector_bytes = 64;
    p->line_bytes = 0;
    p->l2_fetch_bytes = 256;
}

/* A profile without line_bytes: the cache model takes the model's own
 * line, four sectors (256 B of 64-B sectors), not a constant 128 B, so
 * the 256-B fetch block of l2_fetch_bytes is one it allows.  SECTOR_LINES
 * reads a word every 128 B: two lanes a block, each block fetched once,
 * 128 B of DRAM a lane (in 128-B lines: the 64-B sector alone). */
static void test_line_from_sectors(void **state)
{
    (void)state;
    run x;
    const access_summary *ld = run_load(&x, sectors_64_no_line, SECTOR_LINES,
                                        64, 524288, 16384);
    near(ld->sim_dram_bytes, 128, 1e-9);
    kfix_close(&x);
}

/* Rows of 256 floats, two lines live a lane (TWO_LINES: 64 KiB a group of
 * 256).  8 groups fit a unit (2048 lanes), so 32 groups on the 4 units
 * share each L1 eight ways (32 KiB each): every request misses.  4 groups
 * run one to a unit: the group has the whole 256 KiB and keeps its lines,
 * so only a new sector misses (1 in 8 executions), as on the device where
 * the L1 is shared only by the groups actually there. */
static void test_l1_shared_by_groups_present(void **state)
{
    (void)state;
    const struct { int groups; double l2; } cases[] = {{32, 1.0}, {4, 1.0 / 8}};
    for (int i = 0; i < 2; i++) {
        run x;
        char pj[512];
        snprintf(pj, sizeof pj,
                 "{\"kernels\":[{\"name\":\"rows\",\"shader\":\"k.comp\","
                 "\"workgroups\":[%d,1,1],\"spec\":{\"0\":256},\"buffers\":["
                 "{\"binding\":0,\"elements\":4194304},"
                 "{\"binding\":1,\"elements\":16384}]}]}", cases[i].groups);
        run_kernel(&x, TWO_LINES, pj);
        const access_summary *ld = access_of(&x, 0);
        assert_non_null(ld);
        if (fabs(ld->sim_l2_sectors - cases[i].l2) > 0.02 * cases[i].l2)
            fail_msg("%d groups: %g sectors at L2 an execution, want %g",
                     cases[i].groups, ld->sim_l2_sectors, cases[i].l2);
        kfix_close(&x);
    }
}

/* Loads in flight together (Little's law): 8 floats a lane of a 2048-float
 * row, 256 groups of 256, the loop's 8 trips a constant the driver unrolls
 * (full_unroll_trips 16) or a push constant (kept).  Unrolled, the load's
 * 8 copies put 2048 lanes x 32 B = 64 KiB in flight per unit, above the
 * 25 KB bandwidth-delay product (1000 GB/s x 100 ns / 4 units), so its
 * round trip leaves the path, and the other 7 groups of a unit keep 7 x 8
 * KiB in flight through one group's path: the DRAM term is the transfer,
 * 2 MiB read + 256 KiB written at 1000 GB/s = 2.359296 us.  Kept, 8 KiB
 * and 7 x 1 KiB are below it: the trip stays (8 waves x 100 ns at least)
 * and adds to the transfer. */
static const char *ROW_LOADS =
    "#version 450\n"
    "layout(local_size_x = 256) in;\n"
    "layout(set = 0, binding = 0) readonly buffer I { float src[]; };\n"
    "layout(set = 0, binding = 1) writeonly buffer O { float dst[]; };\n"
    "layout(push_constant) uniform P { uint trips; };\n"
    "void main() {\n"
    "    uint l = gl_LocalInvocationID.x;\n"
    "    uint base = gl_WorkGroupID.x * 2048u;\n"
    "    float v = 0.0;\n"
    "    for (uint k = 0u; k < TRIPS; k++)\n"
    "        v += src[base + k * 256u + l];\n"
    "    dst[gl_GlobalInvocationID.x] = v;\n"
    "}\n";

static void unroll_slow_dram(device_profile *p)
{
    p->full_unroll_trips = 16;
    p->mem_latency_ns = 100;
}

static void test_unrolled_loads_in_flight(void **state)
{
    (void)state;
    for (int kept = 0; kept < 2; kept++) {
        char glsl[1024];
        const char *at = strstr(ROW_LOADS, "TRIPS");
        snprintf(glsl, sizeof glsl, "%.*s%s%s", (int)(at - ROW_LOADS), ROW_LOADS,
                 kept ? "trips" : "8u", at + 5);
        run x;
        profile_tweak = unroll_slow_dram;
        run_kernel(&x, glsl,
                   "{\"kernels\":[{\"name\":\"rl\",\"shader\":\"k.comp\","
                   "\"workgroups\":[256,1,1],\"push\":{\"trips\":8},\"buffers\":["
                   "{\"binding\":0,\"elements\":524288},"
                   "{\"binding\":1,\"elements\":65536}]}]}");
        profile_tweak = NULL;
        const access_summary *ld = access_of(&x, 0);
        assert_non_null(ld);
        near(ld->copies, kept ? 1 : 8, 0);
        double peak = (524288.0 * 4 + 65536 * 4) / 1e6;
        if (!kept) {
            near(term(&x, "dram"), peak, 1e-6);
        } else {
            near(term(&x, "dram") - term(&x, "latency"), peak, 1e-6);
            assert_true(term(&x, "latency") >= 8 * 0.1);
        }
        kfix_close(&x);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_sector_reads),
        cmocka_unit_test(test_line_from_sectors),
        cmocka_unit_test(test_tlb_lines_of_scattered_loads),
        cmocka_unit_test(test_l1_shared_by_groups_present),
        cmocka_unit_test(test_unrolled_loads_in_flight),
        cmocka_unit_test(test_row_walk),
        cmocka_unit_test(test_l1_line_groups),
        cmocka_unit_test(test_l2_term_partial_rates),
        cmocka_unit_test(test_l2_lines_us),
        cmocka_unit_test(test_l2_line_lookups),
        cmocka_unit_test(test_tlb_pure),
        cmocka_unit_test(test_tlb_reach),
        cmocka_unit_test(test_shared_table_hits),
        cmocka_unit_test(test_stencil_row_neighbours),
        cmocka_unit_test(test_whole_line_write_pages),
        cmocka_unit_test(test_row_walk_pages),
        cmocka_unit_test(test_atomics_few_addresses),
        cmocka_unit_test(test_atomics_slice_unit),
        cmocka_unit_test(test_flush_queues),
        cmocka_unit_test(test_trips_from_contents),
        cmocka_unit_test(test_trips_from_contents_sampled),
        cmocka_unit_test(test_scatter_passes),
        cmocka_unit_test(test_atomic_per_subgroup),
        cmocka_unit_test(test_shared_hashed_bins),
        cmocka_unit_test(test_shared_bank_conflicts),
        cmocka_unit_test(test_shared_bank_passes),
        cmocka_unit_test(test_partial_sector_write),
        cmocka_unit_test(test_data_dependent_gather),
        cmocka_unit_test(test_keyed_atomics),
        cmocka_unit_test(test_no_draw_from_atomic),
        cmocka_unit_test(test_no_draw_without_load),
        cmocka_unit_test(test_chase_over_given_columns),
        cmocka_unit_test(test_shared_table_gather),
        cmocka_unit_test(test_switch_on_contents_assumed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
