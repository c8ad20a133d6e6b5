/* test_model_compiled.c - kept loops' control priced per trip
 * (verifier/model_compiled.h), hand-computed. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "model_compiled.h"
#include "profile.h"

#include <math.h>
#include <string.h>

/* 4 Mi invocations of a 1024-trip one-FMA loop (the evaluator's counts:
 * 2 integer operations and 5 instructions of control a trip) */
static kernel_counts chain_counts(void)
{
    kernel_counts c;
    memset(&c, 0, sizeof c);
    c.invocations = 4194304;
    c.loop_trips = 4194304.0 * 1024;
    c.loop_ctl_int_ops = 2 * c.loop_trips;
    c.loop_ctl_instructions = 5 * c.loop_trips;
    return c;
}

static void test_priced_per_trip(void **state)
{
    (void)state;
    device_profile p;
    profile_init(&p);
    p.kind = DEVICE_KIND_GPU;
    p.loop_trip_slots = 0.5;
    p.loop_trip_cycles = 3;
    kernel_counts c = chain_counts();
    mc_loops l;
    /* 25 G FMA lanes/s = 25000 per µs: 4 Gi lane-trips x 0.5 slots take
     * 2^31 / 25000 µs */
    mc_loop_control(&p, &c, 25000, 4194304, &l);
    assert_true(l.on);
    assert_float_equal(l.issue_us, 2147483648.0 / 25000, 1e-6);
    assert_float_equal(l.chain_cycles, 1024 * 3, 1e-9);
    assert_float_equal(l.ctl_int_ops, 2 * c.loop_trips, 0);
    assert_float_equal(l.ctl_instructions, 5 * c.loop_trips, 0);
}

static void test_off_without_costs(void **state)
{
    (void)state;
    device_profile p;
    profile_init(&p); /* both costs unknown */
    kernel_counts c = chain_counts();
    mc_loops l;
    mc_loop_control(&p, &c, 25000, 4194304, &l);
    assert_false(l.on);
    assert_float_equal(l.issue_us + l.chain_cycles + l.ctl_instructions, 0, 0);
    p.loop_trip_slots = 0.5; /* one of two: still off */
    mc_loop_control(&p, &c, 25000, 4194304, &l);
    assert_false(l.on);
    p.loop_trip_cycles = 3;
    p.kind = DEVICE_KIND_CPU_VULKAN; /* lavapipe prices its loops itself */
    mc_loop_control(&p, &c, 25000, 4194304, &l);
    assert_false(l.on);
    p.kind = DEVICE_KIND_GPU;
    c.loop_trips = 0; /* no kept loop recognised */
    mc_loop_control(&p, &c, 25000, 4194304, &l);
    assert_false(l.on);
}

/* every executed instruction one issue slot at the FP32 FMA lane rate:
 * 1000 instructions, 200 of them a kept loop's control (priced per trip
 * instead), 600 FP32 FLOPs (300 FMAs, already among the 1000): 800 slots;
 * with 400 FP16 FLOPs of them (200 scalar FMAs, 100 packed pairs) 100
 * fewer */
static void test_issue_slots(void **state)
{
    (void)state;
    device_profile p;
    profile_init(&p);
    p.kind = DEVICE_KIND_GPU;
    p.full_unroll_trips = 16;
    kernel_counts c;
    memset(&c, 0, sizeof c);
    c.instructions = 1000;
    c.flops_fp32 = 600;
    c.loop_trips = 40;
    mc_loops l;
    memset(&l, 0, sizeof l);
    assert_float_equal(mc_issue_slots_us(&p, &c, &l, 100), 0, 0); /* control unpriced */
    l.on = 1;
    l.ctl_instructions = 200;
    assert_float_equal(mc_issue_slots_us(&p, &c, &l, 100), 8.0, 1e-12);
    c.flops_fp16 = 400;
    assert_float_equal(mc_issue_slots_us(&p, &c, &l, 100), 7.0, 1e-12);
    /* FMAs the count says more of than instructions: the FMAs */
    c.instructions = 300;
    c.flops_fp16 = 0;
    c.flops_fp32 = 1200;
    assert_float_equal(mc_issue_slots_us(&p, &c, &l, 100), 6.0, 1e-12);
    p.full_unroll_trips = 0; /* counts as written: off */
    assert_float_equal(mc_issue_slots_us(&p, &c, &l, 100), 0, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_priced_per_trip),
        cmocka_unit_test(test_off_without_costs),
        cmocka_unit_test(test_issue_slots),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
