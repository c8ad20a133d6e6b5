/* diff: table-driven cases of predicted/measured change vs spread,
 * findings added and removed, kernels added and missing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
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

/* A baseline report b, a new one n, and their diff d. */
typedef struct pair {
    report b, n;
    diff_result d;
} pair;

static void pair_init(pair *p)
{
    memset(p, 0, sizeof *p);
    report_init(&p->b);
    report_init(&p->n);
}

/* The diff at 10% tolerance; returns its status. */
static int pair_diff(pair *p)
{
    return diff_reports(&p->b, &p->n, 0.10, &p->d);
}

static void pair_free(pair *p)
{
    diff_result_free(&p->d);
    report_free(&p->b);
    report_free(&p->n);
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

/* Kernels to add with kernel_in, ended by a row without a plan. */
typedef struct kin {
    const char *plan, *name;
    long index;
    double median;
} kin;

static void kernels_in(report *r, const kin *k)
{
    for (; k->plan; k++)
        kernel_in(r, k->plan, k->name, k->index, k->median);
}

/* Every text of in_table in the diff's table and none of not_in_table,
 * every one of in_json in its JSON (NULL-terminated lists; NULL: none). */
static void assert_says(const pair *p, const char *const *in_table, const char *const *in_json,
                        const char *const *not_in_table)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    diff_write_table(&p->b, &p->n, &p->d, f);
    fclose(f);
    for (; in_table && *in_table; in_table++)
        if (!strstr(text, *in_table))
            fail_msg("the table lacks '%s':\n%s", *in_table, text);
    for (; not_in_table && *not_in_table; not_in_table++)
        if (strstr(text, *not_in_table))
            fail_msg("the table has '%s':\n%s", *not_in_table, text);
    free(text);
    text = diff_to_json_text(&p->b, &p->n, &p->d);
    for (; in_json && *in_json; in_json++)
        if (!strstr(text, *in_json))
            fail_msg("the JSON lacks '%s':\n%s", *in_json, text);
    free(text);
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
        pair p;
        pair_init(&p);
        kernel(&p.b, "k", c->bp, c->bm, c->bmad, c->berr);
        kernel(&p.n, "k", c->np, c->nm, c->nmad, c->nerr);
        int rc = pair_diff(&p);
        if (rc != c->want_rc || p.d.nkernels != 1 || p.d.kernels[0].measured != c->want_measured)
            fail_msg("row %d: rc %d measured %s", c->row, rc,
                     p.d.nkernels ? diff_status_name(p.d.kernels[0].measured) : "-");
        pair_free(&p);
    }
}

static void test_added_missing(void **state)
{
    (void)state;
    pair p;
    pair_init(&p);
    kernel(&p.b, "gone", 100, 100, 1, 0);
    kernel(&p.b, "kept", 100, 100, 1, 1);
    kernel(&p.n, "kept", 100, 100, 1, 0);
    kernel(&p.n, "new", 100, 100, 1, 0);
    assert_int_equal(pair_diff(&p), CW_STATUS_DIVERGENCE);
    assert_int_equal(p.d.nkernels, 3);
    assert_int_equal(p.d.kernels[0].measured, DIFF_MISSING);
    assert_int_equal(p.d.kernels[1].findings_removed, 1);
    assert_int_equal(p.d.kernels[2].measured, DIFF_ADDED);
    assert_says(&p, (const char *[]){"missing", "added", "1 regression", NULL},
                (const char *[]){"\"regressions\": 1", NULL}, NULL);
    pair_free(&p);
}

/* issue 17: two kernels of one name, the second 57x slower, was "0 regressions" */
static void test_duplicate_names(void **state)
{
    (void)state;
    pair p;
    pair_init(&p);
    kernels_in(&p.b, (const kin[]){{"p.json", "dup", 0, 100},
                                   {"p.json", "dup", 1, 100},
                                   {0}});
    kernels_in(&p.n, (const kin[]){{"p.json", "dup", 0, 100},
                                   {"p.json", "dup", 1, 5700},
                                   {0}});
    assert_int_equal(pair_diff(&p), CW_STATUS_DIVERGENCE);
    assert_int_equal(p.d.regressions, 1);
    assert_int_equal(p.d.kernels[0].measured, DIFF_SAME);
    assert_int_equal(p.d.kernels[1].measured, DIFF_SLOWER);
    assert_int_equal(p.d.kernels[1].occurrence, 1);
    assert_says(&p, (const char *[]){"1 regression: dup (2nd of that name) (measured +5600.0%)",
                                     NULL},
                (const char *[]){"\"occurrence\": 1", "\"reason\": \"measured +5600.0%\"", NULL},
                NULL);
    pair_free(&p);
}

