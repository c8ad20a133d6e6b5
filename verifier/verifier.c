/* verifier.c - verifier_analyze(): parse -> validate -> specialize ->
 * reflect -> static checks -> evaluator (counts + dynamic checks).
 * See verifier.h for the contract and checks.h for the steps.
 *
 * The reader runs before SPIRV-Tools so that structurally broken input
 * (bad magic, word counts, ids) is rejected by code written for hostile
 * bytes; the validator then judges everything the reader does not.
 */
#include "checks.h"
#include "alloc.h"

/* The evaluator (eval.h) is a separate module; built without it, the
 * verifier still reads, reflects and checks, and the counts stay unknown. */
#if defined(__has_include)
#if __has_include("eval.h")
#include "eval.h"
#include "model_traffic.h"
#define CW_HAVE_EVAL 1
#endif
#endif

#include <spirv/unified1/spirv.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *shader_name(const plan_kernel *k, const shader_module *sm)
{
    if (k && k->shader_path)
        return k->shader_path;
    if (sm && sm->path)
        return sm->path;
    return k ? k->shader : NULL;
}

static void invalid(kernel_report *out, const char *file, const char *hint,
                    const char *what, const cw_error *err)
{
    if (err->column > 0)
        report_add_finding(out, FINDING_SPIRV_INVALID, SEV_ERROR, file, 0, hint,
                           "%s (SPIR-V word %d): %s", what, err->column - 1, err->text);
    else
        report_add_finding(out, FINDING_SPIRV_INVALID, SEV_ERROR, file, 0, hint, "%s: %s", what,
                           err->text);
    out->input_error = 1;
}

static void counts_free(kernel_counts *c)
{
#ifdef CW_HAVE_EVAL
    eval_counts_free(c);
    return;
#endif
    for (size_t i = 0; i < c->naccesses; i++)
        free(c->accesses[i].var);
    free(c->accesses);
    free(c->lines);
    for (size_t i = 0; i < c->nassumptions; i++)
        free(c->assumptions[i]);
    free(c->assumptions);
    memset(c, 0, sizeof *c);
}

/* Plan-side findings carry the plan's line; when the kernel does not know
 * its plan file (plan_kernel.plan_path unset) the line is said in the
 * message so that it is not lost. */
static void name_plan_lines(kernel_report *out, size_t from)
{
    for (size_t i = from; i < out->nfindings; i++) {
        finding *f = &out->findings[i];
        if (f->file || f->line <= 0 || !f->message)
            continue;
        size_t n = strlen(f->message) + 32;
        char *msg = xmalloc(n);
        snprintf(msg, n, "%s (plan line %d)", f->message, f->line);
        free(f->message);
        f->message = msg;
    }
}

int verifier_specialize(spv_module *m, const plan_kernel *k, int *matched,
                        cw_error *err)
{
    size_t n = k ? k->nspec : 0;
    spv_spec_value *v = xcalloc(n ? n : 1, sizeof *v);
    for (size_t i = 0; i < n; i++) {
        const plan_value *pv = &k->spec[i];
        v[i] = (spv_spec_value){pv->key, pv->value, pv->is_integer, pv->ivalue,
                                pv->line, pv->column};
    }
    int rc = spv_specialize(m, v, n, matched, err);
    free(v);
    return rc;
}

