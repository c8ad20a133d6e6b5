/* pipeline.c - one kernel through every stage (see pipeline.h). */
#include "pipeline.h"

#include "load.h"
#include "verdict_load.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cpu.h"
#include "model.h"
#include "verdict.h"
#include "vk.h"
#include "vk_probe.h"
#include "input.h"

void cw_options_default(cw_options *o)
{
    memset(o, 0, sizeof *o);
    o->format = NULL;
    o->samples = 10;
    o->warmup = 2;
    o->tolerance = 0.25;
    o->timeout_s = 10;
    o->budget_s = 2;
}

void kernel_artifacts_free(kernel_artifacts *a)
{
    if (a->have_module)
        shader_free(&a->module);
    if (a->have_result)
        verifier_result_free(&a->result);
    memset(a, 0, sizeof *a);
}

static int is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static int contains_ci(const char *hay, const char *needle)
{
    return hay && needle && strcasestr(hay, needle) != NULL;
}

int pipeline_select_profile(const cw_options *o, const char *dev_name, const char *uuid,
                            const char *driver, device_profile *prof, report_device *rd,
                            cw_error *err)
{
    profile_init(prof);
    if (o->profile) {
        if (is_file(o->profile)) {
            int rc = profile_load_file(o->profile, prof, err);
            if (rc)
                return CW_EXIT_USAGE;
            cw_set_str(&rd->profile_path, o->profile);
        } else if (stat(o->profile, &(struct stat){0}) == 0) {
            struct stat st;
            stat(o->profile, &st);
            cw_error_set(err, o->profile, 0, 0, "the profile is %s, not a regular file",
                         cw_file_kind(st.st_mode));
            return CW_EXIT_USAGE;
        } else if (profile_builtin(o->profile, prof) != 0) {
            const char *const *keys = profile_builtin_keys();
            char list[256] = "";
            for (size_t i = 0; keys && keys[i]; i++) {
                strncat(list, keys[i], sizeof list - strlen(list) - 1);
                if (keys[i + 1])
                    strncat(list, ", ", sizeof list - strlen(list) - 1);
            }
            cw_error_set(err, o->profile, 0, 0,
                         "no such profile file, and no built-in profile of that name "
                         "(built-in: %s)", list);
            return CW_EXIT_USAGE;
        }
        cw_set_str(&rd->profile, profile_source_name(prof->source));
        return 0;
    }
    if (uuid && uuid[0]) {
        char path[1024];
        if (profile_cache_path(uuid, driver ? driver : "", path, sizeof path) == 0 &&
            is_file(path)) {
            cw_error perr;
            if (profile_load_file(path, prof, &perr) == 0) {
                cw_set_str(&rd->profile, profile_source_name(prof->source));
                cw_set_str(&rd->profile_path, path);
                return 0;
            }
            char msg[1200];
            cw_error_format(&perr, msg, sizeof msg);
            fprintf(stderr, "clockwork: warning: ignoring the cached profile: %s "
                            "(run 'clockwork calibrate' to rebuild it)\n", msg);
            profile_init(prof);
        }
    }
    /* A built-in whose name the device carries, else the device's limits. */
    const char *const *keys = profile_builtin_keys();
    for (size_t i = 0; dev_name && keys && keys[i]; i++) {
        device_profile b;
        if (profile_builtin(keys[i], &b) == 0 &&
            (contains_ci(dev_name, keys[i]) || (b.name[0] && contains_ci(dev_name, b.name)) ||
             (strcmp(keys[i], "lavapipe") == 0 && contains_ci(dev_name, "llvmpipe")))) {
            *prof = b;
            cw_set_str(&rd->profile, profile_source_name(prof->source));
            return 0;
        }
    }
    if (!dev_name) {
        /* No device at all (check on a laptop): this CPU through lavapipe. */
        if (profile_builtin("lavapipe", prof) == 0) {
            cw_set_str(&rd->profile, profile_source_name(prof->source));
            return 0;
        }
    }
    prof->source = PROFILE_LIMITS_ONLY;
    cw_set_str(&rd->profile, profile_source_name(prof->source));
    return 0;
}

void pipeline_report_device(report_device *rd, const vk_device_info *d)
{
    cw_set_str(&rd->name, d->name);
    cw_set_str(&rd->vendor, d->vendor);
    char drv[600];
    snprintf(drv, sizeof drv, "%s %s", d->driver_name, d->driver_version);
    cw_set_str(&rd->driver, drv);
    cw_set_str(&rd->api, d->api_version);
    cw_set_str(&rd->type, d->type);
    cw_set_str(&rd->uuid, d->uuid);
    cw_set_str(&rd->selected_by, d->selected_by[0] ? d->selected_by : NULL);
}

