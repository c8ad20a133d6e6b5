/* test_session.c - the session layer: the one exit-code rule (table), the
 * backend table and the null backend standing in when a backend is forced
 * off, a session that measures nothing but still predicts, and the runners
 * counting through the counters backend. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "backend.h"
#include "exitcode.h"
#include "plan.h"
#include "session.h"
#include "unit.h"

typedef struct xcase {
    int line;
    int input_error, errors, failed;
    div_status status;
    int measured;
    int want;
} xcase;

/* ARCHITECTURE §2: 2 > 4 > 1 > 3 > 0, measurement results only for run */
static const xcase xcases[] = {
    {__LINE__, 0, 0, 0, DIV_OK, 1, CW_EXIT_OK},
    {__LINE__, 0, 0, 0, DIV_UNKNOWN, 1, CW_EXIT_OK},
    {__LINE__, 0, 0, 0, DIV_SLOWER, 1, CW_EXIT_DIVERGENCE},
    {__LINE__, 0, 0, 0, DIV_FASTER, 1, CW_EXIT_DIVERGENCE},
    {__LINE__, 0, 0, 0, DIV_SLOWER, 0, CW_EXIT_OK},
    {__LINE__, 0, 1, 0, DIV_SLOWER, 1, CW_EXIT_FINDINGS},
    {__LINE__, 0, 1, 1, DIV_SLOWER, 1, CW_EXIT_ENV},
    {__LINE__, 0, 1, 1, DIV_SLOWER, 0, CW_EXIT_FINDINGS},
    {__LINE__, 1, 1, 1, DIV_SLOWER, 1, CW_EXIT_USAGE},
    {__LINE__, 1, 0, 0, DIV_OK, 0, CW_EXIT_USAGE},
};

/* k: zero-initialised, or fresh from report_add_kernel */
static void fill(kernel_report *k, const xcase *c)
{
    k->input_error = c->input_error;
    if (c->errors)
        report_add_finding(k, FINDING_OUT_OF_BOUNDS, SEV_ERROR, NULL, 0, NULL, "x");
    report_add_finding(k, FINDING_TAIL_EFFECT, SEV_WARNING, NULL, 0, NULL, "y");
    if (c->failed)
        k->measurement.error = cw_strdup("device lost");
    k->divergence.valid = 1;
    k->divergence.status = c->status;
}

static void test_exit_code_table(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof xcases / sizeof *xcases; i++) {
        kernel_report k;
        memset(&k, 0, sizeof k);
        fill(&k, &xcases[i]);
        int got = session_kernel_exit_code(&k, xcases[i].measured);
        kernel_report_free(&k);
        if (got != xcases[i].want)
            fail_msg("line %d: exit %d, want %d", xcases[i].line, got, xcases[i].want);
    }
    /* a report: the worst kernel wins */
    report r;
    report_init(&r);
    fill(report_add_kernel(&r, "a"), &xcases[2]); /* 3 */
    fill(report_add_kernel(&r, "b"), &xcases[5]); /* 1 */
    assert_int_equal(session_exit_code(&r, 1), CW_EXIT_FINDINGS);
    fill(report_add_kernel(&r, "c"), &xcases[6]); /* 4 */
    assert_int_equal(session_exit_code(&r, 1), CW_EXIT_ENV);
    report_free(&r);
}

static void test_backend_table(void **state)
{
    (void)state;
    int roles[4] = {0};
    size_t n = 0;
    for (; backend_table[n]; n++) {
        const backend *b = backend_table[n];
        assert_non_null(b->name);
        assert_non_null(b->open);
        assert_non_null(b->describe);
        roles[b->role]++;
        /* a backend that runs kernels can measure them */
        if (b->role == BACKEND_ROLE_GPU || b->role == BACKEND_ROLE_CPU ||
            b->role == BACKEND_ROLE_ANY)
            assert_non_null(b->measure);
    }
    assert_true(n >= 4);
    assert_int_equal(roles[BACKEND_ROLE_ANY], 1); /* exactly one null backend */
    assert_true(roles[BACKEND_ROLE_GPU] >= 1 && roles[BACKEND_ROLE_CPU] >= 1);
    assert_true(roles[BACKEND_ROLE_COUNTERS] >= 1);
}

