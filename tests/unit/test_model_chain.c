/* test_model_chain.c - the latency path follows the longest dependent
 * chain one invocation runs (verifier/model_path.c chain_steps,
 * longest_chain_ns; the evaluator's per-lane counts, verifier.h
 * chain_execs and chain_peer): GLSL kernels of our own whose lanes walk
 * lists of known lengths, evaluated, simulated and predicted on the test
 * GPU with a 1-µs DRAM round trip, checked against the trips worked out
 * by hand. */
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

/* The kernel on tests/unit/traffic_gpu.json (4 units, 1 GHz, 1000 GB/s,
 * no L1 or L2 latency: every trip a DRAM trip) with a 1000-ns DRAM round
 * trip; one workgroup of 256, the lists (bindings 0 and 1) a ramp: a walk
 * p = list[p] + 1 steps through consecutive words. */
/* The workgroup-memory round trip chain_run's profile gives (0: none). */
static double shared_latency_ns;

static void chain_run(kfix *x, const char *glsl)
{
    static const char *plan_json =
        "{\"kernels\":[{\"name\":\"ch\",\"shader\":\"k.comp\","
        "\"workgroups\":[1,1,1],\"buffers\":["
        "{\"binding\":0,\"elements\":65536,\"init\":\"ramp\"},"
        "{\"binding\":1,\"elements\":65536,\"init\":\"ramp\"},"
        "{\"binding\":2,\"elements\":256}]}]}";
    cw_error err;
    plan_kernel *k = kfix_open(x, glsl, plan_json);
    if (profile_load_file(cw_root_file("tests/unit/traffic_gpu.json"), &x->prof, &err))
        kfix_fail("profile", &err);
    x->prof.mem_latency_ns = 1000;
    x->prof.shared_latency_ns = shared_latency_ns;
    assert_int_equal(eval_run(&x->m, &x->r, k, &x->prof, &x->kc, x->kr), 0);
    model_traffic_simulate(&x->m, &x->r, k, &x->prof, &x->kc);
    model_predict(&x->kc, &x->r, k, &x->prof, &x->kr->prediction, x->kr);
}

static double latency_us(const kfix *x)
{
    const prediction *p = &x->kr->prediction;
    for (size_t i = 0; i < p->nterms; i++)
        if (strcmp(p->terms[i].name, "latency") == 0)
            return p->terms[i].time_us;
    return -1;
}

/* The load of binding b (the first, storage loads only). */
static const access_summary *load_of(const kfix *x, uint32_t b)
{
    for (size_t i = 0; i < x->kc.naccesses; i++) {
        const access_summary *a = &x->kc.accesses[i];
        if (a->space == SPACE_STORAGE && !a->is_store && a->binding == b)
            return a;
    }
    return NULL;
}

#define KERNEL_HEAD                                                           \
    "#version 450\n"                                                          \
    "layout(local_size_x = 256) in;\n"                                        \
    "layout(set = 0, binding = 0) readonly buffer A { uint a[]; };\n"         \
    "layout(set = 0, binding = 1) readonly buffer B { uint b[]; };\n"         \
    "layout(set = 0, binding = 2) writeonly buffer O { uint o[]; };\n"

/* Lane 0 walks 100 steps of a; the others return. */
static const char *ONE_LANE = KERNEL_HEAD
    "void main() {\n"
    "    uint l = gl_LocalInvocationID.x;\n"
    "    if (l != 0u) return;\n"
    "    uint p = 0u;\n"
    "    for (uint n = 0u; n < 100u; n++) p = a[p] + 1u;\n"
    "    o[l] = p;\n"
    "}\n";

/* Every lane walks 100 steps of a from its own start. */
static const char *EVERY_LANE = KERNEL_HEAD
    "void main() {\n"
    "    uint l = gl_LocalInvocationID.x;\n"
    "    uint p = l * 128u;\n"
    "    for (uint n = 0u; n < 100u; n++) p = a[p] + 1u;\n"
    "    o[l] = p;\n"
    "}\n";

/* Lane 0 walks 100 steps of a, lane 32 (another subgroup) 60 of b. */
static const char *TWO_LANES = KERNEL_HEAD
    "void main() {\n"
    "    uint l = gl_LocalInvocationID.x, p = 0u;\n"
    "    if (l == 0u)\n"
    "        for (uint n = 0u; n < 100u; n++) p = a[p] + 1u;\n"
    "    else if (l == 32u)\n"
    "        for (uint n = 0u; n < 60u; n++) p = b[p] + 1u;\n"
    "    else return;\n"
    "    o[l] = p;\n"
    "}\n";

