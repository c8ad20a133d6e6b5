/* test_model_memterms.c - the GPU memory terms (verifier/model_memterms.h)
 * on counts and traffic written for the test: the DRAM term with the
 * latency path it overlaps, and the assumption the L2 term states.  Every
 * expected number is worked out by hand in the comments. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>

#include <cmocka.h>

#include "model_memterms.h"
#include "unit.h"
#include "path_fixture.h"

static int near(double a, double b) { return fabs(a - b) <= 1e-9 * fabs(b) + 1e-12; }

/* One unit, 8 resident workgroups of 256 (one wave of 8 groups), DRAM
 * 1000 GB/s (1e6 B/us) both ways, a 100 ns round trip: the bandwidth-delay
 * product is 1e6 x 0.1 = 1e5 bytes a unit. */
typedef struct setup {
    kernel_counts c;
    access_summary acc[4];
    device_profile p;
    dram_rates dram;
    gpu_path_in path;
    gpu_mem_in in;
    kernel_report kr;
} setup;

static void setup_init(setup *s)
{
    memset(s, 0, sizeof *s);
    profile_init(&s->p);
    s->c.invocations = 8 * 256;
    s->c.fp_chains = 1;
    s->c.accesses = s->acc;
    s->dram.read_bpus = s->dram.write_bpus = 1e6;
    s->path = (gpu_path_in){.c = &s->c, .groups = 8, .wg = 256, .units = 1,
                            .resident = 8, .waves = 1, .read_bpus = 1e6,
                            .latency_ns = 100, .sector = 32,
                            .clock_ghz = 1, .fp_lat_cyc = 4};
    s->in.p = &s->p;
    s->in.path = &s->path;
    s->in.dram = &s->dram;
    s->in.sector = 32;
    s->in.l2_bpus = 1e7;
    s->in.l1_bpus = s->in.shared_bpus = 1e7;
    s->in.imbalance = 1;
}

/* A load of lane_bytes DRAM bytes a lane per execution (path_fixture.h),
 * its bytes in the DRAM reads. */
static void load(setup *s, double lane_bytes, double executions, int index_known)
{
    access_summary *a = path_load(&s->c, executions, lane_bytes / 32,
                                  lane_bytes, index_known);
    s->in.dram_read += a->count * lane_bytes;
}

/* The other groups' loads cover the round trip, the path is still the
 * larger share: no "more bytes in flight" (review item 9).  A: 64 bytes a
 * lane, once: 2048 lanes x 64 = 131072 B >= 1e5, its trip hidden; a
 * group's share 64 x 256 = 16384 B, the 7 others 114688 B >= 1e5: they
 * cover the product.  B: a 4-byte chase ten times an invocation, 2048 x 4
 * = 8192 B < 1e5: ten trips of 100 ns on the path, 1 us.  DRAM reads
 * 131072 + 81920 = 212992 B, 0.212992 us.  dram = max(0.213, 1) = 1 us,
 * the latency term the path, 1 us; the path is over a quarter of
 * DRAM's time (1 > 0.25 x 1.213) but the bytes in flight cover it. */
static void test_covered_not_inflight_limited(void **state)
{
    (void)state;
    setup s;
    setup_init(&s);
    load(&s, 64, 1, 1);
    load(&s, 4, 10, 0);
    gpu_mem_out out;
    gpu_memory_terms(&s.in, &s.kr.prediction, &out);
    assert_true(near(out.dram_us, 1));
    assert_true(near(out.latency_us, 1));
    assert_int_equal(out.limited_by_inflight, 0);
    /* the same chase alone: nothing covers it and no affine load hides
     * the base round trip: 11 trips, a 1.1 us path against DRAM's
     * 0.08192 (the dram term the transfer, the latency term both,
     * 1.18192), and more bytes in flight is the advice */
    setup_init(&s);
    load(&s, 4, 10, 0);
    gpu_memory_terms(&s.in, &s.kr.prediction, &out);
    assert_true(near(out.dram_us, 0.08192));
    assert_true(near(out.latency_us, 1.18192));
    assert_int_equal(out.limited_by_inflight, 1);
    kernel_report_free(&s.kr);
}

CW_UNIT_MAIN(NULL, NULL, cmocka_unit_test(test_covered_not_inflight_limited))
