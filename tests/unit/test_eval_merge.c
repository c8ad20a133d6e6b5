/* test_eval_merge.c - adjacent accesses the compiler merges into one wider
 * access (verifier/eval_merge.h) and the traffic the simulation then
 * counts (verifier/model_traffic.h): kernels written for the test, the
 * merged and the unmerged streams against numbers worked out by hand on
 * tests/unit/traffic_gpu.json (subgroups of 32, 32 B sectors, 32 banks). */
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

#include "eval.h"
#include "model.h"
#include "model_traffic.h"

/* The profile's shared_wide_broadcast for the next run (-1 unknown), and
 * its buffer merge width (-1: run's merge_bytes, as workgroup memory). */
static int wide_broadcast = -1;
static int buffer_width = -1;
static double run_tweak_rate = -1; /* l2_store_run_gops; -1 unknown */
static double run_stream_rate = -1; /* l2_partial_stream_gops, with
                                       partial_write_fill; -1 unknown */

/* Evaluates glsl on 4 workgroups of 64 (binding 0: elems floats, binding
 * 1: 256), simulates its traffic with the compiler merging up to
 * merge_bytes and unrolling up to unroll trips, and predicts it. */
static void run(kfix *x, const char *glsl, long elems, uint32_t merge_bytes,
                uint32_t unroll)
{
    char plan_json[512];
    snprintf(plan_json, sizeof plan_json,
             "{\"kernels\":[{\"name\":\"k\",\"shader\":\"k.comp\","
             "\"workgroups\":[4,1,1],\"push\":{\"n\":4},\"buffers\":["
             "{\"binding\":0,\"elements\":%ld},{\"binding\":1,\"elements\":256}]}]}",
             elems);
    plan_kernel *k = kfix_open(x, glsl, plan_json);
    cw_error err;
    if (profile_load_file(cw_root_file("tests/unit/traffic_gpu.json"), &x->prof, &err))
        kfix_fail("profile", &err);
    x->prof.merge_buffer_bytes = buffer_width >= 0 ? (uint32_t)buffer_width : merge_bytes;
    x->prof.merge_shared_bytes = merge_bytes;
    x->prof.full_unroll_trips = unroll;
    x->prof.shared_wide_broadcast = wide_broadcast;
    x->prof.l2_store_run_gops = run_tweak_rate;
    if (run_stream_rate >= 0) {
        x->prof.l2_partial_stream_gops = run_stream_rate;
        x->prof.partial_write_fill = 1;
    }
    assert_int_equal(eval_run(&x->m, &x->r, k, &x->prof, &x->kc, x->kr), 0);
    model_traffic_simulate(&x->m, &x->r, k, &x->prof, &x->kc);
    model_predict(&x->kc, &x->r, k, &x->prof, &x->kr->prediction, x->kr);
}

/* The accesses of binding 0 (or of workgroup memory) in program order. */
static size_t accesses(const kfix *x, mem_space space, int store,
                       const access_summary **out)
{
    size_t n = 0;
    for (size_t i = 0; i < x->kc.naccesses && n < 8; i++) {
        const access_summary *a = &x->kc.accesses[i];
        if (a->space == space && a->is_store == store &&
            (space != SPACE_STORAGE || a->binding == 0))
            out[n++] = a;
    }
    for (size_t i = 1; i < n; i++) /* program order */
        for (size_t j = i; j > 0 && out[j]->inst < out[j - 1]->inst; j--) {
            const access_summary *t = out[j];
            out[j] = out[j - 1];
            out[j - 1] = t;
        }
    return n;
}

/* The accesses' roles in program order: '0' as written, '1' carries a
 * merged piece, '2' merged into another's ("0120": the middle pair). */
static void expect_roles(const kfix *x, mem_space space, int store, const char *roles)
{
    const access_summary *a[8];
    size_t n = accesses(x, space, store, a);
    assert_int_equal(n, strlen(roles));
    for (size_t i = 0; i < n; i++)
        assert_int_equal(a[i]->sim_merge, roles[i] - '0');
}

/* expect_roles, then the accesses in *a and the bytes a lane the first
 * piece's lead (position lead) carries per execution. */
static void expect_lead(const kfix *x, mem_space space, int store, const char *roles,
                        size_t lead, double lane_bytes, const access_summary **a)
{
    expect_roles(x, space, store, roles);
    assert_int_equal(accesses(x, space, store, a), strlen(roles));
    assert_float_equal(a[lead]->sim_lane_bytes, lane_bytes, 1e-9);
}

