/* pipeline.c - one kernel through every stage (see pipeline.h). */
#include "pipeline.h"
#include "units.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_isa.h"
#include "cpu_isolate.h"
#include "load.h"
#include "model.h"
#include "model_cpu.h"
#include "verdict.h"
#include "verdict_load.h"

void kernel_artifacts_free(kernel_artifacts *a)
{
    if (a->have_module)
        shader_free(&a->module);
    if (a->have_result)
        verifier_result_free(&a->result);
    memset(a, 0, sizeof *a);
}

static int has_finding(const kernel_report *kr, finding_kind kind)
{
    const char *id = finding_info_of(kind)->id;
    for (size_t i = 0; i < kr->nfindings; i++)
        if (strcmp(kr->findings[i].id, id) == 0)
            return 1;
    return 0;
}

static void analyse_cpu_kernel(const plan_kernel *k, const device_profile *prof,
                               kernel_report *kr, kernel_artifacts *art)
{
    cw_set_str(&kr->kind, "cpu");
    cw_set_str(&kr->shader, k->library);
    cw_set_str(&kr->entry, k->symbol);
    art->have_cpu = 1;
    /* the file the run will load: the plan's path, or for a bare name what
     * the system search finds (dlopen in a child: no constructor runs here) */
    char path[4096], why[600] = "";
    const char *lib = path;
    if (strchr(k->library_path, '/'))
        snprintf(path, sizeof path, "%s", k->library_path);
    else if (cpu_isolate_find_library(k->library_path, 10.0, path, sizeof path, why,
                                      sizeof why) != 0)
        lib = NULL;
    cpu_checks_run(k, lib, why, prof, kr, &art->cpu);
    art->analysed = 1;
}

static void analyse_gpu_kernel(const plan_kernel *k, const device_profile *prof,
                               kernel_report *kr, kernel_artifacts *art)
{
    cw_set_str(&kr->kind, "gpu");
    cw_set_str(&kr->shader, k->shader);
    cw_set_str(&kr->entry, k->entry);
    memcpy(kr->workgroups, k->workgroups, sizeof kr->workgroups);
    cw_error err;
    cw_error_clear(&err);
    int lrc = shader_load(k->shader_path, &art->module, &err);
    if (lrc != 0 && err.kind == CW_ERR_ENV) {
        /* out of memory compiling: not the shader's fault (exit 4) */
        char msg[1600];
        cw_error_format(&err, msg, sizeof msg);
        cw_set_str(&kr->measurement.error, msg);
        kr->env_error = 1;
        return;
    }
    if (lrc != 0) {
        report_add_finding(kr, FINDING_SPIRV_INVALID, SEV_ERROR, err.file[0] ? err.file : k->shader,
                           err.line, "fix the shader so that it compiles (glslc -g shows the "
                           "same message)", "%s", err.text);
        kr->input_error = 1;
        return;
    }
    art->have_module = 1;
    art->have_result = 1;
    if (verifier_analyze(k, &art->module, prof, kr, &art->result) != 0 || !art->result.ok) {
        kr->input_error = 1;
        return;
    }
    if (has_finding(kr, FINDING_ENTRY_POINT_MISSING))
        kr->input_error = 1;
    art->analysed = 1;
}

void pipeline_analyse_kernel(const plan_kernel *k, const device_profile *prof,
                             kernel_report *kr, kernel_artifacts *art)
{
    memset(art, 0, sizeof *art);
    if (k->kind == PLAN_KERNEL_CPU)
        analyse_cpu_kernel(k, prof, kr, art);
    else
        analyse_gpu_kernel(k, prof, kr, art);
}

void pipeline_predict_kernel(const plan_kernel *k, const device_profile *prof,
                             backend_slot *dev, kernel_report *kr,
                             kernel_artifacts *art)
{
    if (!art->analysed)
        return;
    if (k->kind == PLAN_KERNEL_CPU) {
        model_cpu_predict(k, &art->cpu, prof, &kr->prediction);
        return;
    }
    if (dev && dev->available && dev->b->prepare && !kr->input_error) {
        backend_kernel bk = {&art->module, &art->result.refl, &art->result.counts};
        dev->b->prepare(dev->state, k, &bk);
    }
    model_predict(&art->result.counts, &art->result.refl, k, prof, &kr->prediction, kr);
}