/* Forced off, a backend gives way to the null backend, which measures
 * nothing and says why. */
/* The slot refuses to measure a kernel of this kind: no valid measurement,
 * an error that contains why and, when given, also_why. */
static void assert_measure_refused(backend_slot *slot, plan_kernel_kind kind,
                                   const run_options *ro, const char *why,
                                   const char *also_why)
{
    plan_kernel k;
    memset(&k, 0, sizeof k);
    k.kind = kind;
    k.name = (char *)"k";
    measurement m;
    memset(&m, 0, sizeof m);
    assert_int_equal(backend_slot_measure(slot, &k, NULL, ro, &m), CW_STATUS_ENV);
    assert_false(m.valid);
    assert_non_null(m.error);
    assert_non_null(strstr(m.error, why));
    if (also_why)
        assert_non_null(strstr(m.error, also_why));
    measurement_free(&m);
}

static void test_null_backend_stands_in(void **state)
{
    (void)state;
    setenv("CW_BACKENDS_OFF", "pfm,cpu", 1);
    assert_true(backend_forced_off("cpu"));
    assert_false(backend_forced_off("cp"));
    backend_slot slot;
    cw_error err;
    backend_config cfg = {0};
    assert_int_equal(backend_open_role(BACKEND_ROLE_CPU, &cfg, &slot, &err), CW_STATUS_ENV);
    assert_false(slot.available);
    assert_string_equal(slot.b->name, "null");
    assert_non_null(strstr(err.text, "CW_BACKENDS_OFF"));
    assert_measure_refused(&slot, PLAN_KERNEL_CPU, NULL, "unavailable", "CW_BACKENDS_OFF");
    backend_slot_close(&slot);
    unsetenv("CW_BACKENDS_OFF");
}

/* A session over a CPU-only plan names this CPU; with the CPU backend off
 * it still opens, and measuring reports the reason, not a number. */
static void test_session_without_backend(void **state)
{
    (void)state;
    setenv("CW_BACKENDS_OFF", "cpu", 1);
    cw_options o;
    cw_options_default(&o);
    session s;
    report_device rd;
    memset(&rd, 0, sizeof rd);
    cw_error err;
    session_kinds kinds = {0, 1};
    assert_int_equal(session_open(&s, &o, 1, kinds, &rd, &err), 0);
    assert_true(s.device_is_cpu);
    assert_int_equal(s.ro.samples, 10);
    assert_true(s.tolerance == 0.25);
    plan_kernel k;
    memset(&k, 0, sizeof k);
    k.kind = PLAN_KERNEL_CPU;
    k.name = (char *)"k";
    char lib[512];
    const char *b = getenv("BUILD");
    snprintf(lib, sizeof lib, "%s/examples/cpu/libsgemm_naive.so", b && *b ? b : "build");
    k.library = k.library_path = lib;
    k.symbol = (char *)"sgemm";
    k.min_efficiency = -1;
    kernel_report kr;
    memset(&kr, 0, sizeof kr);
    kernel_artifacts art;
    session_check_kernel(&s, &k, &kr, &art);
    assert_string_equal(kr.kind, "cpu");
    assert_int_equal(kernel_report_count(&kr, SEV_ERROR), 0);
    assert_int_equal(session_measure_kernel(&s, &k, &art, NULL, &kr), CW_STATUS_ENV);
    assert_non_null(strstr(kr.measurement.error, "unavailable"));
    assert_int_equal(kr.divergence.status, DIV_UNKNOWN);
    assert_int_equal(session_kernel_exit_code(&kr, 1), CW_EXIT_ENV);
    kernel_artifacts_free(&art);
    kernel_report_free(&kr);
    session_close(&s);
    free(rd.name);
    free(rd.type);
    free(rd.profile);
    unsetenv("CW_BACKENDS_OFF");
}