/* sum over the accesses of executions x per-execution figure */
static double total(const access_summary **a, size_t n, size_t field_off)
{
    double s = 0;
    for (size_t i = 0; i < n; i++)
        s += a[i]->count * *(const double *)((const char *)a[i] + field_off);
    return s;
}

#define near_rel(a, b, rel)                                                   \
    assert_true(fabs((double)(a) - (double)(b)) <= (rel) * fabs((double)(b)))

static double term(const kfix *x, const char *name)
{
    const prediction *p = &x->kr->prediction;
    for (size_t i = 0; i < p->nterms; i++)
        if (strcmp(p->terms[i].name, name) == 0)
            return p->terms[i].time_us;
    return -1;
}

/* How many of the prediction's assumptions contain s. */
static int assumptions_with(const kfix *x, const char *s)
{
    const prediction *p = &x->kr->prediction;
    int n = 0;
    for (size_t i = 0; i < p->nassumptions; i++)
        if (strstr(p->assumptions[i], s))
            n++;
    return n;
}

static int has_assumption(const kfix *x, const char *s)
{
    return assumptions_with(x, s) > 0;
}

#define HEAD                                                                  \
    "#version 450\n"                                                          \
    "layout(local_size_x = 64) in;\n"                                         \
    "layout(set = 0, binding = 0) buffer D { float d[]; };\n"                 \
    "layout(set = 0, binding = 1) buffer O { float o[]; };\n"                 \
    "layout(push_constant) uniform P { uint n; };\n"                          \
    "void main() {\n"                                                         \
    "    uint i = gl_GlobalInvocationID.x;\n"

/* Four scalar stores a lane from word b on. */
#define STORE4                                                                \
    "    d[b] = 1.0;\n"                                                        \
    "    d[b + 1u] = 2.0;\n"                                                   \
    "    d[b + 2u] = 3.0;\n"                                                   \
    "    d[b + 3u] = 4.0;\n"                                                   \
    "}\n"

/* Four scalar stores a lane at words 4i..4i+3 (16-byte aligned: 4i x 4 B
 * has 4 known zero bits).  A subgroup's store spans 512 B, lanes 16 B
 * apart: 16 sectors, each written 8 of its 32 bytes (partial).  As
 * written: 4 requests x 16 sectors = 64 sectors at L2 per subgroup, every
 * one partial; merged: one request of 16 whole sectors, none partial.
 * 256 lanes: 1024 lane stores -> 512 sectors; merged 256 -> 128. */
static const char STORES4[] = HEAD
    "    uint b = i * 4u;\n"
    STORE4;

static void test_four_stores(void **state)
{
    (void)state;
    kfix x;
    const access_summary *a[8];
    run(&x, STORES4, 1024, 0, 0);
    assert_int_equal(accesses(&x, SPACE_STORAGE, 1, a), 4);
    for (int j = 0; j < 4; j++) {
        assert_int_equal(a[j]->sim_merge, 0);
        assert_float_equal(a[j]->sim_l2_sectors, 0.5, 1e-9);
        assert_float_equal(a[j]->sim_l2_partial, 0.5, 1e-9);
    }
    assert_float_equal(total(a, 4, offsetof(access_summary, sim_l2_sectors)), 512, 1e-6);
    double l2_as_written = term(&x, "l2");
    assert_false(has_assumption(&x, "adjacent accesses merged"));
    kfix_close(&x);

    run(&x, STORES4, 1024, 16, 0);
    assert_int_equal(accesses(&x, SPACE_STORAGE, 1, a), 4);
    assert_int_equal(a[0]->sim_merge, 1);
    assert_float_equal(a[0]->sim_lane_bytes, 16, 1e-9);
    assert_float_equal(a[0]->sim_l2_sectors, 0.5, 1e-9);
    assert_float_equal(a[0]->sim_l2_partial, 0, 1e-9);
    assert_float_equal(a[0]->sim_dram_bytes, 16, 1e-9); /* its whole sectors */
    for (int j = 1; j < 4; j++) {
        assert_int_equal(a[j]->sim_merge, 2);
        assert_float_equal(a[j]->sim_l2_sectors, 0, 1e-9);
        assert_float_equal(a[j]->sim_lane_bytes, 0, 1e-9);
    }
    assert_float_equal(total(a, 4, offsetof(access_summary, sim_l2_sectors)), 128, 1e-6);
    assert_float_equal(x.kc.l2_store_runs, 0, 1e-9); /* one request, not a run */
    /* 128 whole sectors at l2_gbs instead of 512 sector requests: a quarter */
    near_rel(term(&x, "l2"), l2_as_written / 4, 1e-6);
    assert_true(has_assumption(&x, "adjacent accesses merged"));
    kfix_close(&x);

    run(&x, STORES4, 1024, 8, 0); /* 64-bit at most: two pieces of two */
    expect_roles(&x, SPACE_STORAGE, 1, "1212");
    assert_int_equal(accesses(&x, SPACE_STORAGE, 1, a), 4);
    assert_float_equal(a[0]->sim_lane_bytes, 8, 1e-9);
    kfix_close(&x);
}

