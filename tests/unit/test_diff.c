/* diff: table-driven cases of predicted/measured change vs spread,
 * findings added and removed, kernels added and missing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"

static void kernel(report *r, const char *name, double pred, double median, double mad,
                   int errors)
{
    kernel_report *k = report_add_kernel(r, name);
    if (pred > 0) {
        k->prediction.valid = 1;
        k->prediction.time_us = pred;
    }
    if (median > 0) {
        k->measurement.valid = 1;
        k->measurement.median_us = median;
        k->measurement.mad_us = mad;
        k->measurement.samples = 10;
    }
    for (int i = 0; i < errors; i++)
        report_add_finding(k, FINDING_OUT_OF_BOUNDS, SEV_ERROR, "k.comp", 10 + i, NULL, "oob");
}

typedef struct dcase {
    int row;
    double bp, bm, bmad; /* base predicted, measured, mad */
    double np, nm, nmad;
    int berr, nerr;
    diff_status want_measured;
    int want_rc;
} dcase;

static const dcase cases[] = {
    {__LINE__, 100, 100, 1, 100, 100, 1, 0, 0, DIFF_SAME, 0},
    {__LINE__, 100, 100, 1, 100, 105, 1, 0, 0, DIFF_NOISE, 0},
    {__LINE__, 100, 100, 1, 100, 120, 1, 0, 0, DIFF_SLOWER, CW_STATUS_DIVERGENCE},
    {__LINE__, 100, 100, 1, 100, 80, 1, 0, 0, DIFF_FASTER, 0},
    /* 20% slower but the samples spread by 10 µs each: noise, not a regression */
    {__LINE__, 100, 100, 10, 100, 120, 10, 0, 0, DIFF_NOISE, 0},
    /* measurement went away: never a silent pass */
    {__LINE__, 100, 100, 1, 100, 0, 0, 0, 0, DIFF_INCONCLUSIVE, CW_STATUS_DIVERGENCE},
    /* new error findings are a regression */
    {__LINE__, 100, 100, 1, 100, 100, 1, 0, 1, DIFF_SAME, CW_STATUS_DIVERGENCE},
    {__LINE__, 100, 100, 1, 100, 100, 1, 1, 0, DIFF_SAME, 0},
};

static void test_table(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const dcase *c = &cases[i];
        report b, n;
        report_init(&b);
        report_init(&n);
        kernel(&b, "k", c->bp, c->bm, c->bmad, c->berr);
        kernel(&n, "k", c->np, c->nm, c->nmad, c->nerr);
        diff_result d;
        int rc = diff_reports(&b, &n, 0.10, &d);
        if (rc != c->want_rc || d.nkernels != 1 || d.kernels[0].measured != c->want_measured)
            fail_msg("row %d: rc %d measured %s", c->row, rc,
                     d.nkernels ? diff_status_name(d.kernels[0].measured) : "-");
        diff_result_free(&d);
        report_free(&b);
        report_free(&n);
    }
}

static void test_added_missing(void **state)
{
    (void)state;
    report b, n;
    report_init(&b);
    report_init(&n);
    kernel(&b, "gone", 100, 100, 1, 0);
    kernel(&b, "kept", 100, 100, 1, 1);
    kernel(&n, "kept", 100, 100, 1, 0);
    kernel(&n, "new", 100, 100, 1, 0);
    diff_result d;
    assert_int_equal(diff_reports(&b, &n, 0.10, &d), CW_STATUS_DIVERGENCE);
    assert_int_equal(d.nkernels, 3);
    assert_int_equal(d.kernels[0].measured, DIFF_MISSING);
    assert_int_equal(d.kernels[1].findings_removed, 1);
    assert_int_equal(d.kernels[2].measured, DIFF_ADDED);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    diff_write_table(&b, &n, &d, f);
    fclose(f);
    assert_non_null(strstr(text, "missing"));
    assert_non_null(strstr(text, "added"));
    assert_non_null(strstr(text, "1 regression"));
    free(text);
    text = diff_to_json_text(&b, &n, &d);
    assert_non_null(strstr(text, "\"regressions\": 1"));
    free(text);
    diff_result_free(&d);
    report_free(&b);
    report_free(&n);
}

