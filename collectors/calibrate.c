/* calibrate.c - measure a Vulkan device's ceilings (see calibrate.h).
 *
 * Every micro-kernel is GLSL compiled in-process.  A measurement records
 * R back-to-back dispatches (compute barriers between them) in one command
 * buffer bracketed by timestamps, grows R until the bracket lasts the
 * target time (20 ms at the default budget), then keeps the best of five
 * runs: a ceiling is the fastest the device was seen to go.
 *   bandwidth: vec4 loads/stores, neighbouring invocations on neighbouring
 *     addresses; buffers filled with pseudo-random data; bytes read +
 *     written are counted; DRAM buffers are several times the last-level
 *     cache (64 MiB on a CPU device, up to 512 MiB on a GPU).
 *   compute: 8 independent vec4 FMA chains per invocation (32 scalar
 *     chains) from distinct starting values; FMA = 2 FLOPs; the sums are
 *     written so nothing can be folded away.  INT32 counts a multiply and
 *     an add per step.
 *   sfu: 1/sqrt chains (one op per step); atomics: atomicAdd on distinct
 *     words of a 4 MiB table.
 *   launch: the timestamped time of one empty dispatch (what the runner
 *     reports for a kernel that does nothing); the batched per-dispatch
 *     cost is logged too.
 *   loads whose result is only needed for a never-true comparison keep the
 *     compiler from deleting them without adding write traffic.
 * Loops stay below 65535 iterations: lavapipe (gallivm) silently caps
 * every loop there.
 */
#include "calibrate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "shader.h"
#include "vk_internal.h"

#define MAX_REPEAT 4096u

typedef struct cal {
    vk_ctx *c;
    double target_s;
    FILE *log;
    int is_cpu;
} cal;

static const char copy_glsl[] =
    "#version 450\n"
    "layout(local_size_x = 256) in;\n"
    "layout(set = 0, binding = 0) readonly buffer S { vec4 s[]; };\n"
    "layout(set = 0, binding = 1) writeonly buffer D { vec4 d[]; };\n"
    "layout(push_constant) uniform P { uint n; uint per; uint stride; };\n"
    "void main() {\n"
    "    uint i = gl_GlobalInvocationID.x;\n"
    "    for (uint k = 0u; k < per; k++) {\n"
    "        uint j = i + k * stride;\n"
    "        if (j < n) d[j] = s[j];\n"
    "    }\n"
    "}\n";

static const char read_glsl[] =
    "#version 450\n"
    "layout(local_size_x = 256) in;\n"
    "layout(set = 0, binding = 0) readonly buffer S { vec4 s[]; };\n"
    "layout(set = 0, binding = 1) writeonly buffer D { vec4 d[]; };\n"
    "layout(push_constant) uniform P { uint n; uint per; uint stride; };\n"
    "void main() {\n"
    "    uint i = gl_GlobalInvocationID.x;\n"
    "    vec4 acc = vec4(0.0);\n"
    "    for (uint k = 0u; k < per; k++) {\n"
    "        uint j = i + k * stride;\n"
    "        if (j < n) acc += s[j];\n"
    "    }\n"
    "    if (acc.x == -1234.5678) d[i & 1023u] = acc;\n"
    "}\n";

static const char write_glsl[] =
    "#version 450\n"
    "layout(local_size_x = 256) in;\n"
    "layout(set = 0, binding = 0) writeonly buffer D { vec4 d[]; };\n"
    "layout(push_constant) uniform P { uint n; uint per; uint stride; };\n"
    "void main() {\n"
    "    uint i = gl_GlobalInvocationID.x;\n"
    "    for (uint k = 0u; k < per; k++) {\n"
    "        uint j = i + k * stride;\n"
    "        if (j < n) d[j] = vec4(float(j), 1.0, 2.0, 3.0);\n"
    "    }\n"
    "}\n";

