/* test_devchild.c - a GPU kernel measured in a device process (app/devchild.c)
 * on the CPU Vulkan device:
 *   - handed the parent's analysis made with the profile the device
 *     process chooses, the child predicts and measures from it without
 *     analysing again (a finding only the handed analysis carries comes
 *     back), and its report has the prediction and findings of the whole
 *     static stage run with the device open in-process (the driver's facts
 *     included);
 *   - handed an analysis made with another profile (a smaller workgroup
 *     limit than the device's), the child analyses again for its device:
 *     the limit's error is gone and the kernel is measured. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "unit.h"

#include "devchild.h"
#include "plan.h"
#include "session.h"
#include "supervise.h"

typedef struct fixture {
    char dir[256];
    plan p;
    cw_options o;
    session s;            /* the TUI's: GPU measured elsewhere */
    report_device rd;
    kernel_report analysed, kr;
    kernel_artifacts art;
} fixture;

static const char marker[] = "test-handed-analysis";

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    assert_non_null(f);
    char shader[4096];
    assert_non_null(realpath(cw_root_file("examples/kernels/saxpy.comp"), shader));
    snprintf(f->dir, sizeof f->dir, "%s", cw_tmpdir("cw-devchild-"));
    char path[512], text[5000];
    int n = snprintf(text, sizeof text,
                     "{\"kernels\": [{\"name\": \"k\", \"shader\": \"%s\", "
                     "\"workgroups\": [4, 1, 1], \"push\": {\"n\": 1024, \"alpha\": 2},"
                     " \"buffers\": [{\"binding\": 0, \"elements\": 1024}, "
                     "{\"binding\": 1, \"elements\": 1024}]}]}\n",
                     shader);
    assert_true(n > 0 && (size_t)n < sizeof text);
    snprintf(path, sizeof path, "%s/plan.json", f->dir);
    cw_write_file(path, text, (size_t)n);
    cw_load_plan(path, &f->p);
    cw_error err;
    cw_options_default(&f->o);
    f->o.samples = 3;
    f->o.budget_s = 0.2;
    session_kinds kinds = {1, 0};
    assert_int_equal(session_open_gpu_elsewhere(&f->s, &f->o, 1, kinds, &f->rd, &err), 0);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    session_close(&f->s);
    report_device_free(&f->rd);
    plan_free(&f->p);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", f->dir);
    assert_int_equal(system(cmd), 0);
    free(f);
    return 0;
}

/* The TUI's static stage of the plan's kernel with prof: the analysis
 * (marked), then the whole report in f->kr. */
static void tui_static(fixture *f, const device_profile *prof)
{
    memset(&f->kr, 0, sizeof f->kr);
    f->kr.name = cw_strdup("k");
    f->kr.plan_index = f->kr.source = -1; /* as the TUI's worker keeps them */
    pipeline_analyse_kernel(&f->p.kernels[0], prof, &f->kr, &f->art);
    kernel_report_copy(&f->analysed, &f->kr);
    report_add_finding(&f->analysed, FINDING_PLAN_INVALID, SEV_NOTE, NULL, 0, NULL, "%s", marker);
    pipeline_predict_kernel(&f->p.kernels[0], prof, NULL, &f->kr, &f->art);
}

static devchild_status measure(fixture *f, const device_profile *prof, int *reanalysed)
{
    devchild_job job = {.opt = &f->o, .k = &f->p.kernels[0], .analysed = &f->analysed,
                        .art = &f->art, .prof = prof, .reanalysed = reanalysed,
                        .silence_s = 120};
    char *why = NULL;
    *reanalysed = -1;
    devchild_status st = devchild_measure(&job, &f->kr, &why);
    if (why)
        fail_msg("no device: %s", why);
    return st;
}

static int has_finding(const kernel_report *kr, const char *id)
{
    for (size_t i = 0; i < kr->nfindings; i++)
        if (!strcmp(kr->findings[i].id, id))
            return 1;
    return 0;
}

/* An assumption about the driver's registers (only a prediction made
 * with the device open has one). */
static int says_registers(const kernel_report *kr)
{
    for (size_t i = 0; i < kr->prediction.nassumptions; i++)
        if (strstr(kr->prediction.assumptions[i], "registers per invocation not reported"))
            return 1;
    return 0;
}

