/* test_model_path.c - the GPU latency path (verifier/model_path.h): round
 * trips at the latency of the level that serves the data, and Little's
 * law per level, on counts written for the test (a pointer chase over an
 * L2-resident table, half-missing chases, affine loads); every expected
 * time is worked out by hand in the comments. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>

#include <cmocka.h>

#include "model_path.h"
#include "unit.h"
#include "path_fixture.h"

static int near(double a, double b) { return fabs(a - b) <= 1e-9 * fabs(b) + 1e-12; }

/* One unit with 8 resident workgroups of 256 (one wave of 8: 2048 lanes),
 * DRAM 1e6 B/us with a 300 ns round trip (bandwidth-delay product 3e5 B a
 * unit), L2 4e6 B/us with a 100 ns hit (4e5 B), L1 1e7 B/us with a 20 ns
 * hit (2e5 B), 32-B sectors, 1 GHz, no instructions: the path is its
 * round trips alone. */
typedef struct setup {
    kernel_counts c;
    access_summary acc[4];
    gpu_path_in in;
} setup;

static void setup_init(setup *s, double groups)
{
    memset(s, 0, sizeof *s);
    s->c.invocations = (uint64_t)(groups * 256);
    s->c.fp_chains = 1;
    s->c.accesses = s->acc;
    s->in = (gpu_path_in){.c = &s->c, .groups = groups, .wg = 256,
                          .units = 1, .resident = 8, .waves = 1,
                          .read_bpus = 1e6, .latency_ns = 300,
                          .l2_bpus = 4e6, .l2_latency_ns = 100,
                          .l1_bpus = 1e7, .l1_latency_ns = 20,
                          .sector = 32, .clock_ghz = 1, .fp_lat_cyc = 4};
}

/* A load, executions per invocation, each a sector at L2 of which dram
 * bytes come from DRAM (path_fixture.h). */
static void load(setup *s, double executions, double dram, int index_known)
{
    path_load(&s->c, executions, 1, dram, index_known);
}

static double path_ns(setup *s)
{
    gpu_path_out out;
    gpu_path(&s->in, &out);
    return out.path_us * 1e3;
}

/* Ten chase steps an invocation over a table L2 holds (no DRAM bytes):
 * 2048 lanes x 32 B = 65536 B in flight, below L2's 4e5: each step waits
 * an L2 hit, 100 ns, plus the base trip (no affine load: a DRAM round
 * trip, 300 ns): 1300 ns.  Before, the steps were DRAM trips decided on
 * DRAM bytes (0 in flight, never covered): 11 x 300 = 3300 ns, which is
 * also what a profile without l2_latency_ns gets. */
static void test_l2_resident_chase(void **state)
{
    (void)state;
    setup s;
    setup_init(&s, 8);
    load(&s, 10, 0, 0);
    assert_true(near(path_ns(&s), 300 + 10 * 100));
    s.in.l2_latency_ns = -1;
    assert_true(near(path_ns(&s), 11 * 300));
}

/* Half of each step's sector from DRAM (16 of 32 B): 2048 x 16 = 32 KiB
 * of DRAM in flight against 3e5, 64 KiB of L2 against 4e5: neither
 * covered, a step is 0.5 x 300 + 0.5 x 100 = 200 ns; 300 + 10 x 200 =
 * 2300 ns.  With 64 groups resident (16384 lanes) the L2 sectors in
 * flight are 16384 x 32 = 524288 B >= 4e5, the hits covered, the DRAM
 * share still not (16384 x 16 = 262144 < 3e5): 300 + 10 x 150 = 1800 ns. */
static void test_chase_half_from_dram(void **state)
{
    (void)state;
    setup s;
    setup_init(&s, 8);
    load(&s, 10, 16, 0);
    assert_true(near(path_ns(&s), 300 + 10 * 200));
    setup_init(&s, 64);
    s.in.resident = 64;
    load(&s, 10, 16, 0);
    assert_true(near(path_ns(&s), 300 + 10 * 150));
}

/* Affine loads are issued together: the base trip waits for the slowest
 * level any of them reaches.  One L2-resident affine load: a 100-ns base
 * trip (it was a DRAM trip).  With a second load half from DRAM: 300 ns
 * (its misses wait DRAM's round trip).  With every request covered (the
 * L2-resident one alone on 128 resident groups: 32768 x 32 = 1 MiB >=
 * 4e5): no base trip. */
static void test_affine_base_trip(void **state)
{
    (void)state;
    setup s;
    setup_init(&s, 8);
    load(&s, 1, 0, 1);
    assert_true(near(path_ns(&s), 100));
    load(&s, 1, 16, 1);
    assert_true(near(path_ns(&s), 300));
    setup_init(&s, 128);
    s.in.resident = 128;
    load(&s, 1, 0, 1);
    assert_true(near(path_ns(&s), 0));
}

/* A chase over values the plan gives (index known to the evaluator, the
 * address still computed from a load's value: eval_chase.h).  Ten column
 * loads an invocation (affine, L2-resident: the 100-ns base trip) and ten
 * gathers at those columns, L2-resident too: each gather waits for its
 * column load, ten 100-ns steps: 1100 ns.  Gathers at an offset from one
 * parameter every lane loads (a uniform load) wait for nothing: 100 ns.
 * Gathers that wait for a load made once an invocation wait once: 200 ns. */
static void test_known_chase(void **state)
{
    (void)state;
    setup s;
    setup_init(&s, 8);
    load(&s, 10, 0, 1);
    access_summary *x = path_load(&s.c, 10, 1, 0, 1);
    x->chase_of = 1; /* the column load */
    assert_true(near(path_ns(&s), 100 + 10 * 100));
    s.acc[0].uniform = 1;
    assert_true(near(path_ns(&s), 100));
    s.acc[0].uniform = 0;
    s.acc[0].count = (double)s.c.invocations;
    assert_true(near(path_ns(&s), 100 + 100));
}

/* A chase over a table L1 holds: each step requests a sector at L1, 2% of
 * them reach L2 (0.02 sectors), none DRAM.  2048 x 32 = 65536 B requested
 * in flight, below L1's 2e5; 2048 x 0.64 B at L2, below L2's 4e5: a step
 * waits 0.02 x 100 + 0.98 x 20 = 21.6 ns; 300 + 10 x 21.6 = 516 ns.
 * Without l1_latency_ns the hits wait L2's 100 ns: 300 + 10 x 100. */
static void test_l1_resident_chase(void **state)
{
    (void)state;
    setup s;
    setup_init(&s, 8);
    load(&s, 10, 0, 0);
    s.acc[0].sim_l1_sectors = 1;
    s.acc[0].sim_l2_sectors = 0.02;
    assert_true(near(path_ns(&s), 300 + 10 * 21.6));
    s.in.l1_latency_ns = -1;
    assert_true(near(path_ns(&s), 300 + 10 * 100));
}

CW_UNIT_MAIN(NULL, NULL, cmocka_unit_test(test_l2_resident_chase),
             cmocka_unit_test(test_l1_resident_chase),
             cmocka_unit_test(test_chase_half_from_dram),
             cmocka_unit_test(test_affine_base_trip),
             cmocka_unit_test(test_known_chase))