/* working set = mask + 1 vec4s, small enough to stay in L2 */
static const char l2_glsl[] =
    "#version 450\n"
    "layout(local_size_x = 256) in;\n"
    "layout(set = 0, binding = 0) readonly buffer S { vec4 s[]; };\n"
    "layout(set = 0, binding = 1) writeonly buffer D { vec4 d[]; };\n"
    "layout(push_constant) uniform P { uint mask; uint iters; };\n"
    "void main() {\n"
    "    uint i = gl_GlobalInvocationID.x;\n"
    "    vec4 a = vec4(0.0), b = vec4(0.0);\n"
    "    for (uint k = 0u; k < iters; k += 2u) {\n"
    "        a += s[(i + k * 4099u) & mask];\n"
    "        b += s[(i + (k + 1u) * 4099u) & mask];\n"
    "    }\n"
    "    vec4 acc = a + b;\n"
    "    if (acc.x == -1234.5678) d[i & 1023u] = acc;\n"
    "}\n";

static const char shared_glsl[] =
    "#version 450\n"
    "layout(local_size_x = 256) in;\n"
    "layout(set = 0, binding = 0) writeonly buffer D { vec4 d[]; };\n"
    "layout(push_constant) uniform P { uint iters; };\n"
    "shared vec4 tile[1024];\n"
    "void main() {\n"
    "    uint l = gl_LocalInvocationID.x;\n"
    "    for (uint k = 0u; k < 4u; k++)\n"
    "        tile[l + k * 256u] = vec4(float(l + k), 1.0, 2.0, 3.0);\n"
    "    barrier();\n"
    "    vec4 a = vec4(0.0), b = vec4(0.0);\n"
    "    for (uint k = 0u; k < iters; k += 2u) {\n"
    "        a += tile[(l + k * 64u) & 1023u];\n"
    "        b += tile[(l + k * 64u + 32u) & 1023u];\n"
    "    }\n"
    "    vec4 acc = a + b;\n"
    "    if (acc.x == -1234.5678) d[gl_GlobalInvocationID.x & 1023u] = acc;\n"
    "}\n";

/* FMA chains; TYPE/VEC/EXT are substituted per precision */
static const char fma_template[] =
    "#version 450\n"
    "%s\n"
    "layout(local_size_x = 256) in;\n"
    "layout(set = 0, binding = 0) writeonly buffer D { vec4 d[]; };\n"
    "layout(push_constant) uniform P { uint iters; float m; float c; };\n"
    "void main() {\n"
    "    uint i = gl_GlobalInvocationID.x;\n"
    "    %s f = %s(float(i & 255u) * 0.001);\n"
    "    %s mm = %s(m), cc = %s(c);\n"
    "    %s a0 = f + %s(0.0, 0.01, 0.02, 0.03);\n"
    "    %s a1 = a0 + %s(0.1), a2 = a0 + %s(0.2), a3 = a0 + %s(0.3);\n"
    "    %s a4 = a0 + %s(0.4), a5 = a0 + %s(0.5), a6 = a0 + %s(0.6);\n"
    "    %s a7 = a0 + %s(0.7);\n"
    "    for (uint k = 0u; k < iters; k++) {\n"
    "        a0 = fma(a0, mm, cc); a1 = fma(a1, mm, cc);\n"
    "        a2 = fma(a2, mm, cc); a3 = fma(a3, mm, cc);\n"
    "        a4 = fma(a4, mm, cc); a5 = fma(a5, mm, cc);\n"
    "        a6 = fma(a6, mm, cc); a7 = fma(a7, mm, cc);\n"
    "    }\n"
    "    d[i] = vec4(a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7);\n"
    "}\n";

