/* test_stats.c - median, MAD, p90 and the sampling stop rule. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "stats.h"

static const struct {
    int line;
    double v[9];
    size_t n;
    double median, mad, min, max, p90;
} cases[] = {
    {__LINE__, {5}, 1, 5, 0, 5, 5, 5},
    {__LINE__, {2, 1}, 2, 1.5, 0.5, 1, 2, 2},
    {__LINE__, {3, 1, 2}, 3, 2, 1, 1, 3, 3},
    /* outlier: median and MAD ignore it, max and p90 see it */
    {__LINE__, {10, 10, 11, 9, 10, 10, 12, 10, 100}, 9, 10, 0, 9, 100, 100},
    {__LINE__, {1, 2, 3, 4, 5, 6, 7, 8, 9}, 9, 5, 2, 1, 9, 9},
    {__LINE__, {4, 1, 3, 2}, 4, 2.5, 1, 1, 4, 4},
};

static void test_summary_table(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        double copy[9];
        memcpy(copy, cases[i].v, sizeof copy);
        stats_summary s;
        stats_compute(cases[i].v, cases[i].n, &s);
        if (s.n != cases[i].n || s.median != cases[i].median ||
            s.mad != cases[i].mad || s.min != cases[i].min ||
            s.max != cases[i].max || s.p90 != cases[i].p90)
            fail_msg("row at line %d: median %g mad %g min %g max %g p90 %g",
                     cases[i].line, s.median, s.mad, s.min, s.max, s.p90);
        /* input untouched */
        assert_memory_equal(copy, cases[i].v, sizeof copy);
    }
}

static void test_p90_nearest_rank(void **state)
{
    (void)state;
    double v[20];
    for (int i = 0; i < 20; i++)
        v[i] = 20 - i; /* 20..1 */
    stats_summary s;
    stats_compute(v, 20, &s);
    assert_true(s.p90 == 18); /* ceil(0.9*20) = 18th smallest */
    assert_true(s.median == 10.5);
}

static void test_empty(void **state)
{
    (void)state;
    stats_summary s;
    stats_compute(NULL, 0, &s);
    assert_int_equal(s.n, 0);
    assert_true(stats_rel_spread(&s) == 0);
}

static void test_stop_rule(void **state)
{
    (void)state;
    stats_policy p;
    stats_policy_default(&p, 5, 1.0);
    double tight[] = {100, 100.5, 99.8, 100.2, 100.1, 99.9, 100};
    double wide[] = {100, 150, 60, 130, 80, 120, 70};
    /* below the minimum: always continue, even past the budget */
    assert_true(stats_should_continue(tight, 4, &p, 10.0));
    assert_true(stats_should_continue(wide, 0, &p, 0));
    /* minimum reached, tight spread: stop */
    assert_false(stats_should_continue(tight, 5, &p, 0.1));
    /* minimum reached, wide spread, budget left: continue */
    assert_true(stats_should_continue(wide, 5, &p, 0.1));
    assert_true(stats_should_continue(wide, 7, &p, 0.9));
    /* wide spread but budget spent: stop */
    assert_false(stats_should_continue(wide, 7, &p, 1.0));
    /* between checkpoints the spread is not looked at: continue */
    double many[64];
    for (int i = 0; i < 64; i++)
        many[i] = 100.0 + (i % 2) * 0.01; /* tight */
    assert_false(stats_should_continue(many, 5, &p, 0.1)); /* checkpoint */
    assert_false(stats_should_continue(many, 37, &p, 0.1)); /* step 2: 32 */
    assert_true(stats_should_continue(many, 38, &p, 0.1));  /* not one */
    assert_false(stats_should_continue(many, 38, &p, 1.0)); /* budget */
    /* hard cap */
    p.max_samples = 6;
    assert_false(stats_should_continue(wide, 6, &p, 0.1));
}

static void test_fill_measurement(void **state)
{
    (void)state;
    measurement m;
    memset(&m, 0, sizeof m);
    double v[] = {3, 1, 2};
    stats_fill_measurement(&m, v, 3);
    assert_true(m.valid);
    assert_int_equal(m.samples, 3);
    assert_true(m.median_us == 2 && m.min_us == 1 && m.max_us == 3);
    assert_int_equal(m.nsample_us, 3);
    assert_true(m.sample_us[0] == 3); /* in order, not sorted */
    free(m.sample_us);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_summary_table),
        cmocka_unit_test(test_p90_nearest_rank),
        cmocka_unit_test(test_empty),
        cmocka_unit_test(test_stop_rule),
        cmocka_unit_test(test_fill_measurement),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