/* Words 4i+1..4i+4: only the 4i+2, 4i+3 pair is 8-byte aligned (the
 * first word is 4 mod 8, the last 16 mod 16 but alone): 32 + 64 + 32. */
static const char STORES4_SHIFTED[] = HEAD
    "    uint b = i * 4u + 1u;\n"
    STORE4;

/* A 12-byte lane: 3i x 4 B has 2 known zero bits, never 8-aligned. */
static const char STORES3[] = HEAD
    "    uint b = i * 3u;\n"
    "    d[b] = 1.0;\n"
    "    d[b + 1u] = 2.0;\n"
    "    d[b + 2u] = 3.0;\n"
    "}\n";

/* The stride from a push constant: its value (4) is not the compiler's. */
static const char STORES_PUSH[] = HEAD
    "    uint b = i * n;\n"
    STORE4;

static void test_what_cannot_merge(void **state)
{
    (void)state;
    kfix x;
    const access_summary *a[8];
    run(&x, STORES4_SHIFTED, 1028, 16, 0);
    expect_lead(&x, SPACE_STORAGE, 1, "0120", 1, 8, a);
    /* 8 bytes a lane, lanes 16 B apart: still 16 half-written sectors */
    assert_float_equal(a[1]->sim_l2_sectors, 0.5, 1e-9);
    assert_float_equal(a[1]->sim_l2_partial, 0.5, 1e-9);
    kfix_close(&x);

    /* not merged, but adjacent: a run of separate requests (below) */
    run(&x, STORES3, 768, 16, 0);
    expect_roles(&x, SPACE_STORAGE, 1, "122");
    assert_float_equal(x.kc.l2_store_runs, 24, 1e-9);
    kfix_close(&x);

    run(&x, STORES_PUSH, 1024, 16, 0);
    expect_roles(&x, SPACE_STORAGE, 1, "1222");
    assert_float_equal(x.kc.l2_store_runs, 32, 1e-9);
    kfix_close(&x);
}

/* Loads: a store to another buffer between two loads of d may alias them
 * (buffers can be bound to the same memory), so the loads stay apart; a
 * value kept in a function variable in between does not matter. */
static const char LOADS_STORE_BETWEEN[] = HEAD
    "    uint b = i * 4u;\n"
    "    float s = d[b] + d[b + 1u];\n"
    "    o[i] = s;\n"
    "    s += d[b + 2u] + d[b + 3u];\n"
    "    o[i] = s;\n"
    "}\n";

static const char LOADS_LOCAL_BETWEEN[] = HEAD
    "    uint b = i * 4u;\n"
    "    float s = d[b];\n"
    "    s *= 2.0;\n"
    "    s += d[b + 1u];\n"
    "    s += d[b + 2u] + d[b + 3u];\n"
    "    o[i] = s;\n"
    "}\n";

/* Loads of 4 consecutive words a lane as a loop of 4 constant trips:
 * merged only where the compiler unrolls it.  As written each trip's
 * request reads 16 sectors for 32 lanes (0.5 a lane execution); merged,
 * one request of 16 B a lane reads 16 sectors for 4 trips (0.125). */
static const char LOADS_LOOP[] = HEAD
    "    float s = 0.0;\n"
    "    for (uint j = 0u; j < 4u; j++)\n"
    "        s += d[i * 4u + j];\n"
    "    o[i] = s;\n"
    "}\n";

static const char LOADS_LOOP_PUSH[] = HEAD
    "    float s = 0.0;\n"
    "    for (uint j = 0u; j < n; j++)\n"
    "        s += d[i * 4u + j];\n"
    "    o[i] = s;\n"
    "}\n";

/* The load only in some trips: the unrolled copies are not straight-line
 * code, nothing merges. */
