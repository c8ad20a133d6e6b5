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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_priced_per_trip),
        cmocka_unit_test(test_off_without_costs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
