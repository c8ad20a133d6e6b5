/* The fuzz target shared by the SPIR-V harnesses (fuzz_spirv*.c): the whole
 * static path (reader, validation, reflection, evaluator, checks, model) on
 * one module, for a plan kernel with a few buffers, push constants and a
 * 2-D dispatch.  Header-only on purpose: each harness is one translation
 * unit built by tests/fuzz/run.sh. */
#ifndef CW_FUZZ_SPIRV_TARGET_H
#define CW_FUZZ_SPIRV_TARGET_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "model.h"
#include "profile.h"
#include "shader.h"
#include "verifier.h"

/* spirv_static_path: the verifier on kernel k and module m (findings into
 * kr), then the model on a module the verifier accepts; 1 when the model
 * ran.  Also what the hostile-size and pathological unit tests run. */
static inline int spirv_static_path(const plan_kernel *k, const shader_module *m,
                                    const device_profile *prof, kernel_report *kr)
{
    verifier_result vr;
    memset(&vr, 0, sizeof vr);
    int ok = verifier_analyze(k, m, prof, kr, &vr) == 0 && vr.ok;
    if (ok)
        model_predict(&vr.counts, &vr.refl, k, prof, &kr->prediction, kr);
    verifier_result_free(&vr);
    return ok;
}

static inline int spirv_target_run(const uint8_t *data, size_t size)
{
    static device_profile prof;
    static int init;
    if (!init) {
        profile_builtin("h200", &prof);
        init = 1;
    }
    shader_module m;
    cw_error err;
    if (shader_from_spirv("fuzz.spv", data, size, &m, &err) != 0)
        return 0;
    plan_value push[2] = {{.key = (char *)"n", .value = 1000, .is_integer = 1, .ivalue = 1000},
                          {.key = (char *)"alpha", .value = 2.0}};
    plan_buffer bufs[3] = {{.binding = 0, .has_elements = 1, .elements = 1000},
                           {.binding = 1, .has_elements = 1, .elements = 1000},
                           {.binding = 2, .has_bytes = 1, .bytes = 4096}};
    plan_kernel k = {.name = (char *)"fuzz", .shader = (char *)"fuzz.spv",
                     .shader_path = (char *)"fuzz.spv", .entry = (char *)"main",
                     .workgroups = {4, 2, 1}, .push = push, .npush = 2,
                     .buffers = bufs, .nbuffers = 3, .min_efficiency = -1};
    report r;
    report_init(&r);
    spirv_static_path(&k, &m, &prof, report_add_kernel(&r, "fuzz"));
    report_free(&r);
    shader_free(&m);
    return 0;
}

#endif
