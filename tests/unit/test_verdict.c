/* The verdict is a pure function: table-driven cases. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "verdict.h"

typedef struct vcase {
    int row;
    int pred_valid;
    double pred_us;
    int meas_valid;
    double median, mad;
    double tolerance;
    div_status want;
    const char *needle; /* in the explanation */
} vcase;

static const vcase cases[] = {
    {__LINE__, 1, 100, 1, 100, 1, 0.25, DIV_OK, "within"},
    {__LINE__, 1, 100, 1, 124, 0, 0.25, DIV_OK, "within ±25%"},
    {__LINE__, 1, 100, 1, 126, 0, 0.25, DIV_SLOWER, "1.26×"},
    {__LINE__, 1, 100, 1, 79, 0, 0.25, DIV_FASTER, "0.79×"},
    {__LINE__, 1, 100, 1, 81, 0, 0.25, DIV_OK, "within"},
    /* a noisy measurement widens the band: MAD 10% of the median -> ±55% */
    {__LINE__, 1, 100, 1, 150, 15, 0.25, DIV_OK, "±55%"},
    {__LINE__, 1, 100, 1, 200, 15, 0.25, DIV_SLOWER, "spread widely"},
    {__LINE__, 0, 0, 1, 100, 1, 0.25, DIV_UNKNOWN, "no prediction"},
    {__LINE__, 1, 100, 0, 0, 0, 0.25, DIV_UNKNOWN, "no measurement"},
    {__LINE__, 1, 100, 1, 1000, 0, 0.25, DIV_SLOWER, "the model's bound was dram"},
    {__LINE__, 1, 100, 1, 300, 0, 5.0, DIV_OK, "within"},
};

static void test_table(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const vcase *c = &cases[i];
        prediction p = {0};
        measurement m = {0};
        p.valid = c->pred_valid;
        p.time_us = c->pred_us;
        p.bound = (char *)"dram";
        p.bytes = 1e6;
        m.valid = c->meas_valid;
        m.median_us = c->median;
        m.mad_us = c->mad;
        m.samples = 10;
        divergence d = {0};
        verdict_judge(&p, &m, c->tolerance, 5, &d);
        if (!d.valid || d.status != c->want || !d.explanation ||
            !strstr(d.explanation, c->needle))
            fail_msg("row %d: status %s, explanation '%s'", c->row, div_status_name(d.status),
                     d.explanation ? d.explanation : "(null)");
        if (c->want != DIV_UNKNOWN && d.ratio != c->median / c->pred_us)
            fail_msg("row %d: ratio %g", c->row, d.ratio);
        free(d.explanation);
    }
}

static void test_evidence(void **state)
{
    (void)state;
    prediction p = {.valid = 1, .time_us = 10, .invocations = 1024};
    measurement m = {.valid = 1, .median_us = 11, .samples = 10, .has_invocations = 1,
                     .invocations = 1000, .has_cold = 1, .cold_us = 30};
    counter_value cv[2] = {
        {.name = (char *)"task-clock", .available = 1, .value = 5},
        {.name = (char *)"cycles", .available = 0, .reason = (char *)"no hardware PMU"},
    };
    m.counters = cv;
    m.ncounters = 2;
    divergence d = {0};
    verdict_judge(&p, &m, 0.25, 5, &d);
    assert_int_equal(d.status, DIV_OK);
    assert_non_null(strstr(d.explanation, "counted 1000 invocations, the model expected 1024"));
    assert_non_null(strstr(d.explanation, "cold first sample took 2.7×"));
    assert_non_null(strstr(d.explanation, "launch overhead"));
    assert_non_null(strstr(d.explanation, "1 of 2 counters unavailable (no hardware PMU)"));
    /* verdict_judge replaces (and frees) a previous explanation itself */
    /* a failed run says why */
    measurement failed = {.error = (char *)"kernel 'x' did not finish within 2 s"};
    verdict_judge(&p, &failed, 0.25, 5, &d);
    assert_int_equal(d.status, DIV_UNKNOWN);
    assert_non_null(strstr(d.explanation, "did not finish"));
    free(d.explanation);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table),
        cmocka_unit_test(test_evidence),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
