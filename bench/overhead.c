/* overhead.c - host time per sample: a bare submit + wait loop vs the
 * runner's sample (timestamps, pipeline statistics, libpfm4 counters, the
 * stop rule), for an empty dispatch and a SAXPY of 2^20 floats.
 * Prints a table; medians over many iterations. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shader.h"
#include "stats.h"
#include "verifier.h"
#include "vk_internal.h"

#define ITERS 200

static const char empty_glsl[] =
    "#version 450\nlayout(local_size_x = 64) in;\n"
    "layout(set = 0, binding = 0) buffer B { float b[]; };\n"
    "void main() {}\n";

static const char saxpy_glsl[] =
    "#version 450\nlayout(local_size_x = 256) in;\n"
    "layout(set = 0, binding = 0) buffer B { float y[]; };\n"
    "layout(push_constant) uniform P { uint n; float alpha; };\n"
    "void main() { uint i = gl_GlobalInvocationID.x;\n"
    "  if (i < n) y[i] = alpha * y[i] + 1.0; }\n";

typedef struct sample_clock {
    double last;
    double gaps[4096];
    size_t n;
} sample_clock;

static void on_sample(void *user, double us)
{
    (void)us;
    sample_clock *sc = user;
    double now = vkx_now_s();
    if (sc->last > 0 && sc->n < 4096)
        sc->gaps[sc->n++] = (now - sc->last) * 1e6;
    sc->last = now;
}

static double median(double *v, size_t n)
{
    stats_summary s;
    stats_compute(v, n, &s);
    return s.median;
}

static int bench(vk_ctx *c, const char *label, const char *glsl,
                 uint32_t groups, uint32_t elements)
{
    cw_error err;
    shader_module m;
    if (shader_compile_glsl(label, glsl, strlen(glsl), &m, &err)) {
        fprintf(stderr, "%s\n", err.text);
        return 1;
    }
    /* bare loop: one dispatch, no queries, submit + wait */
    vkx_buffer buf;
    if (vkx_buffer_create(c, (VkDeviceSize)elements * 4, 0, "bench buffer",
                          &buf, &err))
        return 1;
    vkx_binding b = {0, 0, 0, &buf};
    vkx_pipeline p;
    if (vkx_pipeline_create(c, m.words, m.nwords, "main", &b, 1, 8, NULL,
                            label, &p, &err)) {
        fprintf(stderr, "%s\n", err.text);
        return 1;
    }
    struct { uint32_t n; float a; } push = {elements, 1.0001f};
    VkCommandBufferAllocateInfo ai = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
        .commandPool = c->pool, .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
        .commandBufferCount = 1};
    VkCommandBuffer cmd;
    vkAllocateCommandBuffers(c->device, &ai, &cmd);
    VkCommandBufferBeginInfo bi = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    vkBeginCommandBuffer(cmd, &bi);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p.pipeline);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p.layout, 0,
                            1, p.sets, 0, NULL);
    vkCmdPushConstants(cmd, p.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 8,
                       &push);
    vkCmdDispatch(cmd, groups, 1, 1);
    vkEndCommandBuffer(cmd);
    VkFenceCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkFence fence;
    vkCreateFence(c->device, &fci, NULL, &fence);
    static double bare[ITERS], timed[ITERS], gpu[ITERS];
    for (int i = -5; i < ITERS; i++) {
        VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
                           .commandBufferCount = 1, .pCommandBuffers = &cmd};
        double t0 = vkx_now_s();
        vkResetFences(c->device, 1, &fence);
        vkQueueSubmit(c->queue, 1, &si, fence);
        vkWaitForFences(c->device, 1, &fence, VK_TRUE, UINT64_MAX);
        if (i >= 0)
            bare[i] = (vkx_now_s() - t0) * 1e6;
    }
    /* the runner's sample: the timestamped dispatch */
    vkx_timer t;
    uint32_t g[3] = {groups, 1, 1};
    if (vkx_timer_record(c, &p, &push, g, 1, &t, &err))
        return 1;
    for (int i = -5; i < ITERS; i++) {
        double us;
        int host;
        double t0 = vkx_now_s();
        if (vkx_timer_run(c, &t, 10, label, 0, &us, &host, &err))
            return 1;
        if (i >= 0) {
            timed[i] = (vkx_now_s() - t0) * 1e6;
            gpu[i] = us;
        }
    }
    /* the whole runner (vk_run_kernel): gap between sample callbacks */
    plan_buffer pb = {.binding = 0, .has_elements = 1, .elements = elements,
                      .init = PLAN_INIT_RANDOM};
    plan_value pv[2] = {{.key = "n", .value = elements, .is_integer = 1,
                         .ivalue = elements},
                        {.key = "alpha", .value = 1.0001}};
    plan_kernel k = {.name = (char *)label, .entry = "main",
                     .workgroups = {groups, 1, 1}, .buffers = &pb,
                     .nbuffers = 1, .push = pv, .npush = 2};
    refl_binding rb = {.binding = 0, .name = "B", .reads = 1, .writes = 1,
                       .array_stride = 4, .elem = SCALAR_F32,
                       .elem_components = 1};
    refl_push_member pm[2] = {{.name = "n", .offset = 0, .size = 4,
                               .type = SCALAR_U32, .components = 1},
                              {.name = "alpha", .offset = 4, .size = 4,
                               .type = SCALAR_F32, .components = 1}};
    reflection refl = {.entry = "main", .local_size = {64, 1, 1},
                       .bindings = &rb, .nbindings = 1, .push = pm,
                       .npush = 2, .push_bytes = 8};
    static sample_clock sc;
    memset(&sc, 0, sizeof sc);
    run_options o;
    run_options_default(&o);
    o.samples = ITERS;
    o.budget_s = 0;
    o.on_sample = on_sample;
    o.user = &sc;
    measurement me;
    memset(&me, 0, sizeof me);
    if (vk_run_kernel(c, &k, &m, &refl, &o, &me, &err)) {
        fprintf(stderr, "%s\n", err.text);
        return 1;
    }
    double mb = median(bare, ITERS), mt = median(timed, ITERS);
    double mr = median(sc.gaps, sc.n), mg = median(gpu, ITERS);
    printf("%-14s %9.1f %9.1f %9.1f %9.1f %+9.1f %+8.1f%%\n", label, mg,
           mb, mt, mr, mr - mb, 100.0 * (mr - mb) / mb);
    free(me.sample_us);
    free(me.counters_scope);
    for (size_t i = 0; i < me.ncounters; i++) {
        free(me.counters[i].name);
        free(me.counters[i].reason);
    }
    free(me.counters);
    vkx_timer_destroy(c, &t);
    vkDestroyFence(c->device, fence, NULL);
    vkFreeCommandBuffers(c->device, c->pool, 1, &cmd);
    vkx_pipeline_destroy(c, &p);
    vkx_buffer_destroy(c, &buf);
    shader_free(&m);
    return 0;
}

