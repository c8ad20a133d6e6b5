/* session.c - device, profile, run options, tolerance and exit codes for
 * one command (see session.h). */
#include "session.h"
#include "exitcode.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "input.h"
#include "verdict.h"

void cw_options_default(cw_options *o)
{
    memset(o, 0, sizeof *o);
    o->format = NULL;
    o->samples = 10;
    o->warmup = 2;
    o->tolerance = VERDICT_DEFAULT_TOLERANCE;
    o->timeout_s = 10;
    o->budget_s = 2;
}

session_kinds session_count_kinds(const plan *plans, size_t nplans)
{
    session_kinds n = {0, 0};
    for (size_t p = 0; p < nplans; p++)
        for (size_t i = 0; i < plans[p].nkernels; i++) {
            if (plans[p].kernels[i].kind == PLAN_KERNEL_CPU)
                n.cpu++;
            else
                n.gpu++;
        }
    return n;
}

/* ---- profile choice ---- */

static int is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static int contains_ci(const char *hay, const char *needle)
{
    return hay && needle && strcasestr(hay, needle) != NULL;
}

static int profile_from_option(const char *name, device_profile *prof,
                               report_device *rd, cw_error *err)
{
    if (is_file(name)) {
        if (profile_load_file(name, prof, err))
            return CW_STATUS_INPUT;
        cw_set_str(&rd->profile_path, name);
    } else if (stat(name, &(struct stat){0}) == 0) {
        struct stat st;
        stat(name, &st);
        cw_error_set(err, name, 0, 0, "the profile is %s, not a regular file",
                     cw_file_kind(st.st_mode));
        return CW_STATUS_INPUT;
    } else if (profile_builtin(name, prof) != 0) {
        const char *const *keys = profile_builtin_keys();
        char list[256] = "";
        for (size_t i = 0; keys && keys[i]; i++) {
            strncat(list, keys[i], sizeof list - strlen(list) - 1);
            if (keys[i + 1])
                strncat(list, ", ", sizeof list - strlen(list) - 1);
        }
        cw_error_set(err, name, 0, 0,
                     "no such profile file, and no built-in profile of that name "
                     "(built-in: %s)", list);
        return CW_STATUS_INPUT;
    }
    cw_set_str(&rd->profile, profile_source_name(prof->source));
    return 0;
}

static int profile_from_cache(const char *uuid, const char *driver,
                              device_profile *prof, report_device *rd)
{
    char path[1024];
    if (!uuid || !uuid[0] ||
        profile_cache_path(uuid, driver ? driver : "", path, sizeof path) != 0 ||
        !is_file(path))
        return -1;
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
    return -1;
}

/* --profile (file or built-in key), then the calibrated cache for the
 * device, then a built-in matching the device name, then limits only.
 * dev_name/uuid/driver may be NULL (no device).  0, or CW_STATUS_INPUT. */
static int select_profile(const cw_options *o, const char *dev_name, const char *uuid,
                          const char *driver, device_profile *prof, report_device *rd,
                          cw_error *err)
{
    profile_init(prof);
    if (o->profile)
        return profile_from_option(o->profile, prof, rd, err);
    if (profile_from_cache(uuid, driver, prof, rd) == 0)
        return 0;
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
    /* No device at all (check on a laptop): this CPU through lavapipe. */
    if (!dev_name && profile_builtin("lavapipe", prof) == 0) {
        cw_set_str(&rd->profile, profile_source_name(prof->source));
        return 0;
    }
    prof->source = PROFILE_LIMITS_ONLY;
    cw_set_str(&rd->profile, profile_source_name(prof->source));
    return 0;
}

/* A profile without limits takes them, and the device's identity and
 * shape, from the device itself. */
static void take_device_facts(device_profile *prof, const device_profile *dev)
{
    snprintf(prof->name, sizeof prof->name, "%s", dev->name);
    snprintf(prof->uuid, sizeof prof->uuid, "%s", dev->uuid);
    snprintf(prof->driver, sizeof prof->driver, "%s", dev->driver);
    prof->limits = dev->limits;
    prof->kind = dev->kind;
    if (dev->units) {
        prof->units = dev->units;
        prof->max_threads_per_unit = dev->max_threads_per_unit;
    }
    if (prof->timestamp_res_ns < 0 && dev->timestamp_res_ns > 0)
        prof->timestamp_res_ns = dev->timestamp_res_ns;
}

