/* The verdict is a pure function: table-driven cases. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <jansson.h>
#include <math.h>
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

/* One meaning for GPU and native CPU rows: measured against predicted in
 * the band; beating the ideal (roofline) time is never ok. */
typedef struct rcase {
    int row;
    int roofline;     /* the prediction is the roofline (native CPU) */
    double pred_us, ideal_us, median, tolerance;
    div_status want;
    const char *finding; /* expected finding, or NULL for none */
    const char *needle;
} rcase;

static const rcase rcases[] = {
    /* GPU: ideal 50, predicted 100 */
    {__LINE__, 0, 100, 50, 110, 0.25, DIV_OK, NULL, "within ±25%"},
    {__LINE__, 0, 100, 50, 60, 0.25, DIV_FASTER, NULL, "0.60×"},
    {__LINE__, 0, 100, 50, 40, 0.25, DIV_FASTER, "ceiling-exceeded", "ceiling is wrong"},
    {__LINE__, 0, 100, 50, 40, 5.0, DIV_FASTER, "ceiling-exceeded", "`clockwork calibrate`"},
    {__LINE__, 0, 100, 50, 300, 0.25, DIV_SLOWER, NULL, "3.00×"},
    /* CPU: predicted = ideal = the roofline; efficiency = predicted/measured */
    {__LINE__, 1, 100, 100, 110, 0.25, DIV_OK, NULL, "90.9% efficiency"},
    {__LINE__, 1, 100, 100, 200, 0.25, DIV_SLOWER, NULL, "50.0% efficiency"},
    {__LINE__, 1, 100, 100, 200, 3.0, DIV_OK, NULL, "within ±300%"},
    {__LINE__, 1, 100, 100, 1000, 0.25, DIV_SLOWER, "far-below-roofline", "10.0% efficiency"},
    {__LINE__, 1, 100, 100, 1000, 20.0, DIV_OK, "far-below-roofline", "within"},
    /* a memcpy at 230% of the assumed ceiling: the ceiling is wrong */
    {__LINE__, 1, 100, 100, 43.5, 0.25, DIV_FASTER, "ceiling-exceeded", "230% of the ideal"},
    {__LINE__, 1, 100, 100, 95, 0.25, DIV_FASTER, "ceiling-exceeded", "faster than"},
};

static void test_one_meaning(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof rcases / sizeof *rcases; i++) {
        const rcase *c = &rcases[i];
        kernel_report kr;
        memset(&kr, 0, sizeof kr);
        kr.prediction.valid = 1;
        kr.prediction.time_us = c->pred_us;
        kr.prediction.ideal_time_us = c->ideal_us;
        kr.prediction.flops = 1e6;
        kr.prediction.bound = cw_strdup(c->roofline ? "fp32" : "dram");
        kr.measurement.valid = 1;
        kr.measurement.samples = 10;
        kr.measurement.median_us = kr.measurement.min_us = c->median;
        verdict_input in;
        verdict_input_default(&in);
        in.tolerance = c->tolerance;
        in.roofline_prediction = c->roofline;
        verdict_judge_kernel(&in, &kr);
        const char *e = kr.divergence.explanation;
        int nf = (int)kr.nfindings;
        int has = c->finding && nf == 1 && strcmp(kr.findings[0].id, c->finding) == 0;
        if (kr.divergence.status != c->want || !e || !strstr(e, c->needle) ||
            (c->finding ? !has : nf != 0))
            fail_msg("row %d: status %s, %d findings (%s), explanation '%s'", c->row,
                     div_status_name(kr.divergence.status), nf,
                     nf ? kr.findings[0].id : "-", e ? e : "(null)");
        if (fabs(kr.divergence.ratio - c->median / c->pred_us) > 1e-12)
            fail_msg("row %d: ratio %g", c->row, kr.divergence.ratio);
        kernel_report_free(&kr);
    }
}

/* far-below-roofline: one meaning and one detail schema, static or
 * measured. */
static void test_far_below_schema(void **state)
{
    (void)state;
    kernel_report kr;
    memset(&kr, 0, sizeof kr);
    assert_null(verdict_far_below_roofline(&kr, "k.comp", "predicted", "dram", 90, 100, 30, -1,
                                           NULL));
    finding *f = verdict_far_below_roofline(&kr, "k.comp", "predicted", "issue", 1750, 1780,
                                            430, -1, NULL);
    assert_non_null(f);
    assert_string_equal(f->id, "far-below-roofline");
    assert_non_null(strstr(f->message, "predicted 1.78 ms reaches 24.2% of what the device "
                                       "allows (ideal 430 µs, threshold 25%): the issue "
                                       "term costs 1.75 ms"));
    assert_string_equal(json_string_value(finding_detail_get(f, "term")), "issue");
    assert_true(fabs(json_real_value(finding_detail_get(f, "efficiency")) - 430.0 / 1780) <
                1e-12);
    assert_true(json_real_value(finding_detail_get(f, "threshold")) == 0.25);
    assert_true(json_real_value(finding_detail_get(f, "ideal_us")) == 430);
    assert_int_equal(json_object_size(f->detail), 4);
    /* a plan's threshold replaces the default */
    assert_null(verdict_far_below_roofline(&kr, NULL, "predicted", "issue", 1, 1780, 430, 0.2,
                                           NULL));
    kernel_report_free(&kr);
}

