/* test_checks_dyn.c - the dynamic checks (out-of-bounds, barrier-divergence,
 * workgroup-race, uninitialized-shared-read) on the corpus cases named
 * tests/corpus/dyn_* (format: tests/corpus/README.md), on the example plan
 * (no error on the correct kernels, out-of-bounds on saxpy_noguard), and
 * the wording of the findings. */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "kernel_fixture.h"
#include "unit.h"
#include <jansson.h>

#include "checks.h"
#include "eval.h"
#include "plan.h"
#include "profile.h"
#include "report.h"
#include "shader.h"
#include "verifier.h"

/* The evaluator on a kernel verifier_analyze did not evaluate (so these
 * checks are tested on their own either way). */
static void evaluate_if_skipped(const cw_analysed *a)
{
    plan_kernel *k = a->k;
    const shader_module *sm = a->sm;
    if (!sm)
        fail_msg("%s: %s", k->shader_path, a->err->text);
    if (a->res->counts.invocations != 0 || a->res->counts.nassumptions != 0)
        return;
    cw_error e;
    spv_module m;
    assert_int_equal(spv_parse(sm->words, sm->nwords, &m, &e), 0);
    assert_int_equal(verifier_specialize(&m, k, NULL, &e), 0);
    const spv_entry *entry = spv_entry_find(&m, k->entry ? k->entry : "main");
    assert_non_null(entry);
    reflection r;
    reflect_module(&m, entry, &r);
    kernel_counts kc;
    eval_run(&m, &r, k, a->prof, &kc, a->kr);
    eval_counts_free(&kc);
    reflect_free(&r);
    spv_free(&m);
}

/* verifier_analyze on every kernel of the plan, plus the evaluator where
 * verifier_analyze does not run it. */
static void analyse_plan(const char *plan_path, report *rep)
{
    char why[1600];
    if (cw_analyse_plan(plan_path, rep, evaluate_if_skipped, NULL, why, sizeof why) < 0)
        fail_msg("%s", why);
}

static int check_case(const char *dir, const char *name)
{
    char path[1200], why[1600];
    expectation x;
    int ok = 1;
    snprintf(path, sizeof path, "%s/%s/expected.txt", dir, name);
    if (read_expected(path, &x, why, sizeof why))
        fail_msg("%s", why);
    report rep;
    report_init(&rep);
    snprintf(path, sizeof path, "%s/%s/plan.json", dir, name);
    analyse_plan(path, &rep);
    for (size_t ki = 0; ki < rep.nkernels; ki++)
        for (size_t i = 0; i < rep.kernels[ki].nfindings; i++) {
            const finding *fd = &rep.kernels[ki].findings[i];
            if (fd->sev == SEV_NOTE)
                continue;
            int matched = 0;
            for (int j = 0; j < x.n; j++)
                if (strcmp(x.e[j].id, fd->id) == 0 && (!x.e[j].line || x.e[j].line == fd->line)) {
                    x.e[j].found = 1;
                    matched = 1;
                }
            if ((x.clean && fd->sev == SEV_ERROR && !matched) || (!x.clean && !matched)) {
                printf("FAIL  %s: unexpected %s %s line %d: %s\n", name,
                       severity_name(fd->sev), fd->id, fd->line, fd->message);
                ok = 0;
            }
            if (!fd->hint || !*fd->hint) {
                printf("FAIL  %s: %s without a hint\n", name, fd->id);
                ok = 0;
            }
            if (fd->line <= 0 && strcmp(fd->id, "out-of-bounds") == 0) {
                printf("FAIL  %s: %s without a GLSL line\n", name, fd->id);
                ok = 0;
            }
        }
    for (int j = 0; j < x.n; j++)
        if (!x.e[j].may && !x.e[j].found) {
            printf("FAIL  %s: expected %s at line %d, not reported\n", name, x.e[j].id,
                   x.e[j].line);
            ok = 0;
        }
    report_free(&rep);
    printf("%s  %s\n", ok ? "ok  " : "FAIL", name);
    return ok;
}

