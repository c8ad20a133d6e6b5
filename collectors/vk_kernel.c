/* vk_kernel.c - vk_run_kernel(): one plan kernel, end to end (see vk.h).
 *
 * Order: buffers (sized by the verifier's reflection, filled per the
 * plan's init, uploaded), push constants, specialization, pipeline (with
 * the context's pipeline cache), one recorded command buffer re-submitted
 * for every timed run (timestamps around the dispatch, nothing else).  The
 * first run is the cold sample (reported apart); the second, where the
 * device has pipeline statistics, is the untimed statistics dispatch; the
 * rest of --warmup follows; then warm samples until stats.h says stop.
 * Counters bracket the warm-sample loop and are reported per dispatch.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bufinit.h"
#include "half.h"
#include "alloc.h"
#include "stats.h"
#include "vk_clock.h"
#include "vk_internal.h"

/* ---- buffer contents ---- */

/* Store v as element i of type k. */
static void put(uint8_t *p, size_t i, scalar_kind k, double v)
{
    switch (k) {
    case SCALAR_I8: { int8_t x = (int8_t)v; memcpy(p + i, &x, 1); break; }
    case SCALAR_U8: { uint8_t x = (uint8_t)v; memcpy(p + i, &x, 1); break; }
    case SCALAR_I16: { int16_t x = (int16_t)v; memcpy(p + 2 * i, &x, 2); break; }
    case SCALAR_U16: { uint16_t x = (uint16_t)v; memcpy(p + 2 * i, &x, 2); break; }
    case SCALAR_F16: { uint16_t x = cw_float_to_half((float)v); memcpy(p + 2 * i, &x, 2); break; }
    case SCALAR_BOOL: { uint32_t x = v != 0; memcpy(p + 4 * i, &x, 4); break; }
    case SCALAR_I32: { int32_t x = (int32_t)v; memcpy(p + 4 * i, &x, 4); break; }
    case SCALAR_U32: { uint32_t x = (uint32_t)v; memcpy(p + 4 * i, &x, 4); break; }
    case SCALAR_I64: { int64_t x = (int64_t)v; memcpy(p + 8 * i, &x, 8); break; }
    case SCALAR_U64: { uint64_t x = (uint64_t)v; memcpy(p + 8 * i, &x, 8); break; }
    case SCALAR_F64: memcpy(p + 8 * i, &v, 8); break;
    default: { float x = (float)v; memcpy(p + 4 * i, &x, 4); break; }
    }
}

/* ---- specialization ---- */

static size_t spec_write(uint8_t *p, scalar_kind k, double v)
{
    switch (k) {
    case SCALAR_BOOL: { uint32_t x = v != 0; memcpy(p, &x, 4); return 4; }
    case SCALAR_I8: case SCALAR_U8: put(p, 0, k, v); return 1;
    case SCALAR_I16: case SCALAR_U16: case SCALAR_F16: put(p, 0, k, v); return 2;
    case SCALAR_I64: case SCALAR_U64: case SCALAR_F64: put(p, 0, k, v); return 8;
    default: put(p, 0, k, v); return 4;
    }
}

/* Pipeline for the kernel with every specialization constant the plan
 * overrides. */
static int build_pipeline(vk_ctx *c, const plan_kernel *k,
                          const shader_module *m, const reflection *refl,
                          const vkx_binding *b, size_t nb, vkx_pipeline *p,
                          cw_error *err)
{
    VkSpecializationMapEntry *me = xcalloc(refl->nspecs + 1, sizeof *me);
    uint8_t *sdata = xcalloc(refl->nspecs + 1, 8);
    uint32_t nme = 0, off = 0;
    for (size_t i = 0; i < refl->nspecs; i++) {
        const refl_spec *s = &refl->specs[i];
        if (!s->overridden)
            continue;
        size_t sz = spec_write(sdata + off, s->type, s->value);
        me[nme++] = (VkSpecializationMapEntry){s->id, off, sz};
        off += (uint32_t)sz;
    }
    VkSpecializationInfo si = {nme, me, off, sdata};
    int rc = vkx_pipeline_create(c, m->words, m->nwords,
                                 k->entry ? k->entry : refl->entry, b, nb,
                                 refl->push_bytes, nme ? &si : NULL, k->name,
                                 p, err);
    free(me);
    free(sdata);
    return rc;
}