int pipeline_static_profile(const cw_options *o, device_profile *prof,
                            report_device *rd, cw_error *err)
{
    vk_device_info *devs = NULL;
    size_t n = 0;
    cw_error lerr, serr;
    cw_error_clear(&lerr);
    cw_error_clear(&serr);
    /* in a child: the driver's libraries stay out of this process (vk_probe.h) */
    int have = vk_probe_devices(30, &devs, &n, &lerr) == 0 && n > 0;
    size_t idx = 0;
    char why[sizeof devs->selected_by] = "";
    int found = have && vk_select_device_why(devs, n, o->device, &idx, why, sizeof why,
                                             &serr) == 0;
    if (found)
        snprintf(devs[idx].selected_by, sizeof devs[idx].selected_by, "%s", why);
    cw_options oo = *o;
    if (!found && o->device && !o->profile) {
        device_profile b;
        if (profile_builtin(o->device, &b) == 0) {
            oo.profile = o->device;
        } else if (have) {
            *err = serr;
            vk_free_devices(devs, n);
            return CW_EXIT_USAGE;
        }
    }
    int rc;
    if (found && oo.profile && !o->device) {
        /* --profile alone: predict for the profile's device, not this one */
        rc = pipeline_select_profile(&oo, NULL, NULL, NULL, prof, rd, err);
        if (rc == 0)
            cw_set_str(&rd->name, prof->name[0] ? prof->name : oo.profile);
    } else if (found) {
        pipeline_report_device(rd, &devs[idx]);
        rc = pipeline_select_profile(&oo, devs[idx].name, devs[idx].uuid,
                                     devs[idx].driver_version, prof, rd, err);
        /* limits come from the device when the profile lacks them */
        if (rc == 0 && !prof->limits.max_wg_invocations)
            prof->limits = devs[idx].limits;
    } else {
        rc = pipeline_select_profile(&oo, NULL, NULL, NULL, prof, rd, err);
        if (rc == 0 && !rd->name && oo.profile)
            cw_set_str(&rd->name, prof->name[0] ? prof->name : oo.profile);
        else if (rc == 0 && !rd->name) {
            /* no device to name: say so instead of inventing one */
            char nm[300];
            snprintf(nm, sizeof nm, "no Vulkan device (predicted with the built-in "
                     "'%s' profile)", prof->key[0] ? prof->key : "lavapipe");
            cw_set_str(&rd->name, nm);
        }
    }
    vk_free_devices(devs, n);
    return rc;
}

static int has_finding(const kernel_report *kr, finding_kind kind)
{
    const char *id = finding_info_of(kind)->id;
    for (size_t i = 0; i < kr->nfindings; i++)
        if (strcmp(kr->findings[i].id, id) == 0)
            return 1;
    return 0;
}

/* Registers per invocation from the driver, into the counts the model
 * reads; when the driver does not say, the reason goes there instead. */
static void driver_registers(struct vk_ctx *ctx, const plan_kernel *k,
                             kernel_artifacts *art)
{
    kernel_counts *c = &art->result.counts;
    vk_pipeline_facts facts;
    cw_error err;
    cw_error_clear(&err);
    if (vk_pipeline_facts_get(ctx, k, &art->module, &art->result.refl, &facts,
                              &err) != 0) {
        char msg[1600];
        cw_error_format(&err, msg, sizeof msg);
        snprintf(c->regs_reason, sizeof c->regs_reason,
                 "building the pipeline to ask the driver failed: %.190s", msg);
    } else if (!facts.available) {
        snprintf(c->regs_reason, sizeof c->regs_reason, "%s", facts.reason);
    } else if (!facts.registers) {
        snprintf(c->regs_reason, sizeof c->regs_reason,
                 "the driver's pipeline statistics have no register count");
    } else {
        c->regs_per_invocation = facts.registers;
    }
}

void pipeline_check_kernel(const plan_kernel *k, const device_profile *prof,
                           kernel_report *kr, kernel_artifacts *art)
{
    pipeline_check_kernel_on(NULL, k, prof, kr, art);
}

