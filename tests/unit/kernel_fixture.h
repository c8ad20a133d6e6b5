/* kernel_fixture.h - plan, SPIR-V and report setup shared by the tests that
 * evaluate kernels: kfix (one GLSL kernel with its one-kernel plan, read,
 * specialized and reflected, with a fresh report), kmod (a module read
 * and reflected), cw_analyse_plan
 * (every kernel of a plan file through verifier_analyze) and the corpus
 * expectations.  Include after <cmocka.h>. */
#ifndef CW_KERNEL_FIXTURE_H
#define CW_KERNEL_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checks.h"
#include "eval.h"
#include "plan.h"
#include "profile.h"
#include "report.h"
#include "shader.h"
#include "verifier.h"

#include "unit.h"

/* A shader module read back and reflected at its entry point main. */
typedef struct kmod {
    shader_module sm;
    spv_module m;
    reflection r;
} kmod;

static inline void kmod_read(kmod *x)
{
    cw_error err;
    assert_int_equal(spv_parse(x->sm.words, x->sm.nwords, &x->m, &err), 0);
    const spv_entry *e = spv_entry_find(&x->m, "main");
    assert_non_null(e);
    reflect_module(&x->m, e, &x->r);
}

/* From GLSL source (name: the file name it is compiled as). */
static inline void kmod_glsl(kmod *x, const char *name, const char *glsl)
{
    cw_error err;
    cw_error_clear(&err);
    if (shader_compile_glsl(name, glsl, strlen(glsl), &x->sm, &err))
        fail_msg("glsl: %s", err.text);
    kmod_read(x);
}

/* From a shader file (GLSL or SPIR-V). */
static inline void kmod_load(kmod *x, const char *path)
{
    cw_error err;
    cw_error_clear(&err);
    if (shader_load(path, &x->sm, &err))
        fail_msg("%s: %s", path, err.text);
    kmod_read(x);
}

static inline void kmod_close(kmod *x)
{
    reflect_free(&x->r);
    spv_free(&x->m);
    shader_free(&x->sm);
}

typedef struct kfix {
    plan p;
    shader_module sm;
    spv_module m;
    reflection r;
    report rep;
    kernel_report *kr; /* the kernel's report in rep */
    kernel_counts kc;  /* filled by the test's evaluation */
    device_profile prof;
    int rc; /* what the test's evaluation returned */
} kfix;

/* Fails the test with the error's file, line and text. */
static inline void kfix_fail(const char *what, const cw_error *err)
{
    char b[1600];
    cw_error_format(err, b, sizeof b);
    fail_msg("%s: %s", what, b);
}

/* Loads plan_json, a one-kernel plan whose "shader" is "k.comp" (pointed
 * at an existing example: the loader wants the file, the GLSL evaluated is
 * glsl), compiles glsl, reads, specializes and reflects it, and adds the
 * kernel to a fresh report.  Returns the plan kernel. */
static inline plan_kernel *kfix_open(kfix *x, const char *glsl, const char *plan_json)
{
    cw_error err;
    memset(x, 0, sizeof *x);
    cw_error_clear(&err);
    char path[1024], text[4096];
    snprintf(path, sizeof path, "%s/test.json", cw_test_root());
    const char *hole = strstr(plan_json, "k.comp");
    assert_non_null(hole);
    snprintf(text, sizeof text, "%.*sexamples/kernels/saxpy.comp%s",
             (int)(hole - plan_json), plan_json, hole + 6);
    if (plan_load_text(path, text, strlen(text), &x->p, &err))
        kfix_fail("plan", &err);
    assert_int_equal(x->p.nkernels, 1);
    plan_kernel *k = &x->p.kernels[0];
    if (shader_compile_glsl("kernel.comp", glsl, strlen(glsl), &x->sm, &err))
        fail_msg("glsl: %s", err.text);
    assert_int_equal(spv_parse(x->sm.words, x->sm.nwords, &x->m, &err), 0);
    assert_int_equal(verifier_specialize(&x->m, k, NULL, &err), 0);
    const spv_entry *e = spv_entry_find(&x->m, "main");
    assert_non_null(e);
    reflect_module(&x->m, e, &x->r);
    report_init(&x->rep);
    x->kr = report_add_kernel(&x->rep, k->name);
    return k;
}

static inline void kfix_close(kfix *x)
{
    eval_counts_free(&x->kc);
    report_free(&x->rep);
    reflect_free(&x->r);
    spv_free(&x->m);
    shader_free(&x->sm);
    plan_free(&x->p);
}

