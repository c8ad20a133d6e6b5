/* test_tui_worker.c - the measurement thread end to end on the CPU Vulkan
 * device: messages in order (device, kernels, static results with source,
 * live samples before the final measurement), kernels with error findings
 * not run, pause, re-run, a changed shader re-analysed, a clean stop. */
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

#include "session.h"
#include "plan.h"
#include "state.h"
#include "reports.h"
#include "tui.h"
#include "views.h"
#include "worker.h"

typedef struct seen {
    int device, kernels, statics, samples, measured;
    int sample_before_measured; /* saxpy: a live sample came first */
    int saxpy_samples;
} seen;

static void drain(worker *w, tui_state *st, seen *s)
{
    tui_msg *m = NULL;
    size_t n = worker_drain(w, &m);
    for (size_t i = 0; i < n; i++) {
        switch (m[i].kind) {
        case MSG_DEVICE: s->device++; break;
        case MSG_KERNELS: s->kernels++; break;
        case MSG_STATIC:
            s->statics++;
            assert_non_null(m[i].kr);
            break;
        case MSG_SAMPLE:
            s->samples++;
            if (m[i].index == 0)
                s->saxpy_samples++;
            break;
        case MSG_MEASURED:
            s->measured++;
            if (m[i].index == 0 && s->saxpy_samples > 0)
                s->sample_before_measured = 1;
            break;
        default: break;
        }
        state_apply(st, &m[i]);
        state_msg_free(&m[i]);
    }
    free(m);
    state_refresh_order(st);
}

static void run_plan(const char *path, int measure, tui_state *st, seen *s)
{
    plan p;
    cw_load_plan(path, &p);
    cw_options o;
    cw_options_default(&o);
    o.samples = 5;
    o.budget_s = 0.2;
    tui_args a = {.plans = &p, .nplans = 1, .opt = &o, .measure = measure};
    worker *w = NULL;
    assert_int_equal(worker_start(&a, &w), 0);
    assert_true(worker_wait_settled(w, 300));
    drain(w, st, s);
    worker_stop(w);
    plan_free(&p);
}

/* A run of tests/screen/plan.json through the worker: the state it built
 * and the messages it sent. */
typedef struct screen_run {
    tui_state st;
    seen s;
} screen_run;

/* The run, measured or not, into a fresh r: one device, one kernel list,
 * a static result for each of the three kernels, then `measured`
 * measurements. */
static void run_screen_plan(int measure, int measured, screen_run *r)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/screen/plan.json", cw_test_root());
    state_init(&r->st);
    r->st.measure = measure;
    memset(&r->s, 0, sizeof r->s);
    run_plan(path, measure, &r->st, &r->s);
    assert_int_equal(r->s.device, 1);
    assert_int_equal(r->s.kernels, 1);
    assert_int_equal(r->s.statics, 3);
    assert_int_equal(r->st.nk, 3);
    assert_int_equal(r->s.measured, measured);
    assert_true(r->st.have_dev && r->st.have_prof && r->st.have_counters);
}

static void test_static(void **x)
{
    (void)x;
    screen_run r;
    run_screen_plan(0, 0, &r);
    for (size_t i = 0; i < r.st.nk; i++) {
        assert_int_equal(r.st.k[i].state, KS_CHECKED);
        assert_true(r.st.k[i].kr.prediction.valid);
        assert_non_null(r.st.k[i].source);
        assert_true(r.st.k[i].source_glsl);
        assert_non_null(strstr(r.st.k[i].source, "void main"));
        /* the evaluator's counts for the detail view */
        assert_true(r.st.k[i].have_counts);
        assert_true(r.st.k[i].counts.invocations > 0);
        assert_true(r.st.k[i].counts.naccesses > 0);
        assert_null(r.st.k[i].counts.lines); /* kept apart, in k->lines */
    }
    /* the buggy kernel carries its error findings */
    tui_kernel *k = state_find(&r.st, 0, 2);
    assert_string_equal(k->kr.name, "saxpy_noguard");
    assert_true(kernel_report_count(&k->kr, SEV_ERROR) > 0);
    assert_string_equal(r.st.sampling, "static only");
    state_free(&r.st);
}

static void test_measured(void **x)
{
    (void)x;
    screen_run r;
    run_screen_plan(1, 3, &r);
    assert_true(r.s.samples >= 10); /* 5+ per measured kernel, live */
    assert_true(r.s.sample_before_measured);
    double med;
    assert_int_equal(state_find(&r.st, 0, 0)->state, KS_MEASURED);
    assert_true(state_median(state_find(&r.st, 0, 0), &med) && med > 0);
    assert_int_equal(state_find(&r.st, 0, 1)->state, KS_MEASURED);
    assert_int_equal(state_find(&r.st, 0, 2)->state, KS_NOTRUN);
    assert_non_null(strstr(r.st.sampling, "done · 2 measured"));
    state_free(&r.st);
}