static const char int_glsl[] =
    "#version 450\n"
    "layout(local_size_x = 256) in;\n"
    "layout(set = 0, binding = 0) writeonly buffer D { vec4 d[]; };\n"
    "layout(push_constant) uniform P { uint iters; uint m; uint c; };\n"
    "void main() {\n"
    "    uint i = gl_GlobalInvocationID.x;\n"
    "    uvec4 a0 = uvec4(i, i + 1u, i + 2u, i + 3u);\n"
    "    uvec4 a1 = a0 + 11u, a2 = a0 + 23u, a3 = a0 + 37u;\n"
    "    uvec4 a4 = a0 + 41u, a5 = a0 + 53u, a6 = a0 + 67u, a7 = a0 + 79u;\n"
    "    for (uint k = 0u; k < iters; k++) {\n"
    "        a0 = a0 * m + c; a1 = a1 * m + c; a2 = a2 * m + c;\n"
    "        a3 = a3 * m + c; a4 = a4 * m + c; a5 = a5 * m + c;\n"
    "        a6 = a6 * m + c; a7 = a7 * m + c;\n"
    "    }\n"
    "    d[i] = vec4(a0 ^ a1 ^ a2 ^ a3 ^ a4 ^ a5 ^ a6 ^ a7);\n"
    "}\n";

/* transcendental unit: 8 vec4 chains of 1/sqrt(a + c), a bounded
 * fixed-point iteration; one SFU op per component per step */
static const char sfu_glsl[] =
    "#version 450\n"
    "layout(local_size_x = 256) in;\n"
    "layout(set = 0, binding = 0) writeonly buffer D { vec4 d[]; };\n"
    "layout(push_constant) uniform P { uint iters; float m; float c; };\n"
    "void main() {\n"
    "    uint i = gl_GlobalInvocationID.x;\n"
    "    vec4 a0 = vec4(float(i & 255u) * 0.001 + 1.0) + vec4(0.0, 0.1, 0.2, 0.3);\n"
    "    vec4 a1 = a0 + 0.4, a2 = a0 + 0.8, a3 = a0 + 1.2;\n"
    "    vec4 a4 = a0 + 1.6, a5 = a0 + 2.0, a6 = a0 + 2.4, a7 = a0 + 2.8;\n"
    "    for (uint k = 0u; k < iters; k++) {\n"
    "        a0 = inversesqrt(a0 + c); a1 = inversesqrt(a1 + c);\n"
    "        a2 = inversesqrt(a2 + c); a3 = inversesqrt(a3 + c);\n"
    "        a4 = inversesqrt(a4 + c); a5 = inversesqrt(a5 + c);\n"
    "        a6 = inversesqrt(a6 + c); a7 = inversesqrt(a7 + c);\n"
    "    }\n"
    "    d[i] = a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7;\n"
    "}\n";

/* distinct-address atomics: neighbouring invocations on neighbouring
 * words, every step on another word of a 4 MiB table */
static const char atomic_glsl[] =
    "#version 450\n"
    "layout(local_size_x = 256) in;\n"
    "layout(set = 0, binding = 0) buffer A { uint a[]; };\n"
    "layout(push_constant) uniform P { uint iters; uint mask; };\n"
    "void main() {\n"
    "    uint i = gl_GlobalInvocationID.x;\n"
    "    for (uint k = 0u; k < iters; k++)\n"
    "        atomicAdd(a[(i + k * 65537u) & mask], 1u);\n"
    "}\n";

static const char empty_glsl[] =
    "#version 450\n"
    "layout(local_size_x = 64) in;\n"
    "void main() {}\n";