static const char LOADS_LOOP_IF[] = HEAD
    "    float s = 0.0;\n"
    "    for (uint j = 0u; j < 4u; j++)\n"
    "        if (s < 100.0)\n"
    "            s += d[i * 4u + j];\n"
    "    o[i] = s;\n"
    "}\n";

static void test_loads(void **state)
{
    (void)state;
    kfix x;
    const access_summary *a[8];
    run(&x, LOADS_STORE_BETWEEN, 1024, 16, 0);
    /* two pieces of two (8-byte aligned at 4i and 4i+2), none across */
    expect_roles(&x, SPACE_STORAGE, 0, "1212");
    assert_int_equal(accesses(&x, SPACE_STORAGE, 0, a), 4);
    assert_float_equal(a[0]->sim_lane_bytes, 8, 1e-9);
    kfix_close(&x);

    run(&x, LOADS_LOCAL_BETWEEN, 1024, 16, 0);
    assert_int_equal(accesses(&x, SPACE_STORAGE, 0, a), 4);
    assert_int_equal(a[0]->sim_merge, 1);
    assert_float_equal(a[0]->sim_lane_bytes, 16, 1e-9);
    kfix_close(&x);

    run(&x, LOADS_LOOP, 1024, 16, 0); /* the compiler keeps the loop */
    assert_int_equal(accesses(&x, SPACE_STORAGE, 0, a), 1);
    assert_int_equal(a[0]->sim_merge, 0);
    assert_float_equal(a[0]->sim_l1_sectors, 0.5, 1e-9);
    kfix_close(&x);

    run(&x, LOADS_LOOP, 1024, 16, 256);
    assert_int_equal(accesses(&x, SPACE_STORAGE, 0, a), 1);
    assert_int_equal(a[0]->sim_merge, 1);
    assert_float_equal(a[0]->sim_lane_bytes, 4, 1e-9); /* 16 B per 4 trips */
    assert_float_equal(a[0]->sim_l1_sectors, 0.125, 1e-9);
    assert_float_equal(a[0]->sim_execs_per_request, 4, 1e-9);
    kfix_close(&x);

    run(&x, LOADS_LOOP_IF, 1024, 16, 256);
    expect_roles(&x, SPACE_STORAGE, 0, "0");
    kfix_close(&x);

    run(&x, LOADS_LOOP_PUSH, 1024, 16, 256); /* trips known at run time */
    expect_roles(&x, SPACE_STORAGE, 0, "0");
    kfix_close(&x);
}

/* Workgroup memory, lanes 16 B apart (s[4x + j], x the lane): a scalar
 * request puts 32 words on 8 banks, 4 each: 4 passes where 1 would do
 * (degree 4), 4 loads x 4 B x 4 = 64 B a lane.  Merged into one 128-bit
 * load it is served in 4 phases of 8 lanes, each 32 consecutive words on
 * 32 banks: 4 passes, the fewest (degree 1), 16 B a lane: a quarter.  The
 * fill's four scalar stores merge the same way.  A barrier between two
 * loads keeps them apart. */
#define SHARED_HEAD                                                           \
    "#version 450\n"                                                          \
    "layout(local_size_x = 64) in;\n"                                         \
    "layout(set = 0, binding = 1) buffer O { float o[]; };\n"                 \
    "shared float s[256];\n"                                                  \
    "void main() {\n"                                                         \
    "    uint l = gl_LocalInvocationID.x;\n"                                  \
    "    s[4u * l] = 1.0;\n"                                                  \
    "    s[4u * l + 1u] = 2.0;\n"

static const char SHARED4[] = SHARED_HEAD
    "    s[4u * l + 2u] = 3.0;\n"
    "    s[4u * l + 3u] = 4.0;\n"
    "    barrier();\n"
    "    uint b = 4u * l;\n"
    "    o[gl_GlobalInvocationID.x] = s[b] + s[b + 1u] + s[b + 2u] + s[b + 3u];\n"
    "}\n";

/* The two half-subgroups read the same words (b from l & 15): merged, a
 * request's 32 lanes take 64 distinct words, 2 on each bank.  In 8-lane
 * phases each phase is 32 words on 32 banks: 4 passes, the fewest for 4
 * phases (degree 1, 16 B a lane charged).  With shared_wide_broadcast the
 * request's distinct words decide: 2 passes of 32 words for its 128 lane
 * words, degree 0.5 (8 B a lane). */