/* A bad --profile is a usage error that names it; the session still
 * works (the TUI keeps going) and measures nothing. */
static void test_session_bad_profile(void **state)
{
    (void)state;
    cw_options o;
    cw_options_default(&o);
    o.profile = "no-such-profile";
    session s;
    report_device rd;
    memset(&rd, 0, sizeof rd);
    cw_error err;
    session_kinds kinds = {1, 0};
    assert_int_equal(session_open(&s, &o, 1, kinds, &rd, &err), CW_STATUS_INPUT);
    assert_non_null(strstr(err.file, "no-such-profile"));
    assert_non_null(strstr(err.text, "built-in"));
    assert_non_null(s.gpu.b);
    assert_string_equal(s.gpu.b->name, "null");
    assert_measure_refused(&s.gpu, PLAN_KERNEL_GPU, &s.ro, "no-such-profile", NULL);
    session_close(&s);
    free(rd.name);
    free(rd.vendor);
    free(rd.driver);
    free(rd.api);
    free(rd.type);
    free(rd.uuid);
    free(rd.selected_by);
    free(rd.profile);
    free(rd.profile_path);
}

/* calibrate and devices go through the backend table too: a backend
 * forced off cannot calibrate or list, and says why; a format the listing
 * does not write is bad input. */
static void test_calibrate_and_devices_through_backends(void **state)
{
    (void)state;
    cw_options o;
    cw_options_default(&o);
    device_profile p;
    cw_error err;
    char *text = NULL;
    setenv("CW_BACKENDS_OFF", "vulkan", 1);
    assert_int_equal(session_calibrate(&o, 0, 0.01, &p, NULL, &err), CW_STATUS_ENV);
    assert_non_null(strstr(err.text, "vulkan backend is disabled"));
    assert_int_equal(session_list_devices("table", &text, &err), CW_STATUS_ENV);
    assert_null(text);
    assert_non_null(strstr(err.text, "vulkan backend is disabled"));
    unsetenv("CW_BACKENDS_OFF");
    int rc = session_list_devices("xml", &text, &err);
    assert_null(text);
    if (rc != CW_STATUS_ENV) { /* a Vulkan loader to list with */
        assert_int_equal(rc, CW_STATUS_INPUT);
        assert_non_null(strstr(err.text, "format 'xml'"));
        assert_int_equal(session_list_devices("json", &text, &err), 0);
        assert_non_null(strstr(text, "\"devices\""));
        free(text);
    }
}

/* A plan of one GPU kernel (saxpy) and one native CPU kernel (the naive
 * SGEMM, n = 64) in dir; its path into path. */
static void mixed_plan(char *path, size_t size, const char *dir)
{
    char shader[4096], lib[4096], text[10000];
    const char *b = getenv("BUILD");
    char rel[512];
    snprintf(rel, sizeof rel, "%s/examples/cpu/libsgemm_naive.so", b && *b ? b : "build");
    assert_non_null(realpath(cw_root_file("examples/kernels/saxpy.comp"), shader));
    assert_non_null(realpath(rel, lib));
    int n = snprintf(text, sizeof text,
                     "{\"kernels\": [{\"name\": \"saxpy\", \"shader\": \"%s\", "
                     "\"workgroups\": [4, 1, 1], \"push\": {\"n\": 1024, \"alpha\": 2}, "
                     "\"buffers\": [{\"binding\": 0, \"elements\": 1024}, "
                     "{\"binding\": 1, \"elements\": 1024}]},\n"
                     "{\"name\": \"sgemm\", \"kind\": \"cpu\", \"library\": \"%s\", "
                     "\"symbol\": \"sgemm\", \"args\": {\"n\": 64}, \"buffers\": "
                     "[{\"bytes\": 16384}, {\"bytes\": 16384}, {\"bytes\": 16384}], "
                     "\"work\": {\"flops\": \"2*n*n*n\", \"bytes\": \"3*4*n*n\"}, "
                     "\"threads\": 1}]}\n", shader, lib);
    assert_true(n > 0 && (size_t)n < sizeof text);
    snprintf(path, size, "%s/plan.json", dir);
    cw_write_file(path, text, (size_t)n);
}