/* Judges p against a 10-sample measurement (valid or not, median, mad) at
 * tolerance: the row at line row must come out want, with needle in the
 * explanation.  Returns the ratio. */
static double judge_row(int row, const prediction *p, int meas_valid, double median,
                        double mad, double tolerance, div_status want, const char *needle)
{
    measurement m = {0};
    m.valid = meas_valid;
    m.median_us = median;
    m.mad_us = mad;
    m.samples = 10;
    divergence d = {0};
    verdict_judge(p, &m, tolerance, 5, &d);
    if (!d.valid || d.status != want || !d.explanation || !strstr(d.explanation, needle))
        fail_msg("row %d: status %s, explanation '%s'", row, div_status_name(d.status),
                 d.explanation ? d.explanation : "(null)");
    free(d.explanation);
    return d.ratio;
}

static void test_table(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const vcase *c = &cases[i];
        prediction p = {0};
        p.valid = c->pred_valid;
        p.time_us = c->pred_us;
        p.bound = (char *)"dram";
        p.bytes = 1e6;
        double ratio = judge_row(c->row, &p, c->meas_valid, c->median, c->mad, c->tolerance,
                                 c->want, c->needle);
        if (c->want != DIV_UNKNOWN && ratio != c->median / c->pred_us)
            fail_msg("row %d: ratio %g", c->row, ratio);
    }
}


/* An estimated prediction with a range (addresses from buffer contents):
 * predicted 100 (the best case), worst case 400.  Inside the range is ok
 * and says the model was unsure; above the worst case is slower; below
 * the best case is faster.  An exact prediction of 100 is slower at 300. */
typedef struct range_case {
    int row;
    confidence conf;
    double low, high, median;
    div_status want;
    const char *needle;
} range_case;

static const range_case range_cases[] = {
    {__LINE__, CONF_ESTIMATED, 100, 400, 300, DIV_OK, "model was unsure"},
    {__LINE__, CONF_ESTIMATED, 100, 400, 490, DIV_OK, "inside the estimated range"},
    {__LINE__, CONF_ESTIMATED, 100, 400, 110, DIV_OK, "inside the estimated range"},
    {__LINE__, CONF_ESTIMATED, 100, 400, 600, DIV_SLOWER, "above the worst case"},
    {__LINE__, CONF_ESTIMATED, 100, 400, 70, DIV_FASTER, "0.70×"},
    {__LINE__, CONF_EXACT, 0, 0, 300, DIV_SLOWER, "3.00×"},
    /* a range on an exact prediction is not used */
    {__LINE__, CONF_EXACT, 100, 400, 300, DIV_SLOWER, "3.00×"},
};

static void test_estimated_range(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof range_cases / sizeof *range_cases; i++) {
        const range_case *c = &range_cases[i];
        prediction p = {0};
        p.valid = 1;
        p.time_us = 100;
        p.ideal_time_us = 10;
        p.conf = c->conf;
        p.time_low_us = c->low;
        p.time_high_us = c->high;
        p.bound = (char *)"dram";
        assert_true(judge_row(c->row, &p, 1, c->median, 0, 0.25, c->want, c->needle) ==
                    c->median / 100);
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
    /* the clock check: silent when the first probe read the clock; the
     * extra warm-up when it took one; the low clock when it stayed low */
    m.clock = (clock_reading){.expected_us = 147};
    clock_reading_note(&m.clock, 150);
    verdict_judge(&p, &m, 0.25, 5, &d);
    assert_null(strstr(d.explanation, "clock"));
    m.clock.first_probe_us = 294; /* half the clock after the warm-up */
    m.clock.extra_warmup_s = 0.9;
    verdict_judge(&p, &m, 0.25, 5, &d);
    assert_non_null(strstr(d.explanation, "the clock came up after 0.9 s more warm-up"));
    assert_non_null(strstr(d.explanation, "the first at 50% of the profile's clock"));
    m.median_us = 30; /* slower: the evidence names the clock, the status stays */
    m.clock.extra_warmup_s = 3.1;
    clock_reading_note(&m.clock, 441);
    verdict_judge(&p, &m, 0.25, 5, &d);
    assert_int_equal(d.status, DIV_SLOWER);
    assert_non_null(strstr(d.explanation, "the clock stayed low"));
    assert_non_null(strstr(d.explanation, "(33% of it) after 3.1 s more warm-up"));
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
        cmocka_unit_test(test_estimated_range),
        cmocka_unit_test(test_evidence),
        cmocka_unit_test(test_one_meaning),
        cmocka_unit_test(test_far_below_schema),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