/* kernels of two plans with one name are two kernels; every regressed one is named */
static void test_plans_apart(void **state)
{
    (void)state;
    pair p;
    pair_init(&p);
    kernels_in(&p.b, (const kin[]){{"a.json", "saxpy", 0, 100},
                                   {"b.json", "saxpy", 0, 100},
                                   {"b.json", "gemm", 1, 100},
                                   {0}});
    kernels_in(&p.n, (const kin[]){{"b.json", "gemm", 1, 300}, /* order changed, too */
                                   {"b.json", "saxpy", 0, 200},
                                   {"a.json", "saxpy", 0, 100},
                                   {0}});
    assert_int_equal(pair_diff(&p), CW_STATUS_DIVERGENCE);
    assert_int_equal(p.d.regressions, 2);
    assert_int_equal(p.d.nkernels, 3);
    assert_int_equal(p.d.kernels[0].measured, DIFF_SAME);
    assert_says(&p,
                (const char *[]){"b.json: saxpy (measured +100.0%)",
                                 "b.json: gemm (measured +200.0%)", NULL},
                (const char *[]){"\"regressed\": [", "\"plan\": \"b.json\"", NULL},
                (const char *[]){"a.json: saxpy (", NULL});
    pair_free(&p);
}

/* a finding whose numbers changed is changed, not removed + added */
static void test_findings_changed(void **state)
{
    (void)state;
    pair p;
    pair_init(&p);
    kernel_report *kb = kernel_in(&p.b, "p.json", "k", 0, 100);
    kernel_report *kn = kernel_in(&p.n, "p.json", "k", 0, 100);
    report_add_finding(kb, FINDING_UNCOALESCED_ACCESS, SEV_WARNING, "k.comp", 7, NULL,
                       "fetches 4.0x the sectors");
    report_add_finding(kn, FINDING_UNCOALESCED_ACCESS, SEV_WARNING, "k.comp", 7, NULL,
                       "fetches 8.0x the sectors");
    report_add_finding(kb, FINDING_BANK_CONFLICT, SEV_WARNING, "k.comp", 9, NULL, "2-way");
    report_add_finding(kn, FINDING_BANK_CONFLICT, SEV_WARNING, "k.comp", 12, NULL, "2-way");
    assert_int_equal(pair_diff(&p), 0);
    assert_int_equal(p.d.kernels[0].findings_changed, 1);
    assert_int_equal(p.d.kernels[0].findings_added, 1);   /* bank-conflict moved lines */
    assert_int_equal(p.d.kernels[0].findings_removed, 1);
    pair_free(&p);
}

/* the same plans under other paths (CI's checkout vs here) still pair up */
static void test_plan_paths_moved(void **state)
{
    (void)state;
    pair p;
    pair_init(&p);
    /* the base under CI's checkout; the new one here, other/a.json 3x slower */
    static const char *const plans[] = {"plans/a.json", "other/a.json", "plans/b.json"};
    for (size_t i = 0; i < 3; i++) {
        char ci[64];
        snprintf(ci, sizeof ci, "/builds/ci/%s", plans[i]);
        kernel_in(&p.b, ci, "k", 0, 100);
        kernel_in(&p.n, plans[i], "k", 0, i == 1 ? 300 : 100);
    }
    assert_int_equal(pair_diff(&p), CW_STATUS_DIVERGENCE);
    assert_int_equal(p.d.nkernels, 3); /* nothing missing, nothing added */
    assert_int_equal(p.d.regressions, 1);
    assert_int_equal(p.d.kernels[0].measured, DIFF_SAME);
    assert_int_equal(p.d.kernels[1].measured, DIFF_SLOWER);
    assert_string_equal(p.d.kernels[1].plan, "/builds/ci/other/a.json");
    assert_int_equal(p.d.kernels[2].measured, DIFF_SAME);
    pair_free(&p);
}

static void test_device_warning(void **state)
{
    (void)state;
    pair p;
    pair_init(&p);
    kernel(&p.b, "k", 100, 100, 1, 0);
    kernel(&p.n, "k", 100, 100, 1, 0);
    p.b.device.name = strdup("NVIDIA H200");
    p.n.device.name = strdup("NVIDIA H200");
    pair_diff(&p);
    assert_string_equal(p.d.warning, "");
    diff_result_free(&p.d);
    p.b.device.uuid = strdup("aa");
    p.n.device.uuid = strdup("bb");
    pair_diff(&p);
    assert_non_null(strstr(p.d.warning, "compare devices"));
    assert_says(&p, (const char *[]){"warning: BASE comes from NVIDIA H200", NULL},
                (const char *[]){"\"warnings\": [\n    \"BASE comes from", NULL}, NULL);
    pair_free(&p);
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