/* ---- dump ---- */

static int write_dump(const char *dir, uint32_t set, uint32_t binding,
                      const void *data, uint64_t bytes, cw_error *err)
{
    if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
        cw_error_set(err, dir, 0, 0, "cannot create the --dump folder: %s",
                     strerror(errno));
        return CW_STATUS_INPUT;
    }
    char path[1200];
    snprintf(path, sizeof path, "%s/binding-%u-%u.bin", dir, set, binding);
    FILE *f = fopen(path, "wb");
    if (!f) {
        cw_error_set(err, path, 0, 0, "cannot write the dump: %s",
                     strerror(errno));
        return CW_STATUS_INPUT;
    }
    int ok = fwrite(data, 1, bytes, f) == bytes;
    ok &= fclose(f) == 0;
    if (!ok) {
        cw_error_set(err, path, 0, 0, "writing the dump failed: %s",
                     strerror(errno));
        return CW_STATUS_INPUT;
    }
    return 0;
}

/* ---- the runner ---- */

/* One of the device's compute limits and what the kernel asks of it. */
typedef struct limit_check {
    uint64_t asked, limit;
    const char *name; /* the Vulkan limit */
    char what[64];    /* what the kernel asks, in words */
} limit_check;

/* The dispatch must fit the device: an over-limit dispatch is invalid
 * usage that a driver may crash on, not an error it must report.  The
 * verifier reports these as findings; the runner refuses on its own too. */
static int check_limits(const vk_ctx *c, const plan_kernel *k,
                        const reflection *refl, cw_error *err)
{
    const device_limits *l = &c->info.limits;
    limit_check chk[9];
    size_t n = 0;
    uint64_t inv = 1;
    /* in the order they are reported: per axis, then the totals */
    for (int i = 0; i < 3; i++) {
        chk[n] = (limit_check){k->workgroups[i], l->max_wg_count[i],
                               "maxComputeWorkGroupCount", ""};
        snprintf(chk[n++].what, sizeof chk->what, "%u workgroups in %c", k->workgroups[i],
                 "xyz"[i]);
        chk[n] = (limit_check){refl->local_size[i], l->max_wg_size[i],
                               "maxComputeWorkGroupSize", ""};
        snprintf(chk[n++].what, sizeof chk->what, "local size %u in %c", refl->local_size[i],
                 "xyz"[i]);
        inv *= refl->local_size[i] ? refl->local_size[i] : 1;
    }
    chk[n] = (limit_check){inv, l->max_wg_invocations, "maxComputeWorkGroupInvocations", ""};
    snprintf(chk[n++].what, sizeof chk->what, "%llu invocations per workgroup",
             (unsigned long long)inv);
    chk[n] = (limit_check){refl->shared_bytes, l->max_shared_bytes,
                           "maxComputeSharedMemorySize", ""};
    snprintf(chk[n++].what, sizeof chk->what, "%llu bytes of shared memory",
             (unsigned long long)refl->shared_bytes);
    chk[n] = (limit_check){refl->push_bytes, l->max_push_bytes, "maxPushConstantsSize", ""};
    snprintf(chk[n++].what, sizeof chk->what, "a %u-byte push-constant block",
             refl->push_bytes);
    for (size_t i = 0; i < n; i++)
        if (chk[i].asked > chk[i].limit) {
            cw_error_set(err, NULL, 0, 0, "kernel '%s': %s is above the device's %s (%llu)",
                         k->name, chk[i].what, chk[i].name, (unsigned long long)chk[i].limit);
            return CW_STATUS_ENV;
        }
    return 0;
}

typedef struct run_state {
    vkx_binding b[VKX_MAX_BINDINGS];
    vkx_buffer buf[VKX_MAX_BINDINGS];
    const refl_binding *rb[VKX_MAX_BINDINGS];
    size_t nb;
    vkx_pipeline pipe;
    vkx_timer timer;
    uint8_t *push;
    double *samples;
} run_state;

static void run_state_free(vk_ctx *c, run_state *st)
{
    vkx_timer_destroy(c, &st->timer);
    vkx_pipeline_destroy(c, &st->pipe);
    for (size_t i = 0; i < st->nb; i++)
        vkx_buffer_destroy(c, &st->buf[i]);
    free(st->push);
    free(st->samples);
}

