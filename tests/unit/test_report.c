/* Report: JSON round trip, atomic writes that never leave a half-written
 * file nor destroy the previous one, table/CSV/SARIF basics, exit codes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "unit.h"
#include <dirent.h>
#include <malloc.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "exitcode.h"
#include "report.h"

static void build(report *r)
{
    report_init(r);
    r->device.name = cw_strdup("llvmpipe (LLVM 15.0.6, 256 bits)");
    r->device.profile = cw_strdup("builtin");
    kernel_report *k = report_add_kernel(r, "saxpy");
    k->shader = cw_strdup("kernels/saxpy.comp");
    k->entry = cw_strdup("main");
    k->workgroups[0] = 4096;
    k->workgroups[1] = k->workgroups[2] = 1;
    k->local_size[0] = 256;
    k->local_size[1] = k->local_size[2] = 1;
    finding *f = report_add_finding(k, FINDING_OUT_OF_BOUNDS, SEV_ERROR, "saxpy.comp", 8,
                                    "add the guard 'if (i < n)'",
                                    "store to y[i] for i in [%d, %d]", 1000, 1023);
    finding_detail_int(f, "index_min", 1000);
    finding_detail_int(f, "index_max", 1023);
    report_add_finding(k, FINDING_SMALL_DISPATCH, SEV_WARNING, NULL, 0, NULL, "tiny");
    prediction *p = &k->prediction;
    *p = (prediction){.valid = 1, .time_us = 245.5, .ideal_time_us = 200.25,
                      .bound = cw_strdup("dram"), .flops = 2e6, .bytes = 1.2e7,
                      .invocations = 1048576, .conf = CONF_ESTIMATED};
    prediction_add_assumption(p, "loop at line %d: assumed %d iterations", 12, 64);
    prediction_add_term(p, "dram", 240.0);
    prediction_add_term(p, "launch", 5.5);
    measurement *m = &k->measurement;
    *m = (measurement){.valid = 1, .samples = 3, .median_us = 250, .mad_us = 2,
                       .min_us = 248, .max_us = 260, .p90_us = 259, .has_cold = 1,
                       .cold_us = 400, .has_invocations = 1, .invocations = 1048576,
                       .nsample_us = 3};
    m->sample_us = calloc(3, sizeof(double));
    memcpy(m->sample_us, (const double[]){248, 250, 260}, 3 * sizeof(double));
    m->counters_scope = cw_strdup("kernel");
    m->clock = (clock_reading){.expected_us = 146.75, .extra_warmup_s = 0.5};
    assert_int_equal(clock_reading_note(&m->clock, 440.25), 0); /* a third of the clock */
    assert_int_equal(clock_reading_note(&m->clock, 150.5), 1);
    assert_int_equal(m->clock.probes, 2);
    assert_true(m->clock.ratio > 0.975 && m->clock.ratio < 0.976);
    counter_value *c = measurement_add_counter(m, "task-clock");
    c->available = 1;
    c->value = 12345;
    c = measurement_add_counter(m, "cycles");
    c->reason = cw_strdup("no hardware PMU (ENOENT)");
    k->divergence.valid = 1;
    k->divergence.ratio = 250 / 245.5;
    k->divergence.status = DIV_OK;
    k->divergence.explanation = cw_strdup("within band");
    kernel_report *k2 = report_add_kernel(r, "broken");
    k2->input_error = 1;
    report_add_finding(k2, FINDING_SPIRV_INVALID, SEV_ERROR, "broken.comp", 3, NULL, "bad");
}

static void test_round_trip(void **state)
{
    (void)state;
    report r;
    build(&r);
    char *a = report_to_json_text(&r);
    assert_non_null(a);
    report back;
    cw_error err;
    assert_int_equal(report_read_text("mem.json", a, strlen(a), &back, &err), 0);
    char *b = report_to_json_text(&back);
    assert_string_equal(a, b);
    /* unavailable counters stay unavailable, never 0 */
    assert_int_equal(back.kernels[0].measurement.ncounters, 2);
    assert_false(back.kernels[0].measurement.counters[1].available);
    assert_non_null(strstr(a, "\"value\": null"));
    assert_non_null(strstr(a, "\"index_max\": 1023"));
    const clock_reading *ck = &back.kernels[0].measurement.clock;
    assert_true(ck->ran && ck->settled && ck->probes == 2);
    assert_true(ck->probe_us == 150.5 && ck->expected_us == 146.75);
    assert_true(ck->first_probe_us == 440.25);
    free(a);
    free(b);
    report_free(&back);
    report_free(&r);
}