static kernel_report *kernel_in(report *r, const char *plan, const char *name, long index,
                                 double median)
{
    kernel(r, name, 100, median, 1, 0);
    kernel_report *k = &r->kernels[r->nkernels - 1];
    k->plan = strdup(plan);
    k->plan_index = index;
    return k;
}

static char *table_of(const report *b, const report *n, const diff_result *d)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    diff_write_table(b, n, d, f);
    fclose(f);
    return text;
}

/* issue 17: two kernels of one name, the second 57x slower, was "0 regressions" */
static void test_duplicate_names(void **state)
{
    (void)state;
    report b, n;
    report_init(&b);
    report_init(&n);
    kernel_in(&b, "p.json", "dup", 0, 100);
    kernel_in(&b, "p.json", "dup", 1, 100);
    kernel_in(&n, "p.json", "dup", 0, 100);
    kernel_in(&n, "p.json", "dup", 1, 5700);
    diff_result d;
    assert_int_equal(diff_reports(&b, &n, 0.10, &d), CW_STATUS_DIVERGENCE);
    assert_int_equal(d.regressions, 1);
    assert_int_equal(d.kernels[0].measured, DIFF_SAME);
    assert_int_equal(d.kernels[1].measured, DIFF_SLOWER);
    assert_int_equal(d.kernels[1].occurrence, 1);
    char *text = table_of(&b, &n, &d);
    assert_non_null(strstr(text, "1 regression: dup (2nd of that name) (measured +5600.0%)"));
    free(text);
    text = diff_to_json_text(&b, &n, &d);
    assert_non_null(strstr(text, "\"occurrence\": 1"));
    assert_non_null(strstr(text, "\"reason\": \"measured +5600.0%\""));
    free(text);
    diff_result_free(&d);
    report_free(&b);
    report_free(&n);
}

/* kernels of two plans with one name are two kernels; every regressed one is named */
static void test_plans_apart(void **state)
{
    (void)state;
    report b, n;
    report_init(&b);
    report_init(&n);
    kernel_in(&b, "a.json", "saxpy", 0, 100);
    kernel_in(&b, "b.json", "saxpy", 0, 100);
    kernel_in(&b, "b.json", "gemm", 1, 100);
    kernel_in(&n, "b.json", "gemm", 1, 300); /* order changed, too */
    kernel_in(&n, "b.json", "saxpy", 0, 200);
    kernel_in(&n, "a.json", "saxpy", 0, 100);
    diff_result d;
    assert_int_equal(diff_reports(&b, &n, 0.10, &d), CW_STATUS_DIVERGENCE);
    assert_int_equal(d.regressions, 2);
    assert_int_equal(d.nkernels, 3);
    assert_int_equal(d.kernels[0].measured, DIFF_SAME);
    char *text = table_of(&b, &n, &d);
    assert_non_null(strstr(text, "b.json: saxpy (measured +100.0%)"));
    assert_non_null(strstr(text, "b.json: gemm (measured +200.0%)"));
    assert_null(strstr(text, "a.json: saxpy ("));
    free(text);
    text = diff_to_json_text(&b, &n, &d);
    assert_non_null(strstr(text, "\"regressed\": ["));
    assert_non_null(strstr(text, "\"plan\": \"b.json\""));
    free(text);
    diff_result_free(&d);
    report_free(&b);
    report_free(&n);
}