static int make_buffers(vk_ctx *c, const plan_kernel *k,
                        const reflection *refl, const run_options *o,
                        run_state *st, cw_error *err)
{
    for (size_t i = 0; i < refl->nbindings; i++) {
        const refl_binding *rb = &refl->bindings[i];
        if (rb->kind == DESC_OTHER) {
            cw_error_set(err, k->shader_path, 0, 0,
                         "kernel '%s': set %u binding %u is an image or "
                         "sampler; the runner supports storage and uniform "
                         "buffers only", k->name, rb->set, rb->binding);
            return CW_STATUS_INPUT;
        }
        if (st->nb == VKX_MAX_BINDINGS) {
            cw_error_set(err, k->shader_path, 0, 0,
                         "kernel '%s' has more than %d bindings", k->name,
                         VKX_MAX_BINDINGS);
            return CW_STATUS_INPUT;
        }
        const plan_buffer *pb = plan_kernel_buffer(k, rb->set, rb->binding);
        if (!pb) {
            cw_error_set(err, k->shader_path, 0, 0,
                         "kernel '%s': the plan gives no buffer for set %u "
                         "binding %u ('%s'); add it to \"buffers\"", k->name,
                         rb->set, rb->binding, rb->name ? rb->name : "?");
            return CW_STATUS_INPUT;
        }
        uint64_t bytes = 0;
        if (verifier_buffer_bytes(refl, k, pb, &bytes, err))
            return CW_STATUS_INPUT;
        if (rb->kind == DESC_STORAGE_BUFFER &&
            bytes > c->info.limits.max_storage_range) {
            cw_error_set(err, NULL, 0, 0,
                         "kernel '%s': buffer set %u binding %u is %llu "
                         "bytes, above the device's maxStorageBufferRange "
                         "(%llu)", k->name, rb->set, rb->binding,
                         (unsigned long long)bytes,
                         (unsigned long long)c->info.limits.max_storage_range);
            return CW_STATUS_ENV;
        }
        if (rb->kind == DESC_UNIFORM_BUFFER) {
            VkPhysicalDeviceProperties pp;
            vkGetPhysicalDeviceProperties(c->phys, &pp);
            if (bytes > pp.limits.maxUniformBufferRange) {
                cw_error_set(err, NULL, 0, 0,
                             "kernel '%s': uniform buffer set %u binding %u "
                             "is %llu bytes, above the device's "
                             "maxUniformBufferRange (%u)", k->name, rb->set,
                             rb->binding, (unsigned long long)bytes,
                             pp.limits.maxUniformBufferRange);
                return CW_STATUS_ENV;
            }
        }
        char what[160];
        snprintf(what, sizeof what, "buffer set %u binding %u ('%s') of "
                 "kernel '%s'", rb->set, rb->binding,
                 rb->name ? rb->name : "?", k->name);
        size_t j = st->nb;
        int uniform = rb->kind == DESC_UNIFORM_BUFFER;
        int rc = vkx_buffer_create(c, bytes, uniform, what, &st->buf[j], err);
        if (rc)
            return rc;
        st->nb++;
        st->rb[j] = rb;
        st->b[j] = (vkx_binding){rb->set, rb->binding, uniform, &st->buf[j]};
        uint8_t *data = malloc(bytes ? bytes : 1);
        if (!data) {
            cw_error_set(err, NULL, 0, 0, "out of host memory filling %s "
                         "(%llu bytes)", what, (unsigned long long)bytes);
            return CW_STATUS_ENV;
        }
        if (bufinit_fill(data, bytes, verifier_bufinit_elem(rb->elem), pb, o->seed, err)) {
            free(data);
            return CW_STATUS_INPUT;
        }
        rc = vkx_buffer_upload(c, &st->buf[j], data, bytes, o->timeout_s,
                               err);
        free(data);
        if (rc)
            return rc;
    }
    return 0;
}

