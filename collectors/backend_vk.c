/* backend_vk.c - the Vulkan backend: GPU (SPIR-V) kernels through vk.h. */
#include "backend.h"

#include <stdio.h>
#include <string.h>

#include "calibrate.h"
#include "vk_probe.h"

static void device_block(report_device *rd, const vk_device_info *d)
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

/* The device's facts as a profile (limits, shape; name, uuid and driver
 * version as the profile cache keys them). */
static void device_facts(device_profile *p, const vk_device_info *d)
{
    profile_init(p);
    snprintf(p->name, sizeof p->name, "%s", d->name);
    snprintf(p->uuid, sizeof p->uuid, "%s", d->uuid);
    snprintf(p->driver, sizeof p->driver, "%s", d->driver_version);
    p->limits = d->limits;
}

static int vkb_open(const backend_config *cfg, void **state, cw_error *err)
{
    vk_ctx *ctx = NULL;
    int rc = vk_open_events(cfg->device, cfg->events, &ctx, err);
    if (rc)
        return rc;
    *state = ctx;
    return 0;
}

static int vkb_inspect(const backend_config *cfg, backend_desc *desc,
                       cw_error *err)
{
    vk_device_info *devs = NULL;
    size_t n = 0;
    /* in a child: the driver's libraries stay out of this process */
    if (vk_probe_devices(30, &devs, &n, err) != 0 || n == 0) {
        vk_free_devices(devs, n);
        return CW_STATUS_ENV;
    }
    size_t idx = 0;
    char why[sizeof devs->selected_by] = "";
    if (vk_select_device_why(devs, n, cfg->device, &idx, why, sizeof why, err) != 0) {
        vk_free_devices(devs, n);
        return CW_STATUS_INPUT;
    }
    snprintf(devs[idx].selected_by, sizeof devs[idx].selected_by, "%s", why);
    if (desc->dev)
        device_block(desc->dev, &devs[idx]);
    if (desc->prof)
        device_facts(desc->prof, &devs[idx]);
    vk_free_devices(devs, n);
    return 0;
}

static void vkb_describe(void *state, backend_desc *desc)
{
    vk_ctx *ctx = state;
    if (desc->dev)
        device_block(desc->dev, vk_ctx_info(ctx));
    if (desc->prof) {
        profile_init(desc->prof);
        vk_device_profile(ctx, desc->prof);
    }
}

/* Registers per invocation from the driver, into the counts the model
 * reads; when the driver does not say, the reason goes there instead. */
static void vkb_prepare(void *state, const plan_kernel *k, backend_kernel *bk)
{
    kernel_counts *c = bk->counts;
    vk_pipeline_facts facts;
    cw_error err;
    cw_error_clear(&err);
    if (vk_pipeline_facts_get(state, k, bk->module, bk->refl, &facts,
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

static int vkb_measure(void *state, const plan_kernel *k,
                       const backend_kernel *bk, const run_options *ro,
                       measurement *m)
{
    cw_error err;
    cw_error_clear(&err);
    int rc = vk_run_kernel(state, k, bk->module, bk->refl, ro, m, &err);
    if (rc != 0 && !m->error) {
        char msg[1600];
        cw_error_format(&err, msg, sizeof msg);
        cw_set_str(&m->error, msg);
    }
    return rc;
}

static int vkb_calibrate(void *state, const backend_config *cfg, double budget_s,
                         device_profile *out, FILE *log, cw_error *err)
{
    return calibrate_device(state, cfg->device, budget_s, out, log, err);
}

/* `clockwork devices`: every physical device, in this process. */
static int vkb_devices(const char *format, char **text, cw_error *err)
{
    *text = NULL;
    vk_device_info *devs = NULL;
    size_t n = 0;
    if (vk_list_devices(&devs, &n, err) != 0)
        return CW_STATUS_ENV;
    int rc = 0;
    if (!strcmp(format, "json")) {
        *text = vk_devices_json_text(devs, n);
    } else if (!strcmp(format, "table")) {
        size_t len = 0;
        FILE *mem = open_memstream(text, &len);
        if (mem) {
            vk_write_devices_table(devs, n, mem);
            fclose(mem);
        }
    } else {
        cw_error_set(err, NULL, 0, 0, "format '%s' does not apply to devices (table, json)",
                     format);
        rc = CW_STATUS_INPUT;
    }
    vk_free_devices(devs, n);
    if (!rc && !*text) {
        cw_error_set_env(err, NULL, "out of memory");
        rc = CW_STATUS_ENV;
    }
    return rc;
}

static int vkb_wedged(void *state)
{
    return vk_ctx_hung(state);
}

/* After a hang the driver may still be running the kernel: the context
 * cannot be destroyed safely, so it is left for the process exit. */
static void vkb_close(void *state)
{
    if (state && !vk_ctx_hung(state))
        vk_close(state);
}

const backend backend_vulkan = {
    .name = "vulkan", .role = BACKEND_ROLE_GPU,
    .absent = "no Vulkan device is open",
    .open = vkb_open, .inspect = vkb_inspect, .describe = vkb_describe, .prepare = vkb_prepare,
    .measure = vkb_measure, .wedged = vkb_wedged, .calibrate = vkb_calibrate,
    .devices = vkb_devices, .close = vkb_close,
};