/* kernel_report_copy (core/report.c; the TUI, merge and the session's
 * results use it) copies every pointer member: copies of kernels with each
 * one set say the same after the originals are freed.  Freed bytes are
 * scribbled over (M_PERTURB), so a pointer the copy shares reads garbage,
 * and under ASan it is a use after free; freeing the copies afterwards is
 * no double free. */
static void test_kernel_copy_is_deep(void **state)
{
    (void)state;
    report r;
    build(&r);
    for (size_t i = 0; i < r.nkernels; i++) { /* the members build() leaves unset */
        kernel_report *k = &r.kernels[i];
        assert_non_null(k->kind); /* report_add_kernel's "gpu" */
        k->plan = cw_strdup("plans/p.json");
        if (!k->measurement.error)
            k->measurement.error = cw_strdup("device lost after 3 samples");
        if (!k->measurement.clock.ran)
            k->measurement.clock.unavailable = cw_strdup("the clock probe did not compile");
    }
    char *before = report_to_json_text(&r);
    assert_non_null(strstr(before, "\"plan\": \"plans/p.json\""));
    assert_non_null(strstr(before, "device lost after 3 samples"));
    assert_non_null(strstr(before, "the clock probe did not compile"));
    mallopt(M_PERTURB, 0xa5);
    kernel_report *copies = calloc(r.nkernels, sizeof *copies);
    assert_non_null(copies);
    for (size_t i = 0; i < r.nkernels; i++)
        kernel_report_copy(&copies[i], &r.kernels[i]);
    for (size_t i = 0; i < r.nkernels; i++)
        kernel_report_free(&r.kernels[i]);
    free(r.kernels);
    r.kernels = copies;
    char *after = report_to_json_text(&r);
    mallopt(M_PERTURB, 0);
    assert_string_equal(before, after);
    free(before);
    free(after);
    report_free(&r);
}

static void test_read_errors(void **state)
{
    (void)state;
    /* line and column of the offending value (0: unknown, e.g. a missing
     * top-level key); report.h promises file:line:column */
    static const struct {
        int row;
        const char *text;
        const char *needle;
        int line, col;
    } cases[] = {
        {__LINE__, "{", "not a valid report", 1, 1},
        {__LINE__, "[]", "JSON object", 1, 1},
        {__LINE__, "{\"schema\": 2, \"kernels\": []}", "schema", 1, 12},
        {__LINE__, "{\"schema\": 1}", "'kernels' must be an array", 0, 0},
        {__LINE__, "{\"schema\": 1, \"kernels\": [5]}", "must be an object", 1, 27},
        {__LINE__, "{\"schema\": 1,\n \"kernels\": [\n  {}]}", "no 'name'", 3, 3},
        {__LINE__, "{\"schema\": 1, \"kernels\": [{\"name\": \"k\",\n \"findings\": [{}]}]}",
         "no 'id'", 2, 15},
        {__LINE__, "{\"schema\": 1, \"kernels\": [{\"name\": \"k\", \"workgroups\": [1]}]}",
         "3 integers", 1, 55},
        {__LINE__, "{\"schema\": 1, \"kernels\": [{\"name\": 7}]}", "must be a string", 1, 36},
        {__LINE__, "{\"schema\": 1, \"kernels\": [{\"name\": \"k\", \"measurement\": {\"clock\": 5}}]}",
         "'clock' must be an object", 1, 66},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        report r;
        cw_error err;
        cw_error_clear(&err);
        int rc = report_read_text("r.json", cases[i].text, strlen(cases[i].text), &r, &err);
        if (rc != -1 || err.kind != CW_ERR_INPUT || !strstr(err.text, cases[i].needle) ||
            strcmp(err.file, "r.json"))
            fail_msg("row %d: rc=%d '%s'", cases[i].row, rc, err.text);
        if (cases[i].line && (err.line != cases[i].line || err.column != cases[i].col))
            fail_msg("row %d: at %d:%d, expected %d:%d ('%s')", cases[i].row, err.line,
                     err.column, cases[i].line, cases[i].col, err.text);
    }
}

static char dir[] = "/tmp/cw-report-XXXXXX";

static int count_tmp_files(void)
{
    DIR *d = opendir(dir);
    int n = 0;
    struct dirent *e;
    while (d && (e = readdir(d)))
        n += strstr(e->d_name, ".tmp.") != NULL;
    if (d)
        closedir(d);
    return n;
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    return buf;
}