static int dump_buffers(vk_ctx *c, const run_options *o, run_state *st,
                        cw_error *err)
{
    for (size_t i = 0; i < st->nb; i++) {
        if (!st->rb[i]->writes)
            continue;
        uint64_t bytes = st->buf[i].size;
        uint8_t *data = malloc(bytes ? bytes : 1);
        if (!data) {
            cw_error_set(err, NULL, 0, 0, "out of host memory for --dump");
            return CW_STATUS_ENV;
        }
        int rc = vkx_buffer_download(c, &st->buf[i], data, bytes,
                                     o->timeout_s, err);
        if (!rc)
            rc = write_dump(o->dump_dir, st->b[i].set, st->b[i].binding,
                            data, bytes, err);
        free(data);
        if (rc)
            return rc;
    }
    return 0;
}

static void fail_measurement(measurement *out, const cw_error *err)
{
    char buf[1600];
    cw_error_format(err, buf, sizeof buf);
    cw_set_str(&out->error, buf);
    out->valid = 0;
}

/* The clock check after the warm-up (vk_clock.h): probe; while the probe
 * reads the device below CLOCK_SETTLED_RATIO of the profile's clock, run
 * the kernel itself for another warmup_s and probe again, at most
 * clock_max_s of added busy time.  A probe that cannot be built here
 * leaves the reading unavailable with the reason and the kernel is
 * measured all the same; only a hang or a lost device fails the run. */
static int settle_clock(vk_ctx *c, run_state *st, const plan_kernel *k,
                        const run_options *opt, clock_reading *cr, cw_error *err)
{
    free(cr->unavailable);
    memset(cr, 0, sizeof *cr);
    cr->expected_us = opt->clock_expected_us;
    double step = opt->warmup_s > 0 ? opt->warmup_s : 0.3;
    for (;;) {
        double us = 0;
        char *why = NULL;
        int rc = vkx_clock_probe_time(c, opt->timeout_s, &us, &why, err);
        if (rc)
            return rc;
        if (why) {
            cr->unavailable = why;
            return 0;
        }
        if (clock_reading_note(cr, us) || cr->extra_warmup_s >= opt->clock_max_s ||
            (opt->cancel && *opt->cancel))
            return 0;
        double t0 = vkx_now_s(), kus;
        int host;
        for (unsigned i = 0; vkx_now_s() - t0 < step && i < 100000; i++) {
            rc = vkx_timer_run(c, &st->timer, opt->timeout_s, k->name, 0, &kus, &host, err);
            if (rc)
                return rc;
        }
        cr->extra_warmup_s += vkx_now_s() - t0;
    }
}