static const char SHARED_HALVES[] = SHARED_HEAD
    "    s[4u * l + 2u] = 3.0;\n"
    "    s[4u * l + 3u] = 4.0;\n"
    "    barrier();\n"
    "    uint b = 4u * (l & 15u);\n"
    "    o[gl_GlobalInvocationID.x] = s[b] + s[b + 1u] + s[b + 2u] + s[b + 3u];\n"
    "}\n";

/* Words 4x+1..4x+4 of workgroup memory (x the lane in its subgroup): the
 * compiler loads the aligned window 4x..4x+3 whole for the first three
 * (one 128-bit load: 4 phases, 1 pass each, degree 1, 16 B a lane) and
 * the fourth alone (lanes 16 B apart: 4-way, degree 4). */
static const char SHARED_SHIFTED[] = SHARED_HEAD
    "    s[4u * l + 2u] = 3.0;\n"
    "    s[4u * l + 3u] = 4.0;\n"
    "    barrier();\n"
    "    uint b = 4u * (l & 31u) + 1u;\n"
    "    o[gl_GlobalInvocationID.x] = s[b] + s[b + 1u] + s[b + 2u] + s[b + 3u];\n"
    "}\n";

static const char SHARED_BARRIER[] = SHARED_HEAD
    "    barrier();\n"
    "    float a = s[4u * l];\n"
    "    barrier();\n"
    "    o[gl_GlobalInvocationID.x] = a + s[4u * l + 1u];\n"
    "}\n";

static void test_shared(void **state)
{
    (void)state;
    kfix x;
    const access_summary *a[8];
    run(&x, SHARED4, 1024, 0, 0);
    assert_int_equal(accesses(&x, SPACE_SHARED, 0, a), 4);
    for (int j = 0; j < 4; j++)
        assert_float_equal(a[j]->sim_bank_degree, 4, 1e-9);
    double as_written = term(&x, "shared");
    kfix_close(&x);

    run(&x, SHARED4, 1024, 16, 0);
    assert_int_equal(accesses(&x, SPACE_SHARED, 0, a), 4);
    assert_int_equal(a[0]->sim_merge, 1);
    assert_float_equal(a[0]->sim_bank_degree, 1, 1e-9);
    assert_float_equal(a[0]->sim_lane_bytes, 16, 1e-9);
    assert_int_equal(a[3]->sim_merge, 2);
    assert_int_equal(accesses(&x, SPACE_SHARED, 1, a), 4);
    assert_int_equal(a[0]->sim_merge, 1);
    assert_float_equal(a[0]->sim_bank_degree, 1, 1e-9);
    near_rel(term(&x, "shared"), as_written / 4, 1e-6);
    kfix_close(&x);

    run(&x, SHARED_HALVES, 1024, 16, 0);
    assert_int_equal(accesses(&x, SPACE_SHARED, 0, a), 4);
    assert_int_equal(a[0]->sim_merge, 1);
    assert_float_equal(a[0]->sim_bank_degree, 1, 1e-9);
    kfix_close(&x);
    wide_broadcast = 1;
    run(&x, SHARED_HALVES, 1024, 16, 0);
    wide_broadcast = -1;
    assert_int_equal(accesses(&x, SPACE_SHARED, 0, a), 4);
    assert_float_equal(a[0]->sim_bank_degree, 0.5, 1e-9);
    /* the merged stores (lanes 16 B apart, all distinct) are the same */
    assert_int_equal(accesses(&x, SPACE_SHARED, 1, a), 4);
    assert_float_equal(a[0]->sim_bank_degree, 1, 1e-9);
    kfix_close(&x);

    run(&x, SHARED_SHIFTED, 1024, 16, 0);
    expect_lead(&x, SPACE_SHARED, 0, "1220", 0, 16, a);
    assert_float_equal(a[0]->sim_bank_degree, 1, 1e-9);
    assert_float_equal(a[3]->sim_bank_degree, 4, 1e-9);
    kfix_close(&x);

    run(&x, SHARED_BARRIER, 1024, 16, 0);
    expect_roles(&x, SPACE_SHARED, 0, "00");
    expect_roles(&x, SPACE_SHARED, 1, "12"); /* the two stores before it */
    kfix_close(&x);
}