int main(void)
{
    vk_ctx *c;
    cw_error err;
    if (vk_open(NULL, &c, &err)) {
        fprintf(stderr, "overhead: %s\n", err.text);
        return 4;
    }
    printf("device: %s; medians of %d iterations, host microseconds\n",
           c->info.name, ITERS);
    printf("%-14s %9s %9s %9s %9s %9s %9s\n", "kernel", "gpu_us",
           "bare_us", "timed_us", "runner_us", "over_us", "over_%");
    int rc = bench(c, "empty 1x64", empty_glsl, 1, 64);
    if (!rc)
        rc = bench(c, "saxpy 2^20", saxpy_glsl, 4096, 1u << 20);
    /* the one-time cost of bracketing the loop with the counters */
    static double pc[ITERS];
    for (int i = 0; i < ITERS && c->counters.available; i++) {
        double t0 = vkx_now_s();
        backend_counters_start(&c->counters);
        backend_counters_stop(&c->counters);
        pc[i] = (vkx_now_s() - t0) * 1e6;
    }
    printf("gpu: timestamp difference; bare: submit + wait, no queries;\n"
           "timed: + timestamps and pipeline statistics; runner: interval\n"
           "between samples inside vk_run_kernel (counters on across the\n"
           "loop); over: runner - bare.  Counter start + stop (once per\n"
           "kernel): %.1f us\n", c->counters.available ? median(pc, ITERS) : 0.0);
    vk_close(c);
    return rc;
}