static int is_dyn(const struct dirent *d)
{
    return strncmp(d->d_name, "dyn_", 4) == 0;
}

static int name_cmp(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

/* Every dyn_ case, and at least three distinct kernels per bug kind. */
static void test_corpus_dyn(void **state)
{
    (void)state;
    static const char *const kinds[] = {
        "dyn_guard_",   /* missing guard */
        "dyn_loop_",    /* off-by-one loop bound */
        "dyn_barrier_", /* barrier in divergent flow */
        "dyn_race_",    /* missing barrier in a reduction/scan loop */
        "dyn_ww_",      /* write-write race */
        "dyn_uninit_",  /* uninitialised shared read */
    };
    static const char *const clean_set[] = {
        "dyn_clean_tiled_gemm", "dyn_clean_tree_reduce", "dyn_clean_stencil",
        "dyn_clean_transpose",  "dyn_clean_blelloch",    "dyn_clean_histogram",
    };
    int seen[6] = {0}, clean_seen[6] = {0};
    char dir[900];
    snprintf(dir, sizeof dir, "%s/tests/corpus", cw_test_root());
    struct dirent **list = NULL;
    int n = scandir(dir, &list, is_dyn, name_cmp);
    assert_true(n > 0);
    int failed = 0;
    for (int i = 0; i < n; i++) {
        int ok = check_case(dir, list[i]->d_name);
        if (!ok)
            failed++;
        for (int k = 0; k < 6; k++) {
            if (ok && strncmp(list[i]->d_name, kinds[k], strlen(kinds[k])) == 0)
                seen[k]++;
            if (ok && strcmp(list[i]->d_name, clean_set[k]) == 0)
                clean_seen[k] = 1;
        }
        free(list[i]);
    }
    free(list);
    for (int k = 0; k < 6; k++) {
        if (seen[k] < 3) {
            printf("FAIL  fewer than 3 passing %s* cases\n", kinds[k]);
            failed++;
        }
        if (!clean_seen[k]) {
            printf("FAIL  clean case %s missing or failing\n", clean_set[k]);
            failed++;
        }
    }
    assert_int_equal(failed, 0);
}

/* The example plan: the correct kernels raise no error, saxpy_noguard
 * raises out-of-bounds at its line 11 with the numbers of the plan. */
static void test_examples(void **state)
{
    (void)state;
    char path[900];
    snprintf(path, sizeof path, "%s/examples/plan.json", cw_test_root());
    report rep;
    report_init(&rep);
    analyse_plan(path, &rep);
    int oob = 0;
    for (size_t ki = 0; ki < rep.nkernels; ki++) {
        const kernel_report *kr = &rep.kernels[ki];
        int noguard = strcmp(kr->name, "saxpy_noguard") == 0;
        for (size_t i = 0; i < kr->nfindings; i++) {
            const finding *f = &kr->findings[i];
            if (f->sev != SEV_ERROR)
                continue;
            if (!noguard)
                fail_msg("%s: unexpected error %s: %s", kr->name, f->id, f->message);
            assert_string_equal(f->id, "out-of-bounds");
            assert_int_equal(f->line, 11);
            if (strstr(f->message, "store")) {
                oob = 1;
                assert_non_null(strstr(f->message, "y[i] for i in [1000, 1023]"));
                assert_non_null(strstr(f->message, "invocations 1000\xe2\x80\x93" "1023"));
                assert_non_null(strstr(f->message, "binding 1 holds 1000 floats"));
                assert_non_null(f->hint);
                assert_non_null(strstr(f->hint, "'if (i < n)' is missing"));
                assert_non_null(f->detail);
                assert_int_equal(json_integer_value(finding_detail_get(f, "index_min")), 1000);
                assert_int_equal(json_integer_value(finding_detail_get(f, "index_max")), 1023);
                assert_int_equal(json_integer_value(finding_detail_get(f, "buffer_bytes")), 4000);
            }
        }
    }
    assert_true(oob);
    report_free(&rep);
}

/* Findings that depend on buffer contents are warnings, not errors. */
static void test_uncertain_is_warning(void **state)
{
    (void)state;
    report rep;
    report_init(&rep);
    analyse_plan(cw_root_file("tests/corpus/dyn_clean_histogram/plan.json"), &rep);
    assert_int_equal(kernel_report_count(&rep.kernels[0], SEV_ERROR), 0);
    report_free(&rep);

    /* barrier under a branch on loaded data: could not be proven */
    static const char *glsl =
        "#version 450\n"
        "layout(local_size_x = 32) in;\n"
        "layout(set = 0, binding = 0) buffer D { float d[]; };\n"
        "shared float t[32];\n"
        "void main() {\n"
        "    uint l = gl_LocalInvocationID.x;\n"
        "    t[l] = d[l];\n"
        "    if (d[l] > 0.0)\n"
        "        barrier();\n"
        "    d[l] = t[31u - l];\n"
        "}\n";
    kmod x;
    kmod_glsl(&x, "w.comp", glsl);
    plan_kernel k;
    memset(&k, 0, sizeof k);
    k.name = "w";
    k.workgroups[0] = k.workgroups[1] = k.workgroups[2] = 1;
    report_init(&rep);
    kernel_report *kr = report_add_kernel(&rep, "w");
    kernel_counts kc;
    assert_int_equal(eval_run(&x.m, &x.r, &k, NULL, &kc, kr), 0);
    assert_int_equal(kernel_report_count(kr, SEV_ERROR), 0);
    assert_int_equal(kc.conf, CONF_ESTIMATED);
    eval_counts_free(&kc);
    /* no plan, no reflection, no report: counts of one workgroup */
    assert_int_equal(eval_run(&x.m, NULL, NULL, NULL, &kc, NULL), 0);
    assert_int_equal(kc.invocations, 32);
    eval_counts_free(&kc);
    report_free(&rep);
    kmod_close(&x);
}

/* A large dispatch (only representative groups run): the out-of-bounds
 * range still covers every offending invocation. */
static void test_large_dispatch_range(void **state)
{
    (void)state;
    const char *src_path = cw_root_file("examples/kernels/saxpy_noguard.comp");
    kmod x;
    kmod_load(&x, src_path);
    cw_error err;
    char plan_text[1600];
    snprintf(plan_text, sizeof plan_text,
             "{\"kernels\":[{\"name\":\"ng\",\"shader\":\"%s\","
             "\"workgroups\":[4096,1,1],\"push\":{\"n\":1000000,\"alpha\":2.0},"
             "\"buffers\":[{\"binding\":0,\"elements\":1000000},"
             "{\"binding\":1,\"elements\":1000000}]}]}",
             src_path);
    plan p;
    assert_int_equal(plan_load_text("ng.json", plan_text, strlen(plan_text), &p, &err), 0);
    report rep;
    report_init(&rep);
    kernel_report *kr = report_add_kernel(&rep, "ng");
    kernel_counts kc;
    assert_int_equal(eval_run(&x.m, &x.r, &p.kernels[0], NULL, &kc, kr), 0);
    int seen = 0;
    for (size_t i = 0; i < kr->nfindings; i++) {
        const finding *f = &kr->findings[i];
        if (strcmp(f->id, "out-of-bounds") || !strstr(f->message, "store"))
            continue;
        seen = 1;
        assert_int_equal(f->sev, SEV_ERROR);
        assert_non_null(strstr(f->message, "[1000000, 1048575]"));
        assert_non_null(strstr(f->message, "invocations 1000000\xe2\x80\x93" "1048575"));
    }
    assert_true(seen);
    /* x and y up to the end of their buffers, y written up to its end */
    assert_true(kc.compulsory_read_bytes == 8e6);
    assert_true(kc.compulsory_write_bytes == 4e6);
    eval_counts_free(&kc);
    report_free(&rep);
    plan_free(&p);
    kmod_close(&x);
}

CW_UNIT_MAIN(NULL, NULL,
             cmocka_unit_test(test_corpus_dyn),
             cmocka_unit_test(test_examples),
             cmocka_unit_test(test_uncertain_is_warning),
             cmocka_unit_test(test_large_dispatch_range))