static void test_atomic_write(void **state)
{
    (void)state;
    assert_non_null(mkdtemp(dir));
    char path[256];
    snprintf(path, sizeof path, "%s/report.json", dir);
    report r;
    build(&r);
    cw_error err;
    assert_int_equal(report_write_file(&r, path, "json", &err), 0);
    char *expect = report_to_json_text(&r);
    assert_string_equal(slurp(path), expect);

    /* A full disk, simulated with a file-size limit in a child: the write
     * fails, the previous report is untouched, no temporary file is left. */
    pid_t pid = fork();
    if (pid == 0) {
        signal(SIGXFSZ, SIG_IGN);
        struct rlimit rl = {64, 64};
        setrlimit(RLIMIT_FSIZE, &rl);
        cw_error e2;
        _exit(report_write_file(&r, path, "json", &e2) == -1 &&
                      strstr(e2.text, "unchanged")
                  ? 0
                  : 1);
    }
    int status;
    waitpid(pid, &status, 0);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    assert_string_equal(slurp(path), expect);
    assert_int_equal(count_tmp_files(), 0);

    /* /dev/full: a device is written in place and the error reported */
    assert_int_equal(report_write_file(&r, "/dev/full", "json", &err), -1);
    assert_int_equal(err.kind, CW_ERR_INPUT);
    assert_non_null(strstr(err.text, "No space left"));
    /* an unwritable folder */
    assert_int_equal(report_write_file(&r, "/proc/cw-no/report.json", "json", &err), -1);
    assert_string_equal(err.file, "/proc/cw-no/report.json");
    /* a folder as the target */
    assert_int_equal(report_write_file(&r, dir, "json", &err), -1);
    free(expect);
    report_free(&r);
    unlink(path);
    rmdir(dir);
}

static void test_text_formats(void **state)
{
    (void)state;
    report r;
    build(&r);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    report_write_table(&r, f, 1);
    fclose(f);
    assert_non_null(strstr(text, "saxpy"));
    assert_non_null(strstr(text, "246 µs")); /* units on every number */
    assert_non_null(strstr(text, "saxpy.comp:8: store to y[i]"));
    assert_non_null(strstr(text, "hint: add the guard"));
    free(text);
    f = open_memstream(&text, &len);
    report_write_csv(&r, f);
    fclose(f);
    assert_non_null(strstr(text, "kernel,kind,bound"));
    assert_non_null(strstr(text, "\nsaxpy,gpu,dram,200.25,245.5,"));
    free(text);
    text = report_to_sarif_text(&r);
    assert_non_null(strstr(text, "\"version\": \"2.1.0\""));
    assert_non_null(strstr(text, "\"ruleId\": \"out-of-bounds\""));
    assert_non_null(strstr(text, "\"startLine\": 8"));
    free(text);
    /* exit codes: input error wins over error findings and divergence */
    assert_int_equal(report_status(&r, 1), CW_STATUS_INPUT);
    r.kernels[1].input_error = 0;
    assert_int_equal(report_status(&r, 1), CW_STATUS_FINDINGS);
    report_free(&r);
}

static void test_exit_precedence(void **state)
{
    (void)state;
    assert_int_equal(app_exit_worst(0, 3), 3);
    assert_int_equal(app_exit_worst(3, 1), 1);
    assert_int_equal(app_exit_worst(1, 4), 4);
    assert_int_equal(app_exit_worst(4, 2), 2);
    assert_int_equal(app_exit_worst(2, 4), 2);
    assert_int_equal(app_exit_worst(137, 0), 137); /* outside the contract: ranks as 0 */
    /* statuses run in the same precedence, and map to the contract's codes */
    assert_int_equal(cw_status_worst(CW_STATUS_DIVERGENCE, CW_STATUS_FINDINGS), CW_STATUS_FINDINGS);
    assert_int_equal(cw_status_worst(CW_STATUS_INPUT, CW_STATUS_ENV), CW_STATUS_INPUT);
    static const int want[] = {[CW_STATUS_OK] = 0, [CW_STATUS_DIVERGENCE] = 3,
                               [CW_STATUS_FINDINGS] = 1, [CW_STATUS_ENV] = 4,
                               [CW_STATUS_INPUT] = 2};
    for (int st = CW_STATUS_OK; st <= CW_STATUS_INPUT; st++)
        assert_int_equal(app_exit_code(st), want[st]);
    assert_int_equal(app_exit_code(99), 2);
}

CW_UNIT_MAIN(NULL, NULL,
             cmocka_unit_test(test_round_trip),
             cmocka_unit_test(test_read_errors),
             cmocka_unit_test(test_atomic_write),
             cmocka_unit_test(test_text_formats),
             cmocka_unit_test(test_exit_precedence),
             cmocka_unit_test(test_kernel_copy_is_deep))