/* a finding whose numbers changed is changed, not removed + added */
static void test_findings_changed(void **state)
{
    (void)state;
    report b, n;
    report_init(&b);
    report_init(&n);
    kernel_report *kb = kernel_in(&b, "p.json", "k", 0, 100);
    kernel_report *kn = kernel_in(&n, "p.json", "k", 0, 100);
    report_add_finding(kb, FINDING_UNCOALESCED_ACCESS, SEV_WARNING, "k.comp", 7, NULL,
                       "fetches 4.0x the sectors");
    report_add_finding(kn, FINDING_UNCOALESCED_ACCESS, SEV_WARNING, "k.comp", 7, NULL,
                       "fetches 8.0x the sectors");
    report_add_finding(kb, FINDING_BANK_CONFLICT, SEV_WARNING, "k.comp", 9, NULL, "2-way");
    report_add_finding(kn, FINDING_BANK_CONFLICT, SEV_WARNING, "k.comp", 12, NULL, "2-way");
    diff_result d;
    assert_int_equal(diff_reports(&b, &n, 0.10, &d), 0);
    assert_int_equal(d.kernels[0].findings_changed, 1);
    assert_int_equal(d.kernels[0].findings_added, 1);   /* bank-conflict moved lines */
    assert_int_equal(d.kernels[0].findings_removed, 1);
    diff_result_free(&d);
    report_free(&b);
    report_free(&n);
}

/* the same plans under other paths (CI's checkout vs here) still pair up */
static void test_plan_paths_moved(void **state)
{
    (void)state;
    report b, n;
    report_init(&b);
    report_init(&n);
    kernel_in(&b, "/builds/ci/plans/a.json", "k", 0, 100);
    kernel_in(&b, "/builds/ci/other/a.json", "k", 0, 100);
    kernel_in(&b, "/builds/ci/plans/b.json", "k", 0, 100);
    kernel_in(&n, "plans/a.json", "k", 0, 100);
    kernel_in(&n, "other/a.json", "k", 0, 300);
    kernel_in(&n, "plans/b.json", "k", 0, 100);
    diff_result d;
    assert_int_equal(diff_reports(&b, &n, 0.10, &d), CW_STATUS_DIVERGENCE);
    assert_int_equal(d.nkernels, 3); /* nothing missing, nothing added */
    assert_int_equal(d.regressions, 1);
    assert_int_equal(d.kernels[0].measured, DIFF_SAME);
    assert_int_equal(d.kernels[1].measured, DIFF_SLOWER);
    assert_string_equal(d.kernels[1].plan, "/builds/ci/other/a.json");
    assert_int_equal(d.kernels[2].measured, DIFF_SAME);
    diff_result_free(&d);
    report_free(&b);
    report_free(&n);
}

static void test_device_warning(void **state)
{
    (void)state;
    report b, n;
    report_init(&b);
    report_init(&n);
    kernel(&b, "k", 100, 100, 1, 0);
    kernel(&n, "k", 100, 100, 1, 0);
    b.device.name = strdup("NVIDIA H200");
    n.device.name = strdup("NVIDIA H200");
    diff_result d;
    diff_reports(&b, &n, 0.10, &d);
    assert_string_equal(d.warning, "");
    diff_result_free(&d);
    b.device.uuid = strdup("aa");
    n.device.uuid = strdup("bb");
    diff_reports(&b, &n, 0.10, &d);
    assert_non_null(strstr(d.warning, "compare devices"));
    char *text = table_of(&b, &n, &d);
    assert_non_null(strstr(text, "warning: BASE comes from NVIDIA H200"));
    free(text);
    text = diff_to_json_text(&b, &n, &d);
    assert_non_null(strstr(text, "\"warnings\": [\n    \"BASE comes from"));
    free(text);
    diff_result_free(&d);
    report_free(&b);
    report_free(&n);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table),
        cmocka_unit_test(test_added_missing),
        cmocka_unit_test(test_duplicate_names),
        cmocka_unit_test(test_plans_apart),
        cmocka_unit_test(test_findings_changed),
        cmocka_unit_test(test_plan_paths_moved),
        cmocka_unit_test(test_device_warning),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