/* Lane 0 walks 100 steps of a, then 60 of b. */
static const char *ONE_LANE_TWO_LISTS = KERNEL_HEAD
    "void main() {\n"
    "    uint l = gl_LocalInvocationID.x, p = 0u;\n"
    "    if (l != 0u) return;\n"
    "    for (uint n = 0u; n < 100u; n++) p = a[p] + 1u;\n"
    "    for (uint n = 0u; n < 60u; n++) p = b[p] + 1u;\n"
    "    o[l] = p;\n"
    "}\n";

/* One lane's 100 steps are 100 round trips of 1 µs (plus the base trip
 * and a few issue cycles), as many as when every lane walks: the group
 * waits for its longest chain, not for 100 / 256 steps of its average
 * invocation (0.4 µs before). */
static void test_one_lane_chain(void **state)
{
    (void)state;
    kfix x, y;
    chain_run(&x, ONE_LANE);
    chain_run(&y, EVERY_LANE);
    const access_summary *c = load_of(&x, 0), *e = load_of(&y, 0);
    assert_non_null(c);
    assert_non_null(e);
    assert_true(c->chase_of > 0 && e->chase_of > 0);
    assert_true(c->count == 100 && e->count == 25600);
    assert_true(c->chain_execs == 100 && e->chain_execs == 100);
    /* 100 steps + the base trip, 1 µs each, and the walking lane's ~9
     * instructions a step issued one after the other (0.9 µs at 1 GHz):
     * as much as each lane's when every lane walks */
    assert_true(latency_us(&x) > 101.5 && latency_us(&x) < 102.2);
    assert_true(fabs(latency_us(&y) - latency_us(&x)) < 0.2);
    kfix_close(&x);
    kfix_close(&y);
}

/* Chains run by different lanes overlap: 100 steps (lane 0) beside 60
 * (lane 32) wait 100 trips; one lane running both waits 160. */
static void test_chains_of_lanes(void **state)
{
    (void)state;
    kfix x, y;
    chain_run(&x, TWO_LANES);
    chain_run(&y, ONE_LANE_TWO_LISTS);
    const access_summary *xa = load_of(&x, 0), *ya = load_of(&y, 0);
    assert_non_null(xa);
    assert_non_null(ya);
    assert_true(xa->chain_peer[0] == 0); /* lane 0 runs no load of b */
    assert_true(ya->chain_peer[0] > 0 && ya->chain_peer_execs[0] == 60);
    assert_true(load_of(&y, 1) == &y.kc.accesses[ya->chain_peer[0] - 1]);
    /* 100 (or 160) trips, the base trip, ~9 instructions a step */
    assert_true(latency_us(&x) > 101.5 && latency_us(&x) < 102.2);
    assert_true(latency_us(&y) > 161.8 && latency_us(&y) < 162.8);
    kfix_close(&x);
    kfix_close(&y);
}

/* Every lane streams 100 trips of a at a stride read from b[1] (1 in
 * the ramp) on every trip: b[1] is one address for every lane, a
 * parameter, not a step of a walk, so a[l + 256 k b[1]] waits for no
 * load's value: its path is the constant-stride loop's (the base trip
 * and ~1 us of issue, no chase trips), not 100 trips of 1 us more. */
static const char *STRIDE_PARAM = KERNEL_HEAD
    "void main() {\n"
    "    uint l = gl_LocalInvocationID.x, acc = 0u;\n"
    "    for (uint k = 0u; k < 100u; k++) acc += a[l + k * 256u * b[1]];\n"
    "    o[l] = acc;\n"
    "}\n";

static const char *STRIDE_CONST = KERNEL_HEAD
    "void main() {\n"
    "    uint l = gl_LocalInvocationID.x, acc = 0u;\n"
    "    for (uint k = 0u; k < 100u; k++) acc += a[l + k * 256u];\n"
    "    o[l] = acc;\n"
    "}\n";

/* Lane 0 walks 100 steps of a and reads b at each step's value: b[p]
 * waits for a's step (a uniform source that is itself a walk): 100
 * chase trips of each, 200 us. */
