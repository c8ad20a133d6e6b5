/* test_calibrate_cpu.c - lavapipe's instruction classes in calibrate
 * (collectors/calibrate_cpu.h): the class split, the pricing with its
 * fallback, the joint solve of the four class rows and the split of a
 * workgroup's cost into its start and its subgroups, hand-computed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "calibrate_cpu.h"
#include "profile.h"

static void test_classes(void **state)
{
    (void)state;
    double c[CAL_CLS_N];
    /* 100 instructions, 40 FLOPs (20 FMAs), 30 integer, 5 special */
    cal_cpu_classes(100, 40, 30, 5, c);
    assert_float_equal(c[CAL_CLS_FP], 20, 0);
    assert_float_equal(c[CAL_CLS_INT], 30, 0);
    assert_float_equal(c[CAL_CLS_SFU], 5, 0);
    assert_float_equal(c[CAL_CLS_REST], 45, 0);
    /* FLOPs of adds (one a FLOP) can exceed the instruction count / 2:
     * the rest never goes negative */
    cal_cpu_classes(10, 30, 0, 0, c);
    assert_float_equal(c[CAL_CLS_REST], 0, 0);
}

static void test_price_fallback(void **state)
{
    (void)state;
    device_profile p;
    profile_init(&p);
    p.cpu_cycles_per_instruction = 0.5;
    double c[CAL_CLS_N] = {8, 8, 8, 8};
    /* no class cost known: all 32 at 0.5 cycles, over 8-lane vectors */
    assert_float_equal(cal_cpu_instr_cycles(&p, c, 8), 2.0, 1e-12);
    p.cpu_cycles_per_sfu_instruction = 4.5;
    /* 24 x 0.5 + 8 x 4.5 = 48 lane-cycles / 8 */
    assert_float_equal(cal_cpu_instr_cycles(&p, c, 8), 6.0, 1e-12);
}

static void test_solve(void **state)
{
    (void)state;
    /* four kernels, each dominated by one class, mixing the others */
    const double cnt[CAL_CLS_N][CAL_CLS_N] = {
        {800, 40, 160, 0}, /* rest-heavy */
        {16, 1024, 48, 0}, /* FMA chains */
        {8, 0, 1600, 0},   /* integer chains */
        {8, 256, 48, 256}, /* inversesqrt chains: an add and an rsqrt */
    };
    const double want[CAL_CLS_N] = {0.38, 0.61, 0.5, 4.2};
    double cyc[CAL_CLS_N], x[CAL_CLS_N];
    for (int k = 0; k < CAL_CLS_N; k++) {
        cyc[k] = 0;
        for (int c = 0; c < CAL_CLS_N; c++)
            cyc[k] += cnt[k][c] / 8 * want[c];
    }
    assert_int_equal(cal_cpu_solve_classes(cyc, cnt, 8, x), 0);
    for (int c = 0; c < CAL_CLS_N; c++)
        assert_float_equal(x[c], want[c], 1e-9);
    /* a kernel with no special-function work anywhere: singular */
    double cnt2[CAL_CLS_N][CAL_CLS_N];
    memcpy(cnt2, cnt, sizeof cnt2);
    cnt2[3][3] = 0;
    x[0] = -7;
    assert_int_equal(cal_cpu_solve_classes(cyc, cnt2, 8, x), 1);
    assert_float_equal(x[0], -7, 0); /* untouched */
    /* times that make a class cost negative are refused */
    cyc[2] = 0;
    assert_int_equal(cal_cpu_solve_classes(cyc, cnt, 8, x), 1);
}

static void test_group_split(void **state)
{
    (void)state;
    double start = -1, sub = -1;
    /* 1 subgroup: 90 + 7 = 97 ns; 128 subgroups: 90 + 128 x 7 = 986 ns;
     * 7 ns at 2.5 GHz = 17.5 cycles */
    assert_int_equal(cal_cpu_group_split(97, 1, 986, 128, 2.5, &start, &sub),
                     0);
    assert_float_equal(start, 90, 1e-9);
    assert_float_equal(sub, 17.5, 1e-9);
    /* the wide workgroup no slower: the subgroups cost nothing, refused */
    start = sub = -1;
    assert_int_equal(cal_cpu_group_split(97, 1, 97, 128, 2.5, &start, &sub),
                     1);
    assert_float_equal(start, -1, 0);
    assert_float_equal(sub, -1, 0);
    /* subgroups worth more than the whole narrow workgroup: start < 0 */
    assert_int_equal(cal_cpu_group_split(10, 2, 1290, 130, 2.5, &start, &sub),
                     1);
    /* the same width twice cannot separate them */
    assert_int_equal(cal_cpu_group_split(97, 8, 200, 8, 2.5, &start, &sub), 1);
}

static void test_median(void **state)
{
    (void)state;
    /* one pass inflated by load (3.1) moves no median */
    double three[3] = {2.0, 3.1, 2.1};
    assert_float_equal(cal_cpu_median(three, 3), 2.1, 0);
    double two[2] = {4.0, 2.0};
    assert_float_equal(cal_cpu_median(two, 2), 3.0, 0);
    double one[1] = {7.5};
    assert_float_equal(cal_cpu_median(one, 1), 7.5, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_classes),
        cmocka_unit_test(test_price_fallback),
        cmocka_unit_test(test_solve),
        cmocka_unit_test(test_group_split),
        cmocka_unit_test(test_median),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