/* Writes dir/plan.json (its path into path): kernel k, SAXPY's buffers and
 * push constants, from shader (relative to dir). */
static void saxpy_plan(char *path, size_t size, const char *dir, const char *shader)
{
    char text[512];
    int n = snprintf(text, sizeof text,
                     "{\"kernels\": [{\"name\": \"k\", \"shader\": \"%s\", "
                     "\"workgroups\": [4, 1, 1], \"push\": {\"n\": 1024, \"alpha\": 2},"
                     " \"buffers\": [{\"binding\": 0, \"elements\": 1024}, "
                     "{\"binding\": 1, \"elements\": 1024}]}]}\n", shader);
    assert_true(n > 0 && (size_t)n < sizeof text);
    snprintf(path, size, "%s/plan.json", dir);
    cw_write_file(path, text, (size_t)n);
}

/* Pause holds the measurements back; resuming and re-running go on; an
 * edited shader comes back re-analysed with the new source. */
static void test_control_and_reload(void **x)
{
    (void)x;
    char dir[] = "/tmp/cwworkerXXXXXX";
    assert_non_null(mkdtemp(dir));
    char cmd[2048], plan_path[1100], shader[1100];
    snprintf(shader, sizeof shader, "%s/k.comp", dir);
    snprintf(cmd, sizeof cmd, "cp '%s/examples/kernels/saxpy.comp' '%s'",
             cw_test_root(), shader);
    assert_int_equal(system(cmd), 0);
    saxpy_plan(plan_path, sizeof plan_path, dir, "k.comp");
    plan p;
    cw_error err;
    assert_int_equal(plan_load(plan_path, &p, &err), 0);
    cw_options o;
    cw_options_default(&o);
    o.samples = 3;
    o.budget_s = 0.1;
    tui_args a = {.plans = &p, .nplans = 1, .opt = &o, .measure = 1};
    tui_state st;
    state_init(&st);
    seen s = {0};
    worker *w = NULL;
    assert_int_equal(worker_start(&a, &w), 0);
    worker_pause(w, 1); /* likely before the first measurement */
    usleep(1500 * 1000);
    drain(w, &st, &s);
    int measured_while_paused = s.measured;
    assert_true(measured_while_paused <= 1); /* at most the one in flight */
    worker_pause(w, 0);
    assert_true(worker_wait_settled(w, 120));
    drain(w, &st, &s);
    assert_true(s.measured >= 1);
    int before = s.measured;
    worker_rerun(w);
    usleep(200 * 1000);
    assert_true(worker_wait_settled(w, 120));
    drain(w, &st, &s);
    assert_true(s.measured > before);
    /* loop mode: round after round without asking */
    before = s.measured;
    worker_loop(w, 1);
    for (int i = 0; i < 300 && s.measured < before + 2; i++) {
        usleep(100 * 1000);
        drain(w, &st, &s);
    }
    assert_true(s.measured >= before + 2);
    worker_loop(w, 0);
    assert_true(worker_wait_settled(w, 120));
    drain(w, &st, &s);
    /* edit the shader: the worker notices within about a second */
    sleep(1);
    FILE *f = fopen(shader, "a");
    assert_non_null(f);
    fputs("// edited by test_tui_worker\n", f);
    fclose(f);
    int found = 0;
    for (int i = 0; i < 100 && !found; i++) {
        usleep(100 * 1000);
        drain(w, &st, &s);
        tui_kernel *k = state_find(&st, 0, 0);
        found = k && k->source && strstr(k->source, "edited by test_tui_worker");
    }
    assert_true(found);
    worker_stop(w);
    plan_free(&p);
    state_free(&st);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

/* A plan that gives SPIR-V: the source view gets the disassembly. */
static void test_spirv_disassembly(void **x)
{
    (void)x;
    char dir[] = "/tmp/cwspvXXXXXX";
    assert_non_null(mkdtemp(dir));
    char cmd[2048], plan_path[1100];
    snprintf(cmd, sizeof cmd, "glslc -O -o '%s/k.spv' "
             "'%s/examples/kernels/saxpy.comp' 2>&1", dir, cw_test_root());
    if (system(cmd) != 0) {
        print_message("glslc unavailable: skipped (make deps)\n");
        skip();
    }
    saxpy_plan(plan_path, sizeof plan_path, dir, "k.spv");
    tui_state st;
    state_init(&st);
    seen s = {0};
    run_plan(plan_path, 0, &st, &s);
    tui_kernel *k = state_find(&st, 0, 0);
    assert_non_null(k);
    assert_non_null(k->source);
    assert_false(k->source_glsl);
    assert_non_null(strstr(k->source, "OpEntryPoint GLCompute"));
    state_free(&st);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

static void test_line_shares(void **x)
{
    (void)x;
    tui_kernel k;
    memset(&k, 0, sizeof k);
    prediction *p = &k.kr.prediction;
    p->valid = 1;
    pred_term t[] = {{"dram", 10}, {"fp32", 5}, {"issue", 5}, {"launch", 100}};
    p->terms = t;
    p->nterms = 4;
    line_cost lc[] = {{.line = 1, .bytes = 100, .flops = 0, .instructions = 10},
                      {.line = 2, .bytes = 0, .flops = 50, .instructions = 10}};
    k.lines = lc;
    k.nlines = 2;
    line_weights lw;
    views_line_shares(&k, &lw);
    /* dram 10 over 100 bytes, fp32 5 over 50 FLOPs, issue 5 over 20
     * instructions; launch belongs to no line */
    assert_true(lw.per_byte == 0.1 && lw.per_flop == 0.1 &&
                lw.per_instr == 0.25);
    assert_true(views_line_weight(&lw, &lc[0]) == 12.5);
    assert_true(views_line_weight(&lw, &lc[1]) == 7.5);
    assert_true(lw.total == 20);
    /* no terms: bytes, FLOPs and instructions count equally per kind */
    p->nterms = 0;
    views_line_shares(&k, &lw);
    assert_true(lw.total > 0);
}

/* `clockwork tui FILE...` shows reports without a device when every file
 * is a report; a byte order mark before one does not make it a plan */
static void test_reports_detected(void **x)
{
    (void)x;
    char dir[] = "/tmp/cw_detect_XXXXXX", rep[64], bom[64], planf[64];
    assert_non_null(mkdtemp(dir));
    const char *doc = "{\"schema\": 1, \"tool\": \"clockwork\", \"kernels\": []}";
    struct { char *path; const char *lead, *text; } files[] = {
        {rep, "", doc}, {bom, "\xEF\xBB\xBF", doc}, {planf, "", "{\"kernels\": []}"}};
    for (size_t i = 0; i < 3; i++) {
        snprintf(files[i].path, 64, "%s/%zu.json", dir, i);
        FILE *f = fopen(files[i].path, "w");
        assert_non_null(f);
        fprintf(f, "%s%s", files[i].lead, files[i].text);
        fclose(f);
    }
    char *reports[] = {rep, bom}, *mixed[] = {rep, planf}, *missing[] = {dir};
    assert_int_equal(tui_reports_detect(2, reports), 1);
    assert_int_equal(tui_reports_detect(2, mixed), 0);
    assert_int_equal(tui_reports_detect(1, missing), 0); /* a directory */
    for (size_t i = 0; i < 3; i++)
        unlink(files[i].path);
    rmdir(dir);
}

/* A report the detection read is not read again: the load still has it
 * after the file is gone.  One with a repeated key is still a report to
 * the detection (any object with "schema" and "tool"), and the load names
 * the repetition. */
static void test_reports_read_once(void **x)
{
    (void)x;
    char dir[] = "/tmp/cw_once_XXXXXX", rep[64], dup[64], err[512];
    assert_non_null(mkdtemp(dir));
    snprintf(rep, sizeof rep, "%s/r.json", dir);
    snprintf(dup, sizeof dup, "%s/d.json", dir);
    const char *doc = "{\"schema\": 1, \"tool\": {\"name\": \"clockwork\"}, "
                      "\"kernels\": [{\"name\": \"k1\"}]}";
    const char *twice = "{\"schema\": 1, \"tool\": {}, \"kernels\": [], \"kernels\": []}";
    const char *texts[] = {doc, twice};
    char *paths[] = {rep, dup};
    for (int i = 0; i < 2; i++) {
        FILE *f = fopen(paths[i], "w");
        assert_non_null(f);
        fputs(texts[i], f);
        fclose(f);
    }
    char *one[] = {rep};
    assert_int_equal(tui_reports_detect(1, one), 1);
    unlink(rep);
    tui_state st;
    state_init(&st);
    assert_int_equal(tui_reports_load(&st, one, 1, 0.5, err, sizeof err), 0);
    assert_int_equal((int)st.nk, 1);
    state_free(&st);

    char *dups[] = {dup};
    assert_int_equal(tui_reports_detect(1, dups), 1);
    state_init(&st);
    assert_int_not_equal(tui_reports_load(&st, dups, 1, 0.5, err, sizeof err), 0);
    assert_non_null(strstr(err, "duplicate"));
    state_free(&st);
    unlink(dup);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_line_shares),
        cmocka_unit_test(test_static),
        cmocka_unit_test(test_spirv_disassembly),
        cmocka_unit_test(test_measured),
        cmocka_unit_test(test_control_and_reload),
        cmocka_unit_test(test_reports_detected),
        cmocka_unit_test(test_reports_read_once),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