static const char *ONE_LANE_WALK_READ = KERNEL_HEAD
    "void main() {\n"
    "    uint l = gl_LocalInvocationID.x, s = 0u;\n"
    "    if (l != 0u) return;\n"
    "    uint p = 0u;\n"
    "    for (uint n = 0u; n < 100u; n++) { p = a[p] + 1u; s += b[p]; }\n"
    "    o[l] = s;\n"
    "}\n";

static void test_parameter_reloaded_no_chase(void **state)
{
    (void)state;
    kfix x, y, z;
    chain_run(&x, STRIDE_PARAM);
    chain_run(&y, STRIDE_CONST);
    chain_run(&z, ONE_LANE_WALK_READ);
    const access_summary *a = load_of(&x, 0), *w = load_of(&z, 1);
    assert_non_null(a);
    assert_non_null(w);
    /* a's address comes from b[1]'s load, run every trip by every lane */
    assert_true(a->chase_of > 0 && a->count == 25600);
    const access_summary *src = &x.kc.accesses[a->chase_of - 1];
    assert_true(src->uniform && src->binding == 1 && src->chain_execs > 1);
    assert_true(latency_us(&x) < 10);
    assert_true(fabs(latency_us(&x) - latency_us(&y)) < 1);
    assert_true(w->chase_of > 0 && z.kc.accesses[w->chase_of - 1].uniform);
    /* 100 steps of a and 100 of b (one lane's chase loads add up), the
     * base trip, ~2 us of issue */
    assert_true(latency_us(&z) > 201 && latency_us(&z) < 203);
    kfix_close(&x);
    kfix_close(&y);
    kfix_close(&z);
}

/* Lane 0 runs 2000 dependent integer steps, the others return. */
static const char *ONE_LANE_ALU = KERNEL_HEAD
    "void main() {\n"
    "    uint l = gl_LocalInvocationID.x;\n"
    "    if (l != 0u) return;\n"
    "    uint p = a[0];\n"
    "    for (uint n = 0u; n < 2000u; n++) p = p * 1664525u + 1013904223u;\n"
    "    o[l] = p;\n"
    "}\n";

/* Every lane runs them. */
static const char *EVERY_LANE_ALU = KERNEL_HEAD
    "void main() {\n"
    "    uint l = gl_LocalInvocationID.x;\n"
    "    uint p = a[l];\n"
    "    for (uint n = 0u; n < 2000u; n++) p = p * 1664525u + 1013904223u;\n"
    "    o[l] = p;\n"
    "}\n";

/* The group's busiest invocation issues its instructions one after the
 * other (verifier.h chain_instr_ratio): lane 0's 2000 steps cost the path
 * what every lane's do (several instructions a step at 1 GHz: > 4 µs),
 * not 2000 / 256 steps' worth. */
static void test_busiest_lane_issue(void **state)
{
    (void)state;
    kfix x, y;
    chain_run(&x, ONE_LANE_ALU);
    chain_run(&y, EVERY_LANE_ALU);
    assert_true(x.kc.chain_instr_ratio > 100);
    assert_true(y.kc.chain_instr_ratio == 1);
    double issue_x = latency_us(&x) - 1, issue_y = latency_us(&y) - 1; /* less the base trip */
    assert_true(issue_y > 4);
    assert_true(fabs(issue_x - issue_y) < 0.02 * issue_y);
    kfix_close(&x);
    kfix_close(&y);
}

/* A barrier-separated tree (bench/gpu/probes/kernels/scan_chain.comp's
 * 20 levels a pass, 48 passes): ~3.7 M interpreted lane-steps a group of
 * 256, two groups more than the first count's 6 M. */