/* What cw_analyse_plan hands each kernel after verifier_analyze ran on it. */
typedef struct cw_analysed {
    plan_kernel *k;
    const device_profile *prof;
    kernel_report *kr;
    const shader_module *sm; /* NULL when the shader did not load: not analysed */
    const verifier_result *res;
    const cw_error *err; /* why the shader did not load */
    size_t index;        /* the kernel's in the plan */
    void *ctx;
} cw_analysed;

typedef void (*cw_kernel_hook)(const cw_analysed *a);

/* Every kernel of the plan at path through verifier_analyze on the
 * built-in lavapipe profile, each into a kernel report added to rep, then
 * hook (may be NULL).  Returns the number of kernels, or -1 with why set
 * when the plan does not load. */
static inline int cw_analyse_plan(const char *path, report *rep, cw_kernel_hook hook,
                                  void *ctx, char *why, size_t whylen)
{
    plan p;
    cw_error err;
    device_profile prof;
    cw_error_clear(&err);
    if (plan_load(path, &p, &err)) {
        cw_error_format(&err, why, whylen);
        return -1;
    }
    profile_init(&prof);
    assert_int_equal(profile_builtin("lavapipe", &prof), 0);
    for (size_t i = 0; i < p.nkernels; i++) {
        plan_kernel *k = &p.kernels[i];
        if (!k->plan_path)
            k->plan_path = p.path;
        kernel_report *kr = report_add_kernel(rep, k->name);
        shader_module sm;
        verifier_result res;
        memset(&res, 0, sizeof res);
        cw_error_clear(&err);
        int loaded = shader_load(k->shader_path, &sm, &err) == 0;
        if (loaded)
            verifier_analyze(k, &sm, &prof, kr, &res);
        if (hook) {
            cw_analysed a = {k, &prof, kr, loaded ? &sm : NULL, &res, &err, i, ctx};
            hook(&a);
        }
        if (loaded) {
            verifier_result_free(&res);
            shader_free(&sm);
        }
    }
    int n = (int)p.nkernels;
    plan_free(&p);
    return n;
}

/* A corpus case's expected.txt: one finding id a line, optionally with its
 * GLSL line; "may ID" allows a finding without requiring it; "clean" says
 * no error may be reported beyond those listed; "exact" or "estimated":
 * the confidence every kernel's counts must have; # starts a comment. */
#define MAX_EXPECT 32

typedef struct expect_line {
    char id[64];
    int line;  /* 0: any */
    int may;   /* allowed, not required */
    int found;
} expect_line;

typedef struct expectation {
    expect_line e[MAX_EXPECT];
    int n;
    int clean;
    int conf;  /* -1: any; else the confidence every kernel must have */
} expectation;

static inline int read_expected(const char *path, expectation *x, char *why, size_t whylen)
{
    FILE *f = fopen(path, "r");
    char buf[256];
    int lineno = 0;
    memset(x, 0, sizeof *x);
    x->conf = -1;
    if (!f) {
        snprintf(why, whylen, "%s: cannot open", path);
        return -1;
    }
    while (fgets(buf, sizeof buf, f)) {
        char a[64] = "", b[64] = "";
        lineno++;
        char *h = strchr(buf, '#');
        if (h)
            *h = 0;
        int n = sscanf(buf, "%63s %63s", a, b);
        if (n <= 0)
            continue;
        if (strcmp(a, "clean") == 0) {
            x->clean = 1;
            continue;
        }
        if (strcmp(a, "exact") == 0 || strcmp(a, "estimated") == 0) {
            x->conf = a[1] == 'x' ? CONF_EXACT : CONF_ESTIMATED;
            continue;
        }
        if (x->n >= MAX_EXPECT) {
            snprintf(why, whylen, "%s:%d: too many lines", path, lineno);
            fclose(f);
            return -1;
        }
        expect_line *e = &x->e[x->n++];
        if (strcmp(a, "may") == 0) {
            if (n < 2) {
                snprintf(why, whylen, "%s:%d: 'may' needs an id", path, lineno);
                fclose(f);
                return -1;
            }
            e->may = 1;
            snprintf(e->id, sizeof e->id, "%s", b);
        } else {
            snprintf(e->id, sizeof e->id, "%s", a);
            if (n == 2 && sscanf(b, "%d", &e->line) != 1) {
                snprintf(why, whylen, "%s:%d: '%s' is not a line number", path, lineno, b);
                fclose(f);
                return -1;
            }
        }
    }
    fclose(f);
    return 0;
}

#endif