/* Buffer stores the compiler does not merge (merge_buffer_bytes 0, as on
 * the H200) still arrive back to back: a run.  STORES4: the cache model
 * sees the run's 16 whole sectors (none partial), the L1 the four
 * requests' 4 lines each (16 lookups, 0.5 a lead lane execution), and L2
 * 4 store requests a subgroup: 8 subgroups x 4 = 32, at 0.5 G/s 0.064 us
 * (the l2 term the larger of that and its bytes).  STORES3 (12-byte lanes,
 * unaligned) runs too: 24 requests. */
static void test_store_runs(void **state)
{
    (void)state;
    kfix x;
    const access_summary *a[8];
    buffer_width = 0;
    run(&x, STORES4, 1024, 16, 0);
    expect_roles(&x, SPACE_STORAGE, 1, "1222");
    assert_int_equal(accesses(&x, SPACE_STORAGE, 1, a), 4);
    assert_float_equal(a[0]->sim_l2_partial, 0, 1e-9);
    assert_float_equal(a[0]->sim_l2_sectors, 0.5, 1e-9);
    assert_float_equal(a[0]->sim_l1_lines, 4 * 4 / 32.0, 1e-9);
    assert_float_equal(x.kc.l2_store_runs, 32, 1e-9);
    double l2_unpriced = term(&x, "l2");
    kfix_close(&x);
    run_tweak_rate = 0.5;
    run(&x, STORES4, 1024, 16, 0);
    near_rel(term(&x, "l2"), fmax(l2_unpriced, 32 / 500.0), 1e-6);
    /* the store runs won the l2 term: named once (the worst-case pass
     * states nothing), as runs, not as line lookups of loads; the runs
     * are not called merged */
    assert_true(32 / 500.0 > l2_unpriced);
    assert_int_equal(assumptions_with(&x, "L2 term from its store runs: "
                                          "3.2e-05 M requests"), 1);
    assert_false(has_assumption(&x, "line lookups"));
    assert_int_equal(assumptions_with(&x, "1 run(s) of one invocation's "
                                          "adjacent loads or stores (the "
                                          "first at line"), 1);
    assert_false(has_assumption(&x, "simulated as one request each"));
    kfix_close(&x);
    run_tweak_rate = -1;
    run(&x, STORES3, 768, 16, 0);
    expect_roles(&x, SPACE_STORAGE, 1, "122");
    assert_float_equal(x.kc.l2_store_runs, 24, 1e-9);
    kfix_close(&x);
    buffer_width = -1;
}

/* Two scalar stores a lane at words 12i + 4 and 12i + 5 (8 B at byte 16 of
 * 48-B records, velocity.xy of a body): a run the compiler issues as two
 * store instructions.  Lanes 48 B apart, each alone in its sector, 8 of
 * its 32 bytes written: the run leaves every sector partial, and both
 * members write into it: per lead lane execution 2 partial stores into a
 * sector L2 does not hold (open), 2 sectors at L2, 1 read-modify-write.
 * 256 lanes: 512 open stores; at l2_partial_stream_gops 0.5 (500 per us)
 * the l2 term is 512 / 500 = 1.024 us (the bytes at L2 are the priced
 * stores' sectors: 512 x 32 B); one store a lane would be 0.512. */
static const char RECORD_XY[] = HEAD
    "    d[12u * i + 4u] = 1.0;\n"
    "    d[12u * i + 5u] = 2.0;\n"
    "}\n";

static void test_run_partial_sectors(void **state)
{
    (void)state;
    kfix x;
    const access_summary *a[8];
    buffer_width = 0;
    run_stream_rate = 0.5;
    run(&x, RECORD_XY, 3072, 16, 0);
    expect_roles(&x, SPACE_STORAGE, 1, "12");
    assert_int_equal(accesses(&x, SPACE_STORAGE, 1, a), 2);
    assert_float_equal(a[0]->sim_l2_partial, 2, 1e-9);
    assert_float_equal(a[0]->sim_l2_partial_open, 2, 1e-9);
    assert_float_equal(a[0]->sim_l2_sectors, 2, 1e-9);
    assert_float_equal(a[0]->sim_dram_rmw_sectors, 1, 1e-9);
    assert_float_equal(x.kc.l2_store_runs, 16, 1e-9);
    near_rel(term(&x, "l2"), 1.024, 1e-6);
    kfix_close(&x);
    run_stream_rate = -1;
    buffer_width = -1;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_four_stores),
        cmocka_unit_test(test_what_cannot_merge),
        cmocka_unit_test(test_loads),
        cmocka_unit_test(test_shared),
        cmocka_unit_test(test_store_runs),
        cmocka_unit_test(test_run_partial_sectors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