static void move_device_block(report_device *dst, report_device *src)
{
    char **d[] = {&dst->name, &dst->vendor, &dst->driver, &dst->api,
                  &dst->type, &dst->uuid, &dst->selected_by};
    char **s[] = {&src->name, &src->vendor, &src->driver, &src->api,
                  &src->type, &src->uuid, &src->selected_by};
    for (size_t i = 0; i < sizeof d / sizeof *d; i++) {
        free(*d[i]);
        *d[i] = *s[i];
        *s[i] = NULL;
    }
}

static void free_device_block(report_device *rd)
{
    report_device empty = {0};
    move_device_block(rd, &empty); /* rd's strings now in empty */
    free(empty.name);
    free(empty.vendor);
    free(empty.driver);
    free(empty.api);
    free(empty.type);
    free(empty.uuid);
    free(empty.selected_by);
}

/* The GPU profile without opening a device (check, the TUI without
 * measuring, or when the device would not open): the device --device
 * names, its profile.  A --device that names no device but a built-in
 * profile ("h200") predicts for that profile; a --profile alone predicts
 * for the profile's device.  0, or CW_STATUS_INPUT with err. */
static int static_gpu_profile(const cw_options *o, device_profile *prof, report_device *rd,
                              cw_error *err)
{
    backend_config cfg = {.device = o->device, .events = o->events};
    const backend *b = backend_for_role(BACKEND_ROLE_GPU, NULL);
    report_device seen = {0};
    device_profile facts;
    profile_init(&facts);
    backend_desc desc = {&seen, &facts, NULL};
    cw_error serr;
    cw_error_clear(&serr);
    int irc = b && b->inspect ? b->inspect(&cfg, &desc, &serr) : CW_STATUS_ENV;
    int found = irc == 0, have = irc != CW_STATUS_ENV;
    cw_options oo = *o;
    if (!found && o->device && !o->profile) {
        device_profile builtin;
        if (profile_builtin(o->device, &builtin) == 0) {
            oo.profile = o->device;
        } else if (have) {
            *err = serr;
            free_device_block(&seen);
            return CW_STATUS_INPUT;
        }
    }
    int rc;
    if (found && oo.profile && !o->device) {
        /* --profile alone: predict for the profile's device, not this one */
        rc = select_profile(&oo, NULL, NULL, NULL, prof, rd, err);
        if (rc == 0)
            cw_set_str(&rd->name, prof->name[0] ? prof->name : oo.profile);
    } else if (found) {
        move_device_block(rd, &seen);
        rc = select_profile(&oo, facts.name, facts.uuid, facts.driver, prof, rd, err);
        if (rc == 0 && !prof->limits.max_wg_invocations)
            prof->limits = facts.limits;
    } else {
        rc = select_profile(&oo, NULL, NULL, NULL, prof, rd, err);
        if (rc == 0 && !rd->name && oo.profile) {
            cw_set_str(&rd->name, prof->name[0] ? prof->name : oo.profile);
        } else if (rc == 0 && !rd->name) {
            /* no device to name: say so instead of inventing one */
            char nm[300];
            snprintf(nm, sizeof nm, "no Vulkan device (predicted with the built-in "
                     "'%s' profile)", prof->key[0] ? prof->key : "lavapipe");
            cw_set_str(&rd->name, nm);
        }
    }
    free_device_block(&seen);
    return rc;
}

/* Measuring GPU kernels: open the device, its profile. */
static int open_gpu(session *s, report_device *rd, cw_error *err)
{
    backend_config cfg = {.device = s->opt->device, .events = s->opt->events};
    int rc = backend_open_role(BACKEND_ROLE_GPU, &cfg, &s->gpu, err);
    if (rc)
        return rc;
    device_profile facts;
    backend_desc desc = {rd, &facts, NULL};
    s->gpu.b->describe(s->gpu.state, &desc);
    if (select_profile(s->opt, facts.name, facts.uuid, facts.driver, &s->prof, rd, err))
        return CW_STATUS_INPUT;
    if (!s->prof.limits.max_wg_invocations)
        take_device_facts(&s->prof, &facts);
    return 0;
}