/* Both kernels of the mixed plan p measured by a fresh session; their
 * measurements into m[0] (GPU) and m[1] (CPU), the device view's counters
 * into probe. */
static void measure_mixed(const plan *p, const cw_options *o, measurement m[2],
                          measurement *probe)
{
    session s;
    report_device rd = {0};
    cw_error err;
    assert_int_equal(session_open(&s, o, 1, session_count_kinds(p, 1), &rd, &err), 0);
    memset(probe, 0, sizeof *probe);
    session_probe_counters(&s, probe, &err);
    for (int i = 0; i < 2; i++) {
        kernel_report kr;
        memset(&kr, 0, sizeof kr);
        kr.name = cw_strdup(p->kernels[i].name);
        kernel_artifacts art;
        session_check_kernel(&s, &p->kernels[i], &kr, &art);
        assert_int_equal(session_measure_kernel(&s, &p->kernels[i], &art, NULL, &kr), 0);
        assert_true(kr.measurement.valid);
        m[i] = kr.measurement;
        memset(&kr.measurement, 0, sizeof kr.measurement);
        kernel_artifacts_free(&art);
        kernel_report_free(&kr);
    }
    session_close(&s);
    report_device_free(&rd);
}

/* The runners count through the counters backend (backend_counters_open):
 * every counter they report is a count or unavailable with its reason, the
 * GPU runner's are the device view's (the same backend, the same default
 * events), the CPU runner's add its FP-width events; with the counters
 * backend forced off, neither runner counts anything. */
static void test_runners_count_through_backend(void **state)
{
    (void)state;
    const char *dir = cw_tmpdir("cw-session-");
    char path[512];
    mixed_plan(path, sizeof path, dir);
    plan p;
    cw_load_plan(path, &p);
    cw_options o;
    cw_options_default(&o);
    o.samples = 3, o.budget_s = 0.1;
    measurement m[2], probe;
    measure_mixed(&p, &o, m, &probe);
    assert_true(probe.ncounters > 0);
    assert_int_equal(m[0].ncounters, probe.ncounters);
    assert_true(m[1].ncounters >= probe.ncounters);
    for (int k = 0; k < 2; k++)
        for (size_t i = 0; i < m[k].ncounters; i++) {
            const counter_value *c = &m[k].counters[i];
            if (c->available)
                assert_true(c->value >= 0);
            else
                assert_true(c->reason && c->reason[0]);
            if (i < probe.ncounters) { /* the defaults, in the device view's order */
                assert_string_equal(c->name, probe.counters[i].name);
                assert_int_equal(c->available, probe.counters[i].available);
            }
        }
    for (int k = 0; k < 2; k++)
        measurement_free(&m[k]);
    measurement_free(&probe);
    setenv("CW_BACKENDS_OFF", "pfm", 1);
    measure_mixed(&p, &o, m, &probe);
    unsetenv("CW_BACKENDS_OFF");
    assert_int_equal(probe.ncounters, 0);
    for (int k = 0; k < 2; k++) {
        assert_int_equal(m[k].ncounters, 0);
        assert_true(m[k].samples >= 3);
        measurement_free(&m[k]);
    }
    measurement_free(&probe);
    plan_free(&p);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exit_code_table),
        cmocka_unit_test(test_backend_table),
        cmocka_unit_test(test_null_backend_stands_in),
        cmocka_unit_test(test_session_without_backend),
        cmocka_unit_test(test_session_bad_profile),
        cmocka_unit_test(test_calibrate_and_devices_through_backends),
        cmocka_unit_test(test_runners_count_through_backend),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
