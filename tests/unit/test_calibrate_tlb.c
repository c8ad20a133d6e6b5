/* test_calibrate_tlb.c - the translation reach fit of calibrate's `tlb
 * span` rows (collectors/calibrate_tlb.h), on hand-computed rows. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "calibrate_tlb.h"

#define MIB (1024.0 * 1024.0)

static const double spans_mib[] = {2, 4, 8, 12, 16, 24, 32, 64, 128, 256};
enum { NS = sizeof spans_mib / sizeof spans_mib[0] };

/* rows of a device with reach R MiB: a = 5 ps a line (200 G lines/s), a
 * miss 16 ps (62.5 G misses/s): 16 MiB reads 0.005 + 0.016 x (1 - 8/16)
 * = 0.013 ns a line = 76.92 G lines/s at R = 8 */
static void rows(double reach_mib, double *span, double *gops)
{
    for (int i = 0; i < NS; i++) {
        span[i] = spans_mib[i] * MIB;
        double x = spans_mib[i] > reach_mib ? 1 - reach_mib / spans_mib[i] : 0;
        gops[i] = 1 / (0.005 + 0.016 * x);
    }
}

static void test_fit_exact(void **state)
{
    (void)state;
    double span[NS], gops[NS], reach, miss, base;
    rows(8, span, gops);
    assert_float_equal(gops[4], 1 / 0.013, 1e-9);
    assert_int_equal(cal_tlb_fit(span, gops, NS, 0.1, &reach, &miss, &base), 0);
    assert_float_equal(reach, 8 * MIB, 1);
    assert_float_equal(miss, 62.5, 1e-6);
    assert_float_equal(base, 200, 1e-6);
    /* a reach between two rows (7 MiB) is found on the 1/8 MiB grid */
    rows(7, span, gops);
    assert_int_equal(cal_tlb_fit(span, gops, NS, 0.1, &reach, &miss, &base), 0);
    assert_float_equal(reach, 7 * MIB, 1);
    assert_float_equal(miss, 62.5, 1e-6);
}

/* measured-like rows: noise of 1% moves the reach by less than 1 MiB */
static void test_fit_noise(void **state)
{
    (void)state;
    double span[NS], gops[NS], reach, miss, base;
    rows(8, span, gops);
    for (int i = 0; i < NS; i++)
        gops[i] *= i % 2 ? 1.01 : 0.99;
    assert_int_equal(cal_tlb_fit(span, gops, NS, 0.1, &reach, &miss, &base), 0);
    assert_true(fabs(reach - 8 * MIB) < 1 * MIB);
    assert_true(fabs(miss - 62.5) < 62.5 * 0.1);
}

/* H200 run 8's rows (docs/h200/run8/calibrate.txt): one step, R 6.875 MiB,
 * 67.8 G misses/s, a = 1/188.2 G lines/s; the fit reproduces 16 MiB
 * within 2% (0.005313 + 0.01475 x (1 - 6.875/16) = 0.01373 ns: 72.8 G/s
 * against 71.89 measured) */
static void test_fit_h200_run8(void **state)
{
    (void)state;
    const double g[NS] = {202.4, 176.7, 138.5, 84.92, 71.89,
                          62.82, 59.5,  54.37, 52.01, 50.95};
    double span[NS], reach, miss, base;
    for (int i = 0; i < NS; i++)
        span[i] = spans_mib[i] * MIB;
    assert_int_equal(cal_tlb_fit(span, g, NS, 0.1, &reach, &miss, &base), 0);
    assert_float_equal(reach, 6.875 * MIB, 1);
    assert_true(fabs(miss - 67.82) < 0.1);
    assert_true(fabs(base - 188.2) < 0.1);
    double t16 = 1 / base + (1 - reach / span[4]) / miss;
    assert_true(fabs(1 / t16 - g[4]) < 0.02 * g[4]);
}

static void test_fit_no_step(void **state)
{
    (void)state;
    double span[NS], gops[NS], reach, miss, base;
    rows(1024, span, gops); /* reach past every span: all at 200 */
    assert_int_equal(cal_tlb_fit(span, gops, NS, 0.1, &reach, &miss, &base), 1);
    assert_true(reach < 0 && miss < 0);
    /* rows that did not run (0 or unknown) are skipped: two left */
    rows(8, span, gops);
    for (int i = 2; i < NS; i++)
        gops[i] = i % 2 ? 0 : -1;
    assert_int_equal(cal_tlb_fit(span, gops, NS, 0.1, &reach, &miss, &base), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fit_exact),
        cmocka_unit_test(test_fit_noise),
        cmocka_unit_test(test_fit_h200_run8),
        cmocka_unit_test(test_fit_no_step),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