/* Native CPU kernels: this CPU's profile; the runner when measuring. */
static void open_cpu(session *s, report_device *rd_or_null)
{
    backend_config cfg = {.device = s->opt->device, .events = s->opt->events};
    const backend *b = backend_for_role(BACKEND_ROLE_CPU, NULL);
    backend_desc desc = {rd_or_null, &s->cpu_prof, NULL};
    cw_error err;
    if (b && b->inspect)
        b->inspect(&cfg, &desc, &err);
    if (s->measure)
        backend_open_role(BACKEND_ROLE_CPU, &cfg, &s->cpu, &err);
}

static void set_run_options(session *s)
{
    const cw_options *o = s->opt;
    run_options_default(&s->ro);
    if (o->samples)
        s->ro.samples = o->samples;
    s->ro.warmup = o->warmup;
    if (o->timeout_s > 0)
        s->ro.timeout_s = o->timeout_s;
    if (o->budget_s > 0)
        s->ro.budget_s = o->budget_s;
    s->ro.dump_dir = o->dump_dir;
    s->tolerance = o->tolerance >= 0 ? o->tolerance : VERDICT_DEFAULT_TOLERANCE;
}

/* After a bad choice the session still works, measuring nothing. */
static void stand_down(session *s, const cw_error *why)
{
    backend_slot_close(&s->gpu);
    backend_slot_close(&s->cpu);
    char msg[1600];
    cw_error_format(why, msg, sizeof msg);
    backend_open_null(msg, &s->gpu);
    backend_open_null(msg, &s->cpu);
    profile_init(&s->prof);
    s->prof.source = PROFILE_LIMITS_ONLY;
}

static int open_session(session *s, const cw_options *o, int measure, int gpu_here,
                        session_kinds kinds, report_device *rd, cw_error *err);

int session_open(session *s, const cw_options *o, int measure, session_kinds kinds,
                 report_device *rd, cw_error *err)
{
    return open_session(s, o, measure, 1, kinds, rd, err);
}

int session_open_gpu_elsewhere(session *s, const cw_options *o, int measure,
                               session_kinds kinds, report_device *rd, cw_error *err)
{
    return open_session(s, o, measure, 0, kinds, rd, err);
}

static int open_session(session *s, const cw_options *o, int measure, int gpu_here,
                        session_kinds kinds, report_device *rd, cw_error *err)
{
    memset(s, 0, sizeof *s);
    cw_error_clear(err);
    s->opt = o;
    s->measure = measure;
    profile_init(&s->prof);
    profile_init(&s->cpu_prof);
    set_run_options(s);
    int gpu_device = kinds.gpu || !kinds.cpu; /* whose device the report names */
    int rc = 0;
    s->device_is_cpu = !gpu_device;
    if (kinds.cpu)
        open_cpu(s, gpu_device ? NULL : rd);
    if (!gpu_device)
        return 0;
    if (measure && kinds.gpu && gpu_here) {
        rc = open_gpu(s, rd, err);
        if (rc == CW_STATUS_INPUT) {
            stand_down(s, err);
            return rc;
        }
    }
    if (!s->gpu.available) {
        cw_error serr;
        cw_error_clear(&serr);
        if (static_gpu_profile(o, &s->prof, rd, &serr) != 0) {
            *err = serr;
            stand_down(s, err);
            return CW_STATUS_INPUT;
        }
    }
    return rc;
}

const device_profile *session_device_profile(const session *s)
{
    return s->device_is_cpu ? &s->cpu_prof : &s->prof;
}

static const device_profile *kernel_profile(const session *s, const plan_kernel *k)
{
    return k->kind == PLAN_KERNEL_CPU ? &s->cpu_prof : &s->prof;
}

static backend_slot *kernel_device(session *s, const plan_kernel *k)
{
    return k->kind == PLAN_KERNEL_CPU ? &s->cpu : &s->gpu;
}

void session_check_kernel(session *s, const plan_kernel *k, kernel_report *kr,
                          kernel_artifacts *art)
{
    pipeline_check_kernel(k, kernel_profile(s, k), kernel_device(s, k), kr, art);
}