void pipeline_check_kernel(const plan_kernel *k, const device_profile *prof,
                           backend_slot *dev, kernel_report *kr,
                           kernel_artifacts *art)
{
    pipeline_analyse_kernel(k, prof, kr, art);
    pipeline_predict_kernel(k, prof, dev, kr, art);
}

static void not_run(kernel_report *kr, const char *why)
{
    divergence *d = &kr->divergence;
    free(d->explanation);
    memset(d, 0, sizeof *d);
    d->valid = 1;
    d->status = DIV_UNKNOWN;
    d->explanation = cw_strdup(why);
}

/* The one verdict, told what kind of prediction it judges. */
static void judge(const plan_kernel *k, const device_profile *prof,
                  const kernel_artifacts *art, double tolerance,
                  kernel_report *kr)
{
    verdict_input in;
    verdict_input_default(&in);
    in.tolerance = tolerance;
    in.launch_us = prof ? prof->launch_us : -1;
    in.min_efficiency = k->min_efficiency;
    if (k->kind == PLAN_KERNEL_CPU) {
        in.roofline_prediction = 1;
        in.threads = cpu_isa_kernel_threads(k);
        in.code_summary = art->have_cpu && art->cpu.inspected ? art->cpu.code.summary : NULL;
        in.file = k->library;
        in.calibrate = "clockwork calibrate --cpu";
    } else {
        in.file = k->shader_path;
        in.calibrate = "clockwork calibrate";
    }
    verdict_judge_kernel(&in, kr);
}

int pipeline_measure_kernel(backend_slot *dev, const plan_kernel *k,
                            const device_profile *prof, kernel_artifacts *art,
                            const run_options *ro, double tolerance,
                            kernel_report *kr)
{
    int analysed = k->kind == PLAN_KERNEL_CPU
                       ? art->have_cpu
                       : art->have_result && art->result.ok && !kr->input_error;
    if (kr->env_error) {
        not_run(kr, "not run: the static stage failed (see the measurement's error)");
        return CW_STATUS_ENV;
    }
    if (!analysed) {
        not_run(kr, "not run: the shader could not be analysed");
        return 0;
    }
    if (kr->input_error || kernel_report_count(kr, SEV_ERROR)) {
        /* A kernel with a certain bug (out of bounds, race, a work count
         * that does not evaluate) may corrupt memory or lose the device,
         * and could not be judged: it is not run. */
        not_run(kr, "not run: the kernel has error findings; fix them first");
        return 0;
    }
    /* A kernel predicted to outlast the hang guard would only time out:
     * say so before running it, with both numbers. */
    double guard_s = ro && ro->timeout_s > 0 ? ro->timeout_s : 10.0;
    if (kr->prediction.valid && kr->prediction.time_us * 1e-6 > guard_s) {
        char t[64], msg[400];
        units_time_us(t, sizeof t, kr->prediction.time_us);
        snprintf(msg, sizeof msg, "not run: the kernel is predicted to take %s (%s), longer "
                 "than the hang guard's --timeout of %g s; raise --timeout above the "
                 "prediction to measure it", t, confidence_name(kr->prediction.conf), guard_s);
        cw_set_str(&kr->measurement.error, msg);
        judge(k, prof, art, tolerance, kr);
        return CW_STATUS_ENV;
    }
    backend_kernel bk = {art->have_module ? &art->module : NULL,
                         art->have_result ? &art->result.refl : NULL,
                         art->have_result ? &art->result.counts : NULL};
    measurement *m = &kr->measurement;
    load_window lw; /* how busy the machine was while measuring */
    load_begin(&lw);
    int rc = dev ? backend_slot_measure(dev, k, &bk, ro, m) : CW_STATUS_ENV;
    if (!dev)
        cw_set_str(&m->error, "unavailable: no backend for this kernel");
    load_end(&lw, &m->load);
    judge(k, prof, art, tolerance, kr);
    /* a busy machine can explain a 'slower' on CPUs (verdict_load.h) */
    verdict_apply_load(m, verdict_band(tolerance, m),
                       k->kind == PLAN_KERNEL_CPU ? LOAD_NATIVE_CPU
                       : prof && prof->kind == DEVICE_KIND_CPU_VULKAN ? LOAD_CPU_DEVICE
                                                  : LOAD_GPU,
                       &kr->divergence);
    return rc;
}