static const char *TREE = KERNEL_HEAD
    "shared uint t[512];\n"
    "void main() {\n"
    "    uint l = gl_LocalInvocationID.x;\n"
    "    t[2u * l] = a[2u * l];\n"
    "    t[2u * l + 1u] = a[2u * l + 1u];\n"
    "    for (uint r = 0u; r < 48u; r++) {\n"
    "        uint off = 1u;\n"
    "        for (uint d = 256u; d > 0u; d >>= 1) {\n"
    "            barrier();\n"
    "            if (l < d) t[off * (2u * l + 2u) - 1u] += t[off * (2u * l + 1u) - 1u];\n"
    "            off <<= 1;\n"
    "        }\n"
    "        barrier();\n"
    "        if (l == 0u) t[511u] = r;\n"
    "        for (uint d = 1u; d < 512u; d <<= 1) {\n"
    "            off >>= 1;\n"
    "            barrier();\n"
    "            if (l < d) {\n"
    "                uint ai = off * (2u * l + 1u) - 1u, bi = off * (2u * l + 2u) - 1u;\n"
    "                uint v = t[ai];\n"
    "                t[ai] = t[bi];\n"
    "                t[bi] += v;\n"
    "            }\n"
    "        }\n"
    "        barrier();\n"
    "    }\n"
    "    o[l] = t[2u * l];\n"
    "}\n";

/* A dispatch of half the test GPU's 4 units whose first count ran out of
 * its budget is counted again with half the recount's (64 M steps: eval.h
 * EV_RETRY_STEPS in proportion to the units it fills), whole: 2 groups x
 * 48 passes x 20 barriers (it kept the bounded first count before). */
static void test_small_dispatch_recounted(void **state)
{
    (void)state;
    static const char *plan_json =
        "{\"kernels\":[{\"name\":\"tree\",\"shader\":\"k.comp\","
        "\"workgroups\":[2,1,1],\"buffers\":["
        "{\"binding\":0,\"elements\":1024},{\"binding\":1,\"elements\":16},"
        "{\"binding\":2,\"elements\":512}]}]}";
    kfix x;
    cw_error err;
    plan_kernel *k = kfix_open(&x, TREE, plan_json);
    if (profile_load_file(cw_root_file("tests/unit/traffic_gpu.json"), &x.prof, &err))
        kfix_fail("profile", &err);
    assert_int_equal(eval_run(&x.m, &x.r, k, &x.prof, &x.kc, x.kr), 0);
    assert_false(x.kc.budget_hit);
    assert_true(x.kc.barriers == 2.0 * 48 * 20);
    kfix_close(&x);
}

/* 50 levels through workgroup memory, each ordered by a subgroup barrier
 * (each lane reads its subgroup neighbour's word), and the same levels
 * without it. */
#define SG_LEVELS(order)                                                      \
    "#version 450\n"                                                          \
    "#extension GL_KHR_shader_subgroup_basic : require\n"                     \
    "layout(local_size_x = 256) in;\n"                                        \
    "layout(set = 0, binding = 0) readonly buffer A { uint a[]; };\n"         \
    "layout(set = 0, binding = 2) writeonly buffer O { uint o[]; };\n"        \
    "shared uint s[256];\n"                                                   \
    "void main() {\n"                                                         \
    "    uint l = gl_LocalInvocationID.x;\n"                                  \
    "    s[l] = a[l];\n"                                                      \
    "    " order "\n"                                                         \
    "    for (uint n = 0u; n < 50u; n++) {\n"                                 \
    "        s[l] += s[l ^ 1u];\n"                                            \
    "        " order "\n"                                                     \
    "    }\n"                                                                 \
    "    o[l] = s[l];\n"                                                      \
    "}\n"

/* A subgroup barrier that orders workgroup memory is a step of the path:
 * after it a lane reads what its neighbours wrote, one workgroup-memory
 * round trip (1 µs here) each: 51 of them, 51 µs more than the same
 * levels unordered. */
static void test_subgroup_barrier_round_trips(void **state)
{
    (void)state;
    kfix x, y;
    shared_latency_ns = 1000;
    chain_run(&x, SG_LEVELS("subgroupBarrier();"));
    chain_run(&y, SG_LEVELS(""));
    shared_latency_ns = 0;
    assert_true(x.kc.subgroup_barriers == 256 * 51);
    assert_true(y.kc.subgroup_barriers == 0);
    assert_true(fabs(latency_us(&x) - latency_us(&y) - 51) < 0.5);
    kfix_close(&x);
    kfix_close(&y);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_lane_chain),
        cmocka_unit_test(test_chains_of_lanes),
        cmocka_unit_test(test_parameter_reloaded_no_chase),
        cmocka_unit_test(test_busiest_lane_issue),
        cmocka_unit_test(test_small_dispatch_recounted),
        cmocka_unit_test(test_subgroup_barrier_round_trips),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