void pipeline_check_kernel_on(struct vk_ctx *ctx, const plan_kernel *k,
                              const device_profile *prof, kernel_report *kr,
                              kernel_artifacts *art)
{
    memset(art, 0, sizeof *art);
    if (k->kind == PLAN_KERNEL_CPU) {
        cw_set_str(&kr->kind, "cpu");
        cw_set_str(&kr->shader, k->library);
        cw_set_str(&kr->entry, k->symbol);
        device_profile cpu;
        cpu_profile(&cpu);
        cpu_check_kernel(k, &cpu, kr);
        return;
    }
    cw_set_str(&kr->shader, k->shader);
    cw_set_str(&kr->entry, k->entry);
    memcpy(kr->workgroups, k->workgroups, sizeof kr->workgroups);
    cw_error err;
    cw_error_clear(&err);
    int lrc = shader_load(k->shader_path, &art->module, &err);
    if (lrc == CW_EXIT_ENV) {
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
    if (ctx && !kr->input_error)
        driver_registers(ctx, k, art);
    model_predict(&art->result.counts, &art->result.refl, k, prof, &kr->prediction, kr);
}

int pipeline_measure_kernel(struct vk_ctx *ctx, const plan_kernel *k,
                            const device_profile *prof, kernel_artifacts *art,
                            const struct run_options *ro, double tolerance,
                            kernel_report *kr)
{
    int rc = 0;
    measurement *m = &kr->measurement;
    load_window lw; /* how busy the machine was while measuring */
    load_begin(&lw);
    /* A kernel predicted to outlast the hang guard would only time out:
     * say so before running it, with both numbers. */
    double guard_s = ro && ro->timeout_s > 0 ? ro->timeout_s : 10.0;
    int clean = !kr->input_error && !kernel_report_count(kr, SEV_ERROR) &&
                (k->kind == PLAN_KERNEL_CPU || (art->have_result && art->result.ok));
    int too_long = clean && kr->prediction.valid && kr->prediction.time_us * 1e-6 > guard_s;
    if (too_long) {
        char t[64];
        fmt_time_us(t, sizeof t, kr->prediction.time_us);
        char msg[400];
        snprintf(msg, sizeof msg, "not run: the kernel is predicted to take %s (%s), longer "
                 "than the hang guard's --timeout of %g s; raise --timeout above the "
                 "prediction to measure it", t, confidence_name(kr->prediction.conf), guard_s);
        cw_set_str(&m->error, msg);
        rc = CW_EXIT_ENV;
    } else if (k->kind == PLAN_KERNEL_CPU && clean) {
        rc = cpu_measure_kernel(k, ro, kr);
    } else if (k->kind == PLAN_KERNEL_CPU) {
        /* a library that cannot be loaded, a bad work expression: as for
         * GPU kernels, a kernel with errors is not run */
        divergence *d = &kr->divergence;
        free(d->explanation);
        memset(d, 0, sizeof *d);
        d->valid = 1;
        d->status = DIV_UNKNOWN;
        d->explanation = cw_strdup("not run: the kernel has error findings; fix them first");
        return 0;
    } else if (!art->have_result || !art->result.ok || kr->input_error) {
        divergence *d = &kr->divergence;
        free(d->explanation);
        memset(d, 0, sizeof *d);
        d->valid = 1;
        d->status = DIV_UNKNOWN;
        d->explanation = cw_strdup("not run: the shader could not be analysed");
        return 0;
    } else if (kernel_report_count(kr, SEV_ERROR)) {
        /* A kernel with a certain bug (out of bounds, race) may corrupt
         * memory or lose the device: it is not run. */
        divergence *d = &kr->divergence;
        free(d->explanation);
        memset(d, 0, sizeof *d);
        d->valid = 1;
        d->status = DIV_UNKNOWN;
        d->explanation = cw_strdup("not run: the kernel has error findings; fix them first");
        return 0;
    } else if (!ctx) {
        cw_set_str(&m->error, "no Vulkan device is open");
        rc = CW_EXIT_ENV;
    } else {
        cw_error err;
        cw_error_clear(&err);
        rc = vk_run_kernel(ctx, k, &art->module, &art->result.refl, ro, m, &err);
        if (rc != 0 && !m->error) {
            char msg[1600];
            cw_error_format(&err, msg, sizeof msg);
            cw_set_str(&m->error, msg);
        }
    }
    load_end(&lw, &m->load);
    /* CPU kernels may already carry a roofline verdict with evidence. */
    if (!kr->divergence.valid)
        verdict_judge(&kr->prediction, m, tolerance, prof ? prof->launch_us : -1,
                      &kr->divergence);
    verdict_apply_load(m, verdict_band(tolerance, m),
                       k->kind == PLAN_KERNEL_CPU ? LOAD_NATIVE_CPU
                       : prof && prof->is_cpu     ? LOAD_CPU_DEVICE
                                                  : LOAD_GPU,
                       &kr->divergence);
    return rc;
}