int vk_run_kernel(vk_ctx *c, const plan_kernel *k, const shader_module *m,
                  const reflection *refl, const run_options *opt,
                  measurement *out, cw_error *err)
{
    run_options defaults;
    if (!opt) {
        run_options_default(&defaults);
        opt = &defaults;
    }
    cw_set_str(&out->counters_scope,
               strcmp(c->info.type, "cpu") == 0 ? "kernel" : "host");
    if (c->hung) {
        cw_error_set(err, NULL, 0, 0, "kernel '%s' not run: the device is "
                     "still busy with a kernel that hung", k->name);
        fail_measurement(out, err);
        return CW_STATUS_ENV;
    }
    run_state st;
    memset(&st, 0, sizeof st);
    int rc = check_limits(c, k, refl, err);
    if (!rc)
        rc = make_buffers(c, k, refl, opt, &st, err);
    if (rc)
        goto done;

    if (refl->push_bytes) {
        st.push = xcalloc(1, refl->push_bytes + 4);
        verifier_push_bytes(refl, k, st.push);
    }

    rc = build_pipeline(c, k, m, refl, st.b, st.nb, &st.pipe, err);
    if (rc)
        goto done;
    rc = vkx_timer_record(c, &st.pipe, st.push, k->workgroups, 1, &st.timer,
                          err);
    if (rc)
        goto done;

    /* cold run, then the rest of the warm-up.  A GPU idles while the host
     * fills large buffers and drops its clocks; measured on an H200, the
     * same SAXPY then ran 3.3x slower for the whole (short) sampling
     * phase.  So on a GPU the warm-up also lasts warmup_s of busy time. */
    unsigned warm = opt->warmup ? opt->warmup : 1;
    /* run 1 is the statistics dispatch (untimed, see vk_internal.h), so a
     * device with statistics warms up at least twice */
    int stats_run = vkx_timer_has_stats(&st.timer);
    if (stats_run && warm < 2)
        warm = 2;
    int is_gpu = strcmp(c->info.type, "cpu") != 0;
    double warm_s = is_gpu ? opt->warmup_s : 0;
    double warm_t0 = vkx_now_s();
    double us;
    int used_host = 0, has_inv = 0;
    uint64_t inv = 0;
    for (unsigned i = 0; i < warm || (warm_s > 0 && vkx_now_s() - warm_t0 < warm_s &&
                                      i < 100000);
         i++) {
        if (i == 1 && stats_run)
            rc = vkx_timer_count(c, &st.timer, opt->timeout_s, k->name, &inv,
                                 &has_inv, err);
        else
            rc = vkx_timer_run(c, &st.timer, opt->timeout_s, k->name, 0, &us,
                               &used_host, err);
        if (rc)
            goto done;
        if (i == 0) {
            out->has_cold = 1;
            out->cold_us = us;
        }
    }
    if (opt->clock_expected_us > 0) {
        rc = settle_clock(c, &st, k, opt, &out->clock, err);
        if (rc)
            goto done;
    }

    stats_policy pol;
    stats_policy_default(&pol, opt->samples ? opt->samples : 10,
                         opt->budget_s > 0 ? opt->budget_s : 2);
    size_t cap = 64, n = 0;
    st.samples = xmalloc(cap * sizeof *st.samples);
    /* Counters bracket the whole warm loop, not each dispatch: starting
     * and stopping inherited counters costs ~200 us here (every worker
     * thread's copy is toggled), far more than the host work between two
     * samples, which is all the loop adds. */
    backend_counters_reset(&c->counters);
    backend_counters_start(&c->counters);
    double t0 = vkx_now_s();
    while (stats_should_continue(st.samples, n, &pol, vkx_now_s() - t0)) {
        if (opt->cancel && *opt->cancel)
            break;
        rc = vkx_timer_run(c, &st.timer, opt->timeout_s, k->name, 0, &us,
                           &used_host, err);
        if (rc) {
            backend_counters_stop(&c->counters);
            goto done;
        }
        if (n == cap) {
            cap *= 2;
            double *ns = xrealloc(st.samples, cap * sizeof *ns);
            st.samples = ns;
        }
        st.samples[n++] = us;
        if (opt->on_sample)
            opt->on_sample(opt->user, us);
    }
    backend_counters_stop(&c->counters);
    stats_fill_measurement(out, st.samples, n);
    if (has_inv) {
        out->has_invocations = 1;
        out->invocations = inv;
    }
    if (n) {
        size_t first = out->ncounters;
        backend_counters_read(&c->counters, out);
        for (size_t i = first; i < out->ncounters; i++)
            if (out->counters[i].available)
                out->counters[i].value /= (double)n; /* per dispatch */
    }
    if (opt->dump_dir)
        rc = dump_buffers(c, opt, &st, err);
done:
    if (rc)
        fail_measurement(out, err);
    run_state_free(c, &st);
    return rc;
}

/* ---- pipeline executable properties ---- */

static double stat_value(const VkPipelineExecutableStatisticKHR *st)
{
    switch (st->format) {
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR:
        return st->value.b32 ? 1 : 0;
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR:
        return (double)st->value.i64;
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR:
        return (double)st->value.u64;
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_FLOAT64_KHR:
        return st->value.f64;
    default:
        return 0;
    }
}

/* Per-invocation register count under the names drivers use: "Register
 * Count" (NVIDIA), "VGPRs" (radv), "GRF registers" (anv). */
static int is_register_stat(const char *name)
{
    if (strcasestr(name, "spill") || strcasestr(name, "sgpr"))
        return 0;
    return strcasestr(name, "register") != NULL ||
           strcasecmp(name, "VGPRs") == 0 || strcasestr(name, "vgpr") != NULL;
}