static int is_marker(const finding *f)
{
    return f->message && !strcmp(f->message, marker);
}

static int has_marker(const kernel_report *kr)
{
    for (size_t i = 0; i < kr->nfindings; i++)
        if (is_marker(&kr->findings[i]))
            return 1;
    return 0;
}

/* kr's static part as JSON: without the measurement, the verdict and the
 * marker. */
static char *static_json(const kernel_report *kr)
{
    kernel_report c;
    kernel_report_copy(&c, kr);
    measurement_free(&c.measurement);
    memset(&c.measurement, 0, sizeof c.measurement);
    free(c.divergence.explanation);
    memset(&c.divergence, 0, sizeof c.divergence);
    /* the skipped ones last, in order, out of the JSON, freed with the rest */
    size_t n = c.nfindings, w = 0;
    finding *order = calloc(n ? n : 1, sizeof *order);
    assert_non_null(order);
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < n; i++)
            if (is_marker(&c.findings[i]) == pass)
                order[w++] = c.findings[i];
    memcpy(c.findings, order, n * sizeof *order);
    free(order);
    for (c.nfindings = 0; c.nfindings < n; c.nfindings++)
        if (is_marker(&c.findings[c.nfindings]))
            break;
    char *json = supervise_kernel_json(&c);
    c.nfindings = n;
    kernel_report_free(&c);
    assert_non_null(json);
    return json;
}

static void test_handed_analysis(void **state)
{
    fixture *f = *state;
    tui_static(f, &f->s.prof);
    int parent_said_registers = says_registers(&f->kr), reanalysed;
    devchild_status st = measure(f, &f->s.prof, &reanalysed);
    if (st != DEVCHILD_MEASURED)
        fail_msg("status %d: %s", st, f->kr.measurement.error);
    assert_int_equal(reanalysed, 0);
    assert_true(has_marker(&f->kr)); /* the handed analysis, not a new one */
    assert_true(f->kr.measurement.valid);
    assert_null(f->kr.measurement.error);
    assert_true(f->kr.measurement.samples >= 3);
    assert_true(f->kr.prediction.valid);
    /* what the whole static stage gives with the device open here */
    session here;
    report_device rd = {0};
    cw_error err;
    session_kinds kinds = {1, 0};
    assert_int_equal(session_open(&here, &f->o, 1, kinds, &rd, &err), 0);
    kernel_report ref;
    memset(&ref, 0, sizeof ref);
    ref.name = cw_strdup("k");
    kernel_artifacts art;
    session_check_kernel(&here, &f->p.kernels[0], &ref, &art);
    ref.plan_index = ref.source = -1;
    char *want = static_json(&ref), *got = static_json(&f->kr);
    assert_string_equal(got, want);
    /* the driver's facts reached the prediction: the device process's
     * register assumption, which the TUI's own prediction cannot make */
    assert_true(says_registers(&ref));
    assert_false(parent_said_registers);
    free(want);
    free(got);
    kernel_artifacts_free(&art);
    kernel_report_free(&ref);
    session_close(&here);
    report_device_free(&rd);
    kernel_artifacts_free(&f->art);
    kernel_report_free(&f->kr);
    kernel_report_free(&f->analysed);
}

static void test_other_profile_analysed_again(void **state)
{
    fixture *f = *state;
    device_profile small = f->s.prof;
    small.limits.max_wg_invocations = 64; /* saxpy's workgroup is 256 */
    tui_static(f, &small);
    assert_true(has_finding(&f->kr, "workgroup-size-limit"));
    int reanalysed;
    assert_int_equal(measure(f, &small, &reanalysed), DEVCHILD_MEASURED);
    assert_int_equal(reanalysed, 1);
    assert_false(has_marker(&f->kr));
    assert_false(has_finding(&f->kr, "workgroup-size-limit"));
    assert_true(f->kr.measurement.valid);
    assert_true(f->kr.measurement.samples >= 3);
    kernel_artifacts_free(&f->art);
    kernel_report_free(&f->kr);
    kernel_report_free(&f->analysed);
}

CW_UNIT_MAIN(setup, teardown, cmocka_unit_test(test_handed_analysis),
             cmocka_unit_test(test_other_profile_analysed_again))
