/* eval_fixture.h - shared by the evaluator's per-analysis unit tests:
 * compiles GLSL, parses and reflects it, and builds an evaluation context
 * (no plan: default options, one workgroup, buffers of unknown size unless
 * a plan kernel is given). */
#ifndef CW_EVAL_FIXTURE_H
#define CW_EVAL_FIXTURE_H

#include "checks.h"
#include "eval_ctx.h"
#include "shader.h"

#include <stdio.h>
#include <stdlib.h>

#include <spirv/unified1/spirv.h>

typedef struct efix {
    shader_module sm;
    spv_module m;
    reflection r;
    device_profile prof;
    ev_ctx *c;
    ev_group g; /* workgroup (0, 0, 0) after efix_open_group0 */
    int have_g;
} efix;

static inline void efix_open(efix *f, const char *glsl, const plan_kernel *k,
                      const eval_options *o)
{
    cw_error err;
    memset(f, 0, sizeof *f);
    cw_error_clear(&err);
    if (shader_compile_glsl("kernel.comp", glsl, strlen(glsl), &f->sm, &err))
        fail_msg("glsl: %s", err.text);
    assert_int_equal(spv_parse(f->sm.words, f->sm.nwords, &f->m, &err), 0);
    if (k)
        assert_int_equal(verifier_specialize(&f->m, k, NULL, &err), 0);
    const spv_entry *e = spv_entry_find(&f->m, "main");
    assert_non_null(e);
    reflect_module(&f->m, e, &f->r);
    profile_init(&f->prof);
    f->prof.limits.subgroup_size = 8;
    char why[256];
    f->c = ev_ctx_new(&f->m, &f->r, k, &f->prof, o, why, sizeof why);
    if (!f->c)
        fail_msg("ev_ctx_new: %s", why);
}

/* efix_open without a plan or options, then workgroup (0, 0, 0) run into
 * f->g (efix_close frees it).  Returns the context's info. */
static inline ev_info *efix_open_group0(efix *f, const char *glsl)
{
    efix_open(f, glsl, NULL, NULL);
    const uint32_t gid[3] = {0, 0, 0};
    ev_group_run(f->c, gid, &f->g);
    f->have_g = 1;
    return ev_ctx_info(f->c);
}

static inline void efix_close(efix *f)
{
    if (f->have_g)
        ev_group_free(f->c, &f->g);
    ev_ctx_free(f->c);
    reflect_free(&f->r);
    spv_free(&f->m);
    shader_free(&f->sm);
}

/* The variable named name (OpName), EV_NONE when absent. */
static inline uint32_t efix_var(efix *f, const char *name)
{
    ev_info *I = ev_ctx_info(f->c);
    for (size_t i = 0; i < I->nvars; i++)
        if (I->vars[i].name && strcmp(I->vars[i].name, name) == 0)
            return (uint32_t)i;
    return EV_NONE;
}

/* Loads a one-kernel plan; "shader" is pointed at an existing example
 * (the loader wants the file; the GLSL evaluated is given separately). */
static inline plan_kernel *efix_plan(plan *p, const char *kernel_json)
{
    char path[1024], text[4096];
    const char *root = getenv("CW_TEST_ROOT");
    snprintf(path, sizeof path, "%s/test.json", root && *root ? root : ".");
    snprintf(text, sizeof text,
             "{\"kernels\": [{\"name\": \"k\", \"shader\": "
             "\"examples/kernels/saxpy.comp\", %s}]}", kernel_json);
    cw_error err;
    cw_error_clear(&err);
    if (plan_load_text(path, text, strlen(text), p, &err))
        fail_msg("plan: %s", err.text);
    assert_int_equal(p->nkernels, 1);
    return &p->kernels[0];
}

/* Compiles glsl and runs the whole evaluator on kernel k with profile
 * prof (NULL: an unknown GPU with subgroups of 8). */
static inline int efix_eval_prof(const char *glsl, const plan_kernel *k, const eval_options *o,
                          const device_profile *given, kernel_counts *kc, report *rep,
                          kernel_report **kr)
{
    shader_module sm;
    spv_module m;
    reflection r;
    cw_error err;
    cw_error_clear(&err);
    if (shader_compile_glsl("kernel.comp", glsl, strlen(glsl), &sm, &err))
        fail_msg("glsl: %s", err.text);
    assert_int_equal(spv_parse(sm.words, sm.nwords, &m, &err), 0);
    assert_int_equal(verifier_specialize(&m, k, NULL, &err), 0);
    reflect_module(&m, spv_entry_find(&m, "main"), &r);
    device_profile prof;
    profile_init(&prof);
    prof.limits.subgroup_size = 8;
    if (given)
        prof = *given;
    report_init(rep);
    *kr = report_add_kernel(rep, "k");
    int rc = o ? eval_run_opts(&m, &r, k, &prof, o, kc, *kr)
               : eval_run(&m, &r, k, &prof, kc, *kr);
    reflect_free(&r);
    spv_free(&m);
    shader_free(&sm);
    return rc;
}

/* Compiles glsl and runs the whole evaluator on kernel k. */
static inline int efix_eval(const char *glsl, const plan_kernel *k, const eval_options *o,
                     kernel_counts *kc, report *rep, kernel_report **kr)
{
    eval_options def;
    if (!o) {
        eval_default_options(&def);
        o = &def;
    }
    return efix_eval_prof(glsl, k, o, NULL, kc, rep, kr);
}

#endif