void session_analyse_kernel(session *s, const plan_kernel *k, kernel_report *kr,
                            kernel_artifacts *art)
{
    pipeline_analyse_kernel(k, kernel_profile(s, k), kr, art);
}

void session_predict_kernel(session *s, const plan_kernel *k, kernel_report *kr,
                            kernel_artifacts *art)
{
    pipeline_predict_kernel(k, kernel_profile(s, k), kernel_device(s, k), kr, art);
}

/* The clock probe's time at the profile's clock (collectors/vk_clock.h),
 * or 0 for no check: --clock-check auto checks GPUs (a CPU device's clock
 * is the host's, which the probe cannot warm), on checks any Vulkan
 * device, off none.  A profile without clock or FP latency: no check. */
static double clock_expected_us(const session *s)
{
    const char *mode = s->opt->clock_check ? s->opt->clock_check : "auto";
    int is_cpu = s->prof.kind != DEVICE_KIND_GPU;
    if (!strcmp(mode, "off") || (!strcmp(mode, "auto") && is_cpu))
        return 0;
    return clock_probe_expected_us(&s->prof, is_cpu);
}

int session_measure_kernel(session *s, const plan_kernel *k, kernel_artifacts *art,
                           const session_live *live, kernel_report *kr)
{
    run_options ro = s->ro;
    if (k->kind != PLAN_KERNEL_CPU)
        ro.clock_expected_us = clock_expected_us(s);
    if (live) {
        ro.on_sample = live->on_sample;
        ro.user = live->user;
        ro.cancel = live->cancel;
        ro.dump_dir = live->dump_dir;
    }
    backend_slot *slot = kernel_device(s, k);
    return pipeline_measure_kernel(slot->b ? slot : NULL, k, kernel_profile(s, k), art, &ro,
                                   s->tolerance, kr);
}

int session_probe_counters(const session *s, measurement *out, cw_error *err)
{
    backend_config cfg = {.device = s->opt->device, .events = s->opt->events};
    backend_slot slot;
    int rc = backend_open_role(BACKEND_ROLE_COUNTERS, &cfg, &slot, err);
    if (rc == 0) {
        backend_desc desc = {NULL, NULL, out};
        slot.b->describe(slot.state, &desc);
    }
    backend_slot_close(&slot);
    return rc;
}

int session_wedged(const session *s)
{
    return (s->gpu.b && s->gpu.b->wedged && s->gpu.b->wedged(s->gpu.state)) ||
           (s->cpu.b && s->cpu.b->wedged && s->cpu.b->wedged(s->cpu.state));
}

void session_close(session *s)
{
    backend_slot_close(&s->gpu);
    backend_slot_close(&s->cpu);
}

/* ---- calibrate and devices: through the backends too ---- */

int session_calibrate(const cw_options *o, int cpu, double budget_s, device_profile *out,
                      FILE *log, cw_error *err)
{
    /* no counters: calibration measures the device, not the host */
    backend_config cfg = {.device = o->device, .events = ""};
    backend_slot slot;
    int rc = backend_open_role(cpu ? BACKEND_ROLE_CPU : BACKEND_ROLE_GPU, &cfg, &slot, err);
    if (!rc && !slot.b->calibrate) {
        cw_error_set_env(err, NULL, "the %s backend cannot calibrate", slot.b->name);
        rc = CW_STATUS_ENV;
    }
    if (!rc)
        rc = slot.b->calibrate(slot.state, &cfg, budget_s, out, log, err);
    backend_slot_close(&slot); /* left alone after a hang (the backend's close) */
    return rc;
}

int session_list_devices(const char *format, char **text, cw_error *err)
{
    *text = NULL;
    const backend *b = backend_for_role(BACKEND_ROLE_GPU, err);
    if (!b || !b->devices) {
        if (b)
            cw_error_set_env(err, NULL, "the %s backend cannot list devices", b->name);
        return CW_STATUS_ENV;
    }
    return b->devices(format, text, err);
}

/* ---- exit codes (ARCHITECTURE §2): the one rule ---- */

int session_kernel_exit_code(const kernel_report *k, int measured)
{
    return app_exit_code(report_kernel_status(k, measured));
}

int session_exit_code(const report *r, int measured)
{
    return app_exit_code(report_status(r, measured));
}