int vk_pipeline_facts_get(vk_ctx *c, const plan_kernel *k,
                          const shader_module *m, const reflection *refl,
                          vk_pipeline_facts *out, cw_error *err)
{
    memset(out, 0, sizeof *out);
    if (!c->has_exec_props) {
        snprintf(out->reason, sizeof out->reason,
                 "the device does not offer "
                 "VK_KHR_pipeline_executable_properties");
        return 0;
    }
    if (c->hung) {
        snprintf(out->reason, sizeof out->reason,
                 "the device is still busy with a kernel that hung");
        return 0;
    }
    PFN_vkGetPipelineExecutablePropertiesKHR get_props =
        (PFN_vkGetPipelineExecutablePropertiesKHR)vkGetDeviceProcAddr(
            c->device, "vkGetPipelineExecutablePropertiesKHR");
    PFN_vkGetPipelineExecutableStatisticsKHR get_stats =
        (PFN_vkGetPipelineExecutableStatisticsKHR)vkGetDeviceProcAddr(
            c->device, "vkGetPipelineExecutableStatisticsKHR");
    if (!get_props || !get_stats) {
        snprintf(out->reason, sizeof out->reason,
                 "the driver does not export the "
                 "VK_KHR_pipeline_executable_properties entry points");
        return 0;
    }
    /* layouts only: the pipeline is compiled, never dispatched */
    vkx_binding b[VKX_MAX_BINDINGS];
    size_t nb = 0;
    for (size_t i = 0; i < refl->nbindings && nb < VKX_MAX_BINDINGS; i++) {
        const refl_binding *rb = &refl->bindings[i];
        if (rb->kind == DESC_OTHER)
            continue;
        b[nb++] = (vkx_binding){rb->set, rb->binding,
                                rb->kind == DESC_UNIFORM_BUFFER, NULL};
    }
    vkx_pipeline p;
    c->capture_stats = 1;
    int rc = build_pipeline(c, k, m, refl, b, nb, &p, err);
    c->capture_stats = 0;
    if (rc)
        return rc;
    VkPipelineInfoKHR pi = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR,
        .pipeline = p.pipeline,
    };
    uint32_t nexe = 0;
    VkResult r = get_props(c->device, &pi, &nexe, NULL);
    VkPipelineExecutablePropertiesKHR *ep = NULL;
    if (r == VK_SUCCESS && nexe) {
        ep = xcalloc(nexe, sizeof *ep);
        for (uint32_t i = 0; i < nexe; i++)
            ep[i].sType = VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_PROPERTIES_KHR;
        r = get_props(c->device, &pi, &nexe, ep);
    }
    if (r != VK_SUCCESS || nexe == 0) {
        snprintf(out->reason, sizeof out->reason,
                 "the driver reported no executable for the pipeline (%s)",
                 vkx_result_name(r));
        free(ep);
        vkx_pipeline_destroy(c, &p);
        return 0;
    }
    /* a compute pipeline has one executable that matters: the first one
     * with the compute stage */
    uint32_t which = 0;
    for (uint32_t i = 0; i < nexe; i++)
        if (ep[i].stages & VK_SHADER_STAGE_COMPUTE_BIT) {
            which = i;
            break;
        }
    out->subgroup_size = ep[which].subgroupSize;
    VkPipelineExecutableInfoKHR ei = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR,
        .pipeline = p.pipeline,
        .executableIndex = which,
    };
    uint32_t nst = 0;
    r = get_stats(c->device, &ei, &nst, NULL);
    VkPipelineExecutableStatisticKHR *sv = NULL;
    if (r == VK_SUCCESS && nst) {
        sv = xcalloc(nst, sizeof *sv);
        for (uint32_t i = 0; i < nst; i++)
            sv[i].sType = VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR;
        r = get_stats(c->device, &ei, &nst, sv);
    }
    if (r == VK_SUCCESS || r == VK_INCOMPLETE) {
        out->available = 1;
        for (uint32_t i = 0; i < nst; i++) {
            double v = stat_value(&sv[i]);
            if (out->nstats < sizeof out->stats / sizeof out->stats[0]) {
                vk_pipeline_stat *o = &out->stats[out->nstats++];
                snprintf(o->name, sizeof o->name, "%.63s", sv[i].name);
                o->value = v;
            }
            if (!out->registers && is_register_stat(sv[i].name) && v > 0)
                out->registers = (uint32_t)v;
        }
    } else {
        snprintf(out->reason, sizeof out->reason,
                 "reading the pipeline statistics failed (%s)",
                 vkx_result_name(r));
    }
    free(sv);
    free(ep);
    vkx_pipeline_destroy(c, &p);
    return 0;
}