static void logf_(cal *cl, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void logf_(cal *cl, const char *fmt, ...)
{
    if (!cl->log)
        return;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(cl->log, fmt, ap);
    va_end(ap);
    fflush(cl->log);
}

static char *fma_source(const char *vec, const char *ext)
{
    const char *v = vec;
    char *s = NULL;
    if (asprintf(&s, fma_template, ext, v, v, v, v, v, v, v, v, v, v, v, v,
                 v, v, v, v, v) < 0)
        abort();
    return s;
}

/* Build a pipeline from GLSL. */
static int build(cal *cl, const char *name, const char *glsl,
                 vkx_buffer **bufs, uint32_t nbufs, uint32_t push_bytes,
                 vkx_pipeline *p, cw_error *err)
{
    shader_module m;
    memset(&m, 0, sizeof m);
    char path[64];
    snprintf(path, sizeof path, "<calibrate:%s>", name);
    if (shader_compile_glsl(path, glsl, strlen(glsl), &m, err))
        return CW_EXIT_ENV;
    vkx_binding b[4];
    for (uint32_t i = 0; i < nbufs; i++)
        b[i] = (vkx_binding){0, i, 0, bufs[i]};
    int rc = vkx_pipeline_create(cl->c, m.words, m.nwords, "main", b, nbufs,
                                 push_bytes, NULL, name, p, err);
    shader_free(&m);
    return rc;
}

/* Seconds per dispatch, grown until R dispatches last target_s; best of
 * three runs at the final R. */
static int timer_best(cal *cl, const char *name, vkx_timer *t, int runs,
                      double *best_s, cw_error *err)
{
    double best = INFINITY;
    for (int run = 0; run < runs; run++) {
        double us;
        int host;
        int rc = vkx_timer_run(cl->c, t, 10.0, name, 0, &us, &host, err);
        if (rc)
            return rc;
        if (us < best)
            best = us;
    }
    *best_s = best * 1e-6;
    return 0;
}

/* Seconds per dispatch: R grows (one warm-up and one run per size) until
 * R dispatches last target_s; then the best of five runs at that R.  On a
 * shared machine interference only ever slows a run down, so the fastest
 * run is the device's. */
static int measure(cal *cl, const char *name, const vkx_pipeline *p,
                   const void *push, uint32_t groups, double *sec,
                   uint32_t *reps, cw_error *err)
{
    uint32_t R = 1;
    uint32_t g[3] = {groups, 1, 1};
    for (;;) {
        vkx_timer t;
        int rc = vkx_timer_record(cl->c, p, push, g, R, &t, err);
        if (rc)
            return rc;
        double s;
        rc = timer_best(cl, name, &t, 1, &s, err); /* warm-up */
        if (!rc)
            rc = timer_best(cl, name, &t, 1, &s, err);
        if (!rc && (s >= cl->target_s || R >= MAX_REPEAT)) {
            double more;
            rc = timer_best(cl, name, &t, 4, &more, err);
            if (!rc) {
                *sec = (more < s ? more : s) / R;
                *reps = R;
            }
            vkx_timer_destroy(cl->c, &t);
            return rc;
        }
        vkx_timer_destroy(cl->c, &t);
        if (rc)
            return rc;
        double want = s > 0 ? (double)R * cl->target_s * 1.25 / s : 1e9;
        uint32_t next = R * 2;
        if (want > next)
            next = want > MAX_REPEAT ? MAX_REPEAT : (uint32_t)want;
        R = next > MAX_REPEAT ? MAX_REPEAT : next;
    }
}

static void fill_random(float *v, size_t n)
{
    uint64_t s = 0x9e3779b97f4a7c15ull;
    for (size_t i = 0; i < n; i++) {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        v[i] = (float)(s >> 40) / (float)(1 << 23) - 1.0f;
    }
}

typedef struct stream_push {
    uint32_t n, per, stride;
} stream_push;

/* per: vec4s per invocation; more on a CPU device, where the cost of an
 * invocation would otherwise hide the memory's */
static void stream_shape(uint64_t nvec, uint32_t min_per, stream_push *sp,
                         uint32_t *groups)
{
    uint64_t max_inv = 65535ull * 256;
    uint64_t per = (nvec + max_inv - 1) / max_inv;
    if (per < min_per)
        per = min_per;
    uint64_t inv = (nvec + per - 1) / per;
    inv = (inv + 255) / 256 * 256;
    sp->n = (uint32_t)nvec;
    sp->per = (uint32_t)per;
    sp->stride = (uint32_t)inv;
    *groups = (uint32_t)(inv / 256);
}

static const char *gbs_text(double bytes, double s, char *buf, size_t n)
{
    snprintf(buf, n, "%.2f GB/s", bytes / s * 1e-9);
    return buf;
}

/* ---- the individual measurements ---- */

static int cal_bandwidth(cal *cl, device_profile *out, double budget_s,
                         cw_error *err)
{
    const vk_device_info *d = &cl->c->info;
    uint64_t bytes;
    if (cl->is_cpu)
        bytes = budget_s < 1 ? (16ull << 20) : (64ull << 20);
    else {
        bytes = 512ull << 20;
        if (d->device_local_bytes && bytes > d->device_local_bytes / 8)
            bytes = d->device_local_bytes / 8;
    }
    if (bytes > d->limits.max_storage_range)
        bytes = d->limits.max_storage_range;
    bytes &= ~(uint64_t)0xffff;
    uint64_t nvec = bytes / 16;
    vkx_buffer src, dst, small;
    int rc = vkx_buffer_create(cl->c, bytes, 0, "calibration source buffer",
                               &src, err);
    if (rc)
        return rc;
    rc = vkx_buffer_create(cl->c, bytes, 0, "calibration destination buffer",
                           &dst, err);
    if (rc) {
        vkx_buffer_destroy(cl->c, &src);
        return rc;
    }
    rc = vkx_buffer_create(cl->c, 1024 * 16, 0, "calibration result buffer",
                           &small, err);
    if (rc) {
        vkx_buffer_destroy(cl->c, &src);
        vkx_buffer_destroy(cl->c, &dst);
        return rc;
    }
    float *host = malloc(bytes);
    if (!host)
        abort();
    fill_random(host, bytes / 4);
    rc = vkx_buffer_upload(cl->c, &src, host, bytes, 10, err);
    if (!rc)
        rc = vkx_buffer_upload(cl->c, &dst, host, bytes, 10, err);
    free(host);
    stream_push sp;
    uint32_t groups, reps;
    stream_shape(nvec, cl->is_cpu ? 16 : 4, &sp, &groups);
    double s;
    char buf[64];
    vkx_pipeline p;
    logf_(cl, "calibrate: DRAM buffers %.0f MiB\n",
          (double)bytes / (1 << 20));

    if (!rc) {
        vkx_buffer *b2[2] = {&src, &dst};
        rc = build(cl, "copy", copy_glsl, b2, 2, sizeof sp, &p, err);
        if (!rc) {
            rc = measure(cl, "copy", &p, &sp, groups, &s, &reps, err);
            vkx_pipeline_destroy(cl->c, &p);
            if (!rc) {
                out->dram_gbs = 2.0 * (double)bytes / s * 1e-9;
                logf_(cl, "  dram copy    %-14s (read + write, %u x %.3f ms)\n",
                      gbs_text(2.0 * (double)bytes, s, buf, sizeof buf), reps,
                      s * 1e3);
            }
        }
    }
    if (!rc) {
        vkx_buffer *b2[2] = {&src, &small};
        rc = build(cl, "read", read_glsl, b2, 2, sizeof sp, &p, err);
        if (!rc) {
            rc = measure(cl, "read", &p, &sp, groups, &s, &reps, err);
            vkx_pipeline_destroy(cl->c, &p);
            if (!rc) {
                out->dram_read_gbs = (double)bytes / s * 1e-9;
                logf_(cl, "  dram read    %-14s (%u x %.3f ms)\n",
                      gbs_text((double)bytes, s, buf, sizeof buf), reps,
                      s * 1e3);
            }
        }
    }
    if (!rc) {
        vkx_buffer *b1[1] = {&dst};
        rc = build(cl, "write", write_glsl, b1, 1, sizeof sp, &p, err);
        if (!rc) {
            rc = measure(cl, "write", &p, &sp, groups, &s, &reps, err);
            vkx_pipeline_destroy(cl->c, &p);
            if (!rc) {
                out->dram_write_gbs = (double)bytes / s * 1e-9;
                logf_(cl, "  dram write   %-14s (%u x %.3f ms)\n",
                      gbs_text((double)bytes, s, buf, sizeof buf), reps,
                      s * 1e3);
            }
        }
    }
    if (!rc) {
        /* L2: a working set well inside the cache, read over and over */
        uint64_t ws = cl->is_cpu ? (512u << 10) : (4u << 20);
        uint32_t push[2] = {(uint32_t)(ws / 16 - 1), cl->is_cpu ? 64u : 256u};
        uint32_t g = cl->is_cpu ? 64 : 2048;
        vkx_buffer *b2[2] = {&src, &small};
        rc = build(cl, "l2", l2_glsl, b2, 2, sizeof push, &p, err);
        if (!rc) {
            rc = measure(cl, "l2", &p, push, g, &s, &reps, err);
            vkx_pipeline_destroy(cl->c, &p);
            if (!rc) {
                double b = (double)g * 256 * push[1] * 16;
                out->l2_gbs = b / s * 1e-9;
                logf_(cl, "  l2 read      %-14s (%llu KiB working set, "
                      "%u x %.3f ms)\n", gbs_text(b, s, buf, sizeof buf),
                      (unsigned long long)(ws >> 10), reps, s * 1e3);
            }
        }
    }
    if (!rc) {
        uint32_t iters = cl->is_cpu ? 64u : 1024u;
        uint32_t g = cl->is_cpu ? 64 : 2048;
        vkx_buffer *b1[1] = {&small};
        rc = build(cl, "shared", shared_glsl, b1, 1, sizeof iters, &p, err);
        if (!rc) {
            rc = measure(cl, "shared", &p, &iters, g, &s, &reps, err);
            vkx_pipeline_destroy(cl->c, &p);
            if (!rc) {
                double b = (double)g * 256 * iters * 16;
                out->shared_gbs = b / s * 1e-9;
                logf_(cl, "  shared read  %-14s (%u x %.3f ms)\n",
                      gbs_text(b, s, buf, sizeof buf), reps, s * 1e3);
            }
        }
    }
    vkx_buffer_destroy(cl->c, &small);
    vkx_buffer_destroy(cl->c, &src);
    vkx_buffer_destroy(cl->c, &dst);
    return rc;
}

/* One arithmetic ceiling: ops per dispatch / time, in G per second. */
static int cal_arith(cal *cl, const char *name, const char *glsl,
                     const void *push, double ops_per_step, double *out_g,
                     const char *unit, cw_error *err)
{
    uint32_t groups = cl->is_cpu ? 16 : 1024;
    uint32_t iters = *(const uint32_t *)push;
    vkx_buffer d;
    int rc = vkx_buffer_create(cl->c, (VkDeviceSize)groups * 256 * 16, 0,
                               "calibration result buffer", &d, err);
    if (rc)
        return rc;
    vkx_buffer *b1[1] = {&d};
    vkx_pipeline p;
    rc = build(cl, name, glsl, b1, 1, 12, &p, err);
    if (!rc) {
        double s;
        uint32_t reps;
        rc = measure(cl, name, &p, push, groups, &s, &reps, err);
        vkx_pipeline_destroy(cl->c, &p);
        if (!rc) {
            /* 8 chains x 4 components x ops per step (2 for an FMA or a
             * multiply + add, 1 for an SFU op) */
            double ops = (double)groups * 256 * iters * 8 * 4 * ops_per_step;
            *out_g = ops / s * 1e-9;
            logf_(cl, "  %-12s %.2f %s (%u x %.3f ms)\n", name, *out_g, unit,
                  reps, s * 1e3);
        }
    }
    vkx_buffer_destroy(cl->c, &d);
    return rc;
}

static int cal_atomics(cal *cl, device_profile *out, cw_error *err)
{
    const uint64_t words = 1u << 20; /* 4 MiB table */
    uint32_t groups = cl->is_cpu ? 16 : 1024;
    uint32_t push[2] = {cl->is_cpu ? 16u : 64u, (uint32_t)(words - 1)};
    vkx_buffer a;
    int rc = vkx_buffer_create(cl->c, words * 4, 0, "calibration atomic table",
                               &a, err);
    if (rc)
        return rc;
    vkx_buffer *b1[1] = {&a};
    vkx_pipeline p;
    rc = build(cl, "atomics", atomic_glsl, b1, 1, sizeof push, &p, err);
    if (!rc) {
        double s;
        uint32_t reps;
        rc = measure(cl, "atomics", &p, push, groups, &s, &reps, err);
        vkx_pipeline_destroy(cl->c, &p);
        if (!rc) {
            out->atomic_gops = (double)groups * 256 * push[0] / s * 1e-9;
            logf_(cl, "  atomics      %.3f GOP/s distinct addresses "
                  "(%u x %.3f ms)\n", out->atomic_gops, reps, s * 1e3);
        }
    }
    vkx_buffer_destroy(cl->c, &a);
    return rc;
}

static int cal_compute(cal *cl, device_profile *out, cw_error *err)
{
    struct {
        uint32_t iters;
        float m, c;
    } fp = {cl->is_cpu ? 256u : 1024u, 0.9999f, 0.0001f};
    struct {
        uint32_t iters, m, c;
    } ip = {fp.iters, 1664525u, 1013904223u};
    char *src = fma_source("vec4", "");
    int rc = cal_arith(cl, "fp32", src, &fp, 2, &out->fp32_gflops,
                       "GFLOP/s", err);
    free(src);
    if (rc)
        return rc;
    if (cl->c->has_float16) {
        src = fma_source("f16vec4", "#extension "
                         "GL_EXT_shader_explicit_arithmetic_types_float16 : "
                         "require");
        rc = cal_arith(cl, "fp16", src, &fp, 2, &out->fp16_gflops,
                       "GFLOP/s", err);
        free(src);
        if (rc)
            return rc;
    } else {
        logf_(cl, "  fp16         not supported by the device\n");
    }
    if (cl->c->has_float64) {
        src = fma_source("dvec4", "");
        rc = cal_arith(cl, "fp64", src, &fp, 2, &out->fp64_gflops,
                       "GFLOP/s", err);
        free(src);
        if (rc)
            return rc;
    } else {
        logf_(cl, "  fp64         not supported by the device\n");
    }
    rc = cal_arith(cl, "int32", int_glsl, &ip, 2, &out->int32_gops, "GOP/s",
                   err);
    if (rc)
        return rc;
    struct {
        uint32_t iters;
        float m, c;
    } sp = {cl->is_cpu ? 64u : 256u, 1.0f, 0.25f};
    rc = cal_arith(cl, "sfu", sfu_glsl, &sp, 1, &out->sfu_gops, "GOP/s",
                   err);
    if (rc)
        return rc;
    return cal_atomics(cl, out, err);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int cal_overheads(cal *cl, device_profile *out, cw_error *err)
{
    vkx_pipeline p;
    int rc = build(cl, "empty", empty_glsl, NULL, 0, 0, &p, err);
    if (rc)
        return rc;
    /* launch: what the runner measures for a dispatch that does nothing,
     * one dispatch between two timestamps (median of 41) */
    vkx_timer t;
    uint32_t one[3] = {1, 1, 1};
    rc = vkx_timer_record(cl->c, &p, NULL, one, 1, &t, err);
    double single[41];
    for (int i = 0; i < 41 && !rc; i++) {
        int host;
        rc = vkx_timer_run(cl->c, &t, 10.0, "empty", 0, &single[i], &host,
                           err);
    }
    vkx_timer_destroy(cl->c, &t);
    double s = 0;
    uint32_t reps = 0;
    /* and the cost of one more dispatch in a long batch */
    if (!rc)
        rc = measure(cl, "empty", &p, NULL, 1, &s, &reps, err);
    vkx_pipeline_destroy(cl->c, &p);
    if (rc)
        return rc;
    qsort(single, 41, sizeof single[0], cmp_double);
    out->launch_us = single[20];
    logf_(cl, "  dispatch     %.3f us for one empty dispatch; %.3f us each in "
          "a batch of %u\n", out->launch_us, s * 1e6, reps);

    if (!cl->c->ts_valid_bits) {
        logf_(cl, "  timestamps   not supported on the compute queue\n");
        return 0;
    }
    /* resolution: the smallest non-zero step seen between two
     * back-to-back timestamps */
    rc = vkx_timer_record(cl->c, NULL, NULL, one, 0, &t, err);
    if (rc)
        return rc;
    double minpos = INFINITY, sum = 0;
    int n = 0;
    for (int i = 0; i < 64 && !rc; i++) {
        double us;
        int host;
        rc = vkx_timer_run(cl->c, &t, 10.0, "timestamps", 0, &us, &host, err);
        if (!rc && !host) {
            if (us > 0 && us < minpos)
                minpos = us;
            sum += us;
            n++;
        }
    }
    vkx_timer_destroy(cl->c, &t);
    if (rc)
        return rc;
    double period = cl->c->ts_period_ns;
    out->timestamp_res_ns = isfinite(minpos) ? minpos * 1e3 : period;
    if (out->timestamp_res_ns < period)
        out->timestamp_res_ns = period;
    logf_(cl, "  timestamps   resolution %.1f ns, back-to-back %.3f us "
          "(period %g ns)\n", out->timestamp_res_ns, n ? sum / n : 0.0,
          period);
    return 0;
}

static void profile_key(const char *name, char *key, size_t n)
{
    if (strcasestr(name, "llvmpipe")) {
        snprintf(key, n, "lavapipe");
        return;
    }
    if (strcasestr(name, "H200")) {
        snprintf(key, n, "h200");
        return;
    }
    size_t j = 0;
    int dash = 0;
    for (const char *p = name; *p && j + 1 < n; p++) {
        char ch = *p;
        if ((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9')) {
            key[j++] = ch;
            dash = 0;
        } else if (ch >= 'A' && ch <= 'Z') {
            key[j++] = (char)(ch - 'A' + 'a');
            dash = 0;
        } else if (!dash && j) {
            key[j++] = '-';
            dash = 1;
        }
    }
    while (j && key[j - 1] == '-')
        j--;
    key[j] = 0;
}

int calibrate_device(const char *selector, double budget_s,
                     device_profile *out, FILE *log, cw_error *err)
{
    vk_ctx *c = NULL;
    /* no counters: calibration measures the device, not the host */
    int rc = vk_open_events(selector, "", &c, err);
    if (rc)
        return rc;
    cal cl = {.c = c, .log = log};
    if (budget_s <= 0)
        budget_s = 2;
    /* 20 ms per measurement at the default budget (2 s), shorter below */
    cl.target_s = budget_s / 100.0;
    if (cl.target_s > 0.020)
        cl.target_s = 0.020;
    if (cl.target_s < 0.001)
        cl.target_s = 0.001;
    cl.is_cpu = strcmp(c->info.type, "cpu") == 0;

    profile_init(out);
    char key[64];
    profile_key(c->info.name, key, sizeof key);
    device_profile base;
    /* machine shape (units, cache sizes, ...) that cannot be measured here
     * comes from the built-in entry when there is one */
    if (profile_builtin(key, &base) == 0)
        *out = base;
    vk_device_profile(c, out);
    snprintf(out->key, sizeof out->key, "%s", key);
    out->source = PROFILE_CALIBRATED;
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(out->date, sizeof out->date, "%Y-%m-%dT%H:%M:%SZ", &tm);
    char sel[200] = "";
    if (selector && *selector)
        snprintf(sel, sizeof sel, " --device '%.180s'", selector);
    snprintf(out->command, sizeof out->command,
             "clockwork calibrate%s --budget %g", sel, budget_s);
    out->timestamp_res_ns = -1;
    vk_device_profile(c, out);

    logf_(&cl, "calibrate: %s (%s, driver %s), %.0f ms per measurement\n",
          c->info.name, c->info.type, c->info.driver_version,
          cl.target_s * 1e3);
    double t0 = vkx_now_s();
    rc = cal_overheads(&cl, out, err);
    if (!rc)
        rc = cal_bandwidth(&cl, out, budget_s, err);
    if (!rc)
        rc = cal_compute(&cl, out, err);
    logf_(&cl, "calibrate: done in %.1f s\n", vkx_now_s() - t0);
    if (vk_ctx_hung(c))
        return rc; /* left undestroyed on purpose, see vk_run.c */
    vk_close(c);
    return rc;
}