int verifier_analyze(const plan_kernel *k, const shader_module *sm,
                     const device_profile *prof, kernel_report *out,
                     verifier_result *result)
{
    spv_module m;
    cw_error err;
    const char *file = shader_name(k, sm);
    const char *hint_bad = "regenerate the SPIR-V (glslc -g --target-env=vulkan1.1 x.comp "
                           "-o x.spv); spirv-val x.spv shows the same problem";

    memset(result, 0, sizeof *result);
    result->counts.conf = CONF_UNKNOWN;
    if (!k || !sm || !sm->words) {
        cw_error_clear(&err);
        snprintf(err.text, sizeof err.text, "no SPIR-V words");
        invalid(out, file, hint_bad, "cannot read the shader", &err);
        return -1;
    }
    cw_error_clear(&err);
    if (spv_parse(sm->words, sm->nwords, &m, &err)) {
        invalid(out, file, hint_bad, "invalid SPIR-V", &err);
        return -1;
    }
    {
        char msg[sizeof err.text];
        long inst = 0;
        int vrc = validate_spirv(m.words, m.nwords, 0, msg, sizeof msg, &inst);
        if (vrc == VALIDATE_BUDGET) {
            report_add_finding(out, FINDING_VALIDATION_BUDGET, SEV_ERROR, file, 0,
                               "split the module, or raise CW_VALIDATE_BUDGET_S (seconds) "
                               "to let SPIRV-Tools take longer",
                               "%s", msg);
            out->input_error = 1;
            spv_free(&m);
            return -1;
        }
        if (vrc) {
            /* valid only with a relaxed block layout: the device must
             * support it (say so), but the module is not broken */
            char msg2[sizeof err.text];
            long inst2 = 0;
            if (validate_spirv(m.words, m.nwords, 1, msg2, sizeof msg2, &inst2) == 0) {
                report_add_finding(out, FINDING_BLOCK_LAYOUT_FEATURE, SEV_NOTE, file, 0,
                                   "run it on a device with scalarBlockLayout (Vulkan 1.2 "
                                   "core, VK_EXT_scalar_block_layout), or use std430 "
                                   "layout (pad vec3 to vec4)",
                                   "the shader's block layout is valid only with a device "
                                   "feature: %s", msg);
            } else {
                const spv_inst *at = inst2 > 0 && (size_t)inst2 <= m.ninsts
                                         ? &m.insts[inst2 - 1] : NULL;
                cw_error_clear(&err);
                snprintf(err.text, sizeof err.text, "%s", msg2);
                err.column = at ? (int)at->offset + 1 : 0;
                invalid(out, file, hint_bad, "SPIR-V validation failed", &err);
                if (at && at->line > 0 && spv_string(&m, at->file)) {
                    /* point at the GLSL line of the rejected instruction */
                    finding *f = &out->findings[out->nfindings - 1];
                    cw_set_str(&f->file, spv_string(&m, at->file));
                    f->line = at->line;
                }
                spv_free(&m);
                return -1;
            }
        }
    }

    const char *want = k && k->entry ? k->entry : "main";
    const spv_entry *e = spv_entry_find(&m, want);
    if (e && e->model != SpvExecutionModelGLCompute)
        e = NULL;
    if (!e) {
        limits_entry_missing(&m, k, out);
        out->input_error = 1;
        reflect_module(&m, NULL, &result->refl);
        spv_free(&m);
        return -1;
    }

    size_t first_static = out->nfindings;
    int *matched = xcalloc(k->nspec ? k->nspec : 1, sizeof *matched);
    cw_error_clear(&err);
    if (verifier_specialize(&m, k, matched, &err)) {
        report_add_finding(out, FINDING_SPEC_CONSTANT_VALUE, SEV_ERROR, k->plan_path, err.line,
                           "give the spec constant a value of its declared type", "%s",
                           err.text);
    }
    e = spv_entry_find(&m, want); /* local size recomputed */
    reflect_module(&m, e, &result->refl);
    result->ok = 1;
    limits_check(&m, &result->refl, k, prof, matched,
                 sm->source ? sm->source : m.source_text, out);
    free(matched);
    if (!k->plan_path)
        name_plan_lines(out, first_static);

#ifdef CW_HAVE_EVAL
    /* counts for the model and the dynamic checks; it copes with what the
     * static checks found (a missing buffer is an unknown length) */
    eval_run(&m, &result->refl, k, prof, &result->counts, out);
    /* traffic and contention from the address stream (model_traffic.h) */
    model_traffic_simulate(&m, &result->refl, k, prof, &result->counts);
#endif

    memcpy(out->local_size, result->refl.local_size, sizeof out->local_size);
    cw_set_str(&out->entry, e->name);

    spv_free(&m);
    return 0;
}

void verifier_result_free(verifier_result *r)
{
    if (!r)
        return;
    reflect_free(&r->refl);
    counts_free(&r->counts);
    memset(r, 0, sizeof *r);
}
