/* backend_cpu.c - the native CPU backend: shared-object kernels run in
 * this process (cpu_run.h), described by this CPU's profile
 * (cpu_profile.h). */
#include "backend.h"

#include <string.h>

#include "cpu_calibrate.h"
#include "cpu_profile.h"
#include "cpu_run.h"

static int cpub_open(const backend_config *cfg, void **state, cw_error *err)
{
    (void)cfg, (void)err;
    *state = NULL; /* nothing to open: the kernels are loaded per run */
    return 0;
}

static void cpub_describe(void *state, backend_desc *desc)
{
    (void)state;
    device_profile local, *p = desc->prof ? desc->prof : &local;
    cpu_profile(p);
    if (desc->dev) {
        cw_set_str(&desc->dev->name, p->name[0] ? p->name : "CPU");
        cw_set_str(&desc->dev->type, "cpu");
        cw_set_str(&desc->dev->profile, profile_source_name(p->source));
    }
}

/* This CPU needs no opening: described the same with or without. */
static int cpub_inspect(const backend_config *cfg, backend_desc *desc,
                        cw_error *err)
{
    (void)cfg, (void)err;
    cpub_describe(NULL, desc);
    return 0;
}

static int cpub_measure(void *state, const plan_kernel *k,
                        const backend_kernel *bk, const run_options *ro,
                        measurement *m)
{
    (void)state, (void)bk;
    return cpu_measure_kernel(k, ro, m);
}

static int cpub_calibrate(void *state, const backend_config *cfg, double budget_s,
                          device_profile *out, FILE *log, cw_error *err)
{
    (void)state, (void)cfg;
    return cpu_calibrate(budget_s, out, log, err);
}

const backend backend_cpu = {
    .name = "cpu", .role = BACKEND_ROLE_CPU,
    .absent = "native CPU kernels cannot be run",
    .open = cpub_open, .inspect = cpub_inspect, .describe = cpub_describe,
    .measure = cpub_measure, .calibrate = cpub_calibrate,
};
