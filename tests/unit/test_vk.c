/* test_vk.c - the Vulkan collector on the CPU device (lavapipe): device
 * listing and selection, SAXPY's output against a CPU reference, poisoned
 * outputs, seeded random fills, spec constants, timestamps, pipeline
 * statistics, counters, and the hang guard (last: it leaves the device
 * busy and the process exits through the hang exit path). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "unit.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "calibrate.h"
#include "calibrate_table.h"
#include "shader.h"
#include "verifier.h"
#include "vk.h"
#include "vk_internal.h"

static vk_ctx *ctx;
static char tmpdir[] = "/tmp/cw-test-vk-XXXXXX";

/* ---- helpers: hand-built plans and reflections ---- */

typedef struct kernel_fixture {
    plan_kernel k;
    plan_buffer bufs[4];
    plan_value push[4];
    plan_value spec[2];
    reflection refl;
    refl_binding rb[4];
    refl_push_member pm[4];
    refl_spec rs[2];
    shader_module mod;
} kernel_fixture;

static void fixture_init(kernel_fixture *f, const char *name,
                         const char *glsl, uint32_t groups, uint32_t local)
{
    memset(f, 0, sizeof *f);
    f->k.name = (char *)name;
    f->k.entry = (char *)"main";
    f->k.shader_path = (char *)name;
    f->k.workgroups[0] = groups;
    f->k.workgroups[1] = f->k.workgroups[2] = 1;
    f->k.buffers = f->bufs;
    f->k.push = f->push;
    f->k.spec = f->spec;
    f->refl.entry = (char *)"main";
    f->refl.local_size[0] = local;
    f->refl.local_size[1] = f->refl.local_size[2] = 1;
    f->refl.bindings = f->rb;
    f->refl.push = f->pm;
    f->refl.specs = f->rs;
    cw_error err;
    cw_error_clear(&err);
    if (shader_compile_glsl(name, glsl, strlen(glsl), &f->mod, &err))
        fail_msg("compile %s: %s", name, err.text);
}

static void add_buffer(kernel_fixture *f, uint32_t binding, uint64_t elements,
                       plan_init init, double value, scalar_kind elem,
                       int reads, int writes)
{
    size_t i = f->k.nbuffers++;
    f->bufs[i] = (plan_buffer){.binding = binding, .has_elements = 1,
                               .elements = elements, .init = init,
                               .init_value = value};
    f->rb[i] = (refl_binding){.binding = binding, .name = (char *)"buf",
                              .kind = DESC_STORAGE_BUFFER, .reads = reads,
                              .writes = writes,
                              .array_stride = (uint32_t)(elem == SCALAR_F64
                                                             ? 8 : 4),
                              .elem = elem, .elem_components = 1};
    f->refl.nbindings++;
}

static void add_push(kernel_fixture *f, const char *name, scalar_kind t,
                     double v)
{
    size_t i = f->k.npush++;
    f->push[i] = (plan_value){.key = (char *)name, .value = v,
                              .is_integer = t != SCALAR_F32,
                              .ivalue = (int64_t)v};
    f->pm[i] = (refl_push_member){.name = (char *)name,
                                  .offset = (uint32_t)(4 * i), .size = 4,
                                  .type = t, .components = 1};
    f->refl.npush++;
    f->refl.push_bytes = (uint32_t)(4 * f->refl.npush);
}

static void *read_dump(uint32_t set, uint32_t binding, size_t *len)
{
    char path[256];
    snprintf(path, sizeof path, "%s/binding-%u-%u.bin", tmpdir, set, binding);
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("no dump %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    void *d = malloc((size_t)n + 1);
    assert_int_equal(fread(d, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    unlink(path);
    *len = (size_t)n;
    return d;
}

static void small_options(run_options *o)
{
    run_options_default(o);
    o->samples = 3;
    o->warmup = 1;
    o->budget_s = 0.2;
    o->dump_dir = tmpdir;
}

/* run_ok: runs the fixture's kernel under o into m; any error fails the
 * test. */
static void run_ok(kernel_fixture *f, const run_options *o, measurement *m)
{
    memset(m, 0, sizeof *m);
    cw_error err;
    cw_error_clear(&err);
    if (vk_run_kernel(ctx, &f->k, &f->mod, &f->refl, o, m, &err))
        fail_msg("run %s: %s", f->k.name, err.text);
}

/* one_sample: the small options with a single timed sample */
static void one_sample(run_options *o)
{
    small_options(o);
    o->samples = 1;
}

static void fixture_done(kernel_fixture *f, measurement *m)
{
    measurement_free(m);
    shader_free(&f->mod);
}

static int group_setup(void **state)
{
    (void)state;
    if (!mkdtemp(tmpdir))
        return -1;
    cw_error err;
    cw_error_clear(&err);
    if (vk_open("llvmpipe", &ctx, &err)) {
        fprintf(stderr, "vk_open: %s\n", err.text);
        return -1;
    }
    return 0;
}

static int group_teardown(void **state)
{
    (void)state;
    if (ctx && !vk_ctx_hung(ctx))
        vk_close(ctx);
    rmdir(tmpdir);
    return 0;
}

/* ---- devices ---- */

static void test_list_devices(void **state)
{
    (void)state;
    vk_device_info *d;
    size_t n;
    cw_error err;
    assert_int_equal(vk_list_devices(&d, &n, &err), 0);
    assert_true(n >= 1);
    const vk_device_info *lvp = NULL;
    for (size_t i = 0; i < n; i++)
        if (strstr(d[i].name, "llvmpipe"))
            lvp = &d[i];
    assert_non_null(lvp);
    assert_string_equal(lvp->type, "cpu");
    assert_true(lvp->limits.max_wg_invocations >= 128);
    assert_true(lvp->limits.max_shared_bytes >= 16384);
    assert_true(lvp->limits.subgroup_size >= 1);
    assert_true(lvp->pipeline_statistics);
    assert_true(lvp->timestamp_period_ns > 0);
    int ts = 0;
    for (size_t q = 0; q < lvp->nfamilies; q++)
        ts |= lvp->families[q].timestamp_valid_bits != 0;
    assert_true(ts);
    assert_int_equal(strlen(lvp->uuid), 32);

    char *js = vk_devices_json_text(d, n);
    json_error_t je;
    json_t *root = json_loads(js, 0, &je);
    assert_non_null(root);
    json_t *arr = json_object_get(root, "devices");
    assert_int_equal(json_array_size(arr), n);
    json_t *lim = json_object_get(json_array_get(arr, 0), "compute_limits");
    assert_non_null(json_object_get(lim, "max_workgroup_invocations"));
    json_decref(root);
    free(js);

    char *buf = NULL;
    size_t blen = 0;
    FILE *mem = open_memstream(&buf, &blen);
    vk_write_devices_table(d, n, mem);
    fclose(mem);
    assert_non_null(strstr(buf, "llvmpipe"));
    assert_non_null(strstr(buf, "valid bits"));
    free(buf);
    vk_free_devices(d, n);
}

static void test_select_errors(void **state)
{
    (void)state;
    vk_ctx *c = NULL;
    cw_error err;
    cw_error_clear(&err);
    assert_int_equal(vk_open("99", &c, &err), CW_STATUS_INPUT);
    assert_null(c);
    assert_non_null(strstr(err.text, "no such device"));
    assert_int_equal(vk_open("no-such-gpu-name", &c, &err), CW_STATUS_INPUT);
    assert_non_null(strstr(err.text, "llvmpipe")); /* lists what exists */
    assert_int_equal(vk_open_events(NULL, "cycles,,x", &c, &err),
                     CW_STATUS_INPUT);
    assert_null(c);
}

static void test_profile_limits(void **state)
{
    (void)state;
    device_profile p;
    profile_init(&p);
    vk_device_profile(ctx, &p);
    assert_non_null(strstr(p.name, "llvmpipe"));
    assert_int_equal(p.kind, DEVICE_KIND_CPU_VULKAN);
    assert_true(p.limits.max_wg_invocations > 0);
    assert_int_equal(strlen(p.uuid), 32);
}

/* ---- SAXPY against a CPU reference ---- */

static const char saxpy_glsl[] = CW_SAXPY_GLSL;

/* saxpy_fixture: SAXPY over `groups` groups of 256 with x a 1024-element
 * ramp, y (binding 1) y_elements long filled by y_init/y_value, n = 1000 */
static void saxpy_fixture(kernel_fixture *f, uint32_t groups,
                          uint64_t y_elements, plan_init y_init,
                          double y_value)
{
    fixture_init(f, "saxpy", saxpy_glsl, groups, 256);
    add_buffer(f, 0, 1024, PLAN_INIT_RAMP, 0, SCALAR_F32, 1, 0);
    add_buffer(f, 1, y_elements, y_init, y_value, SCALAR_F32, 1, 1);
    add_push(f, "n", SCALAR_U32, 1000);
}

static const counter_value *counter(const measurement *m, const char *name)
{
    for (size_t i = 0; i < m->ncounters; i++)
        if (!strcmp(m->counters[i].name, name))
            return &m->counters[i];
    return NULL;
}

static void run_saxpy_check(void)
{
    kernel_fixture f;
    /* x = 0,1,2,...; y = 0.5 everywhere (also past n: must stay 0.5) */
    saxpy_fixture(&f, 4, 1024, PLAN_INIT_CONST, 0.5);
    add_push(&f, "alpha", SCALAR_F32, 2.0);
    run_options o;
    small_options(&o);
    measurement m;
    run_ok(&f, &o, &m);
    assert_true(m.valid);
    assert_null(m.error);
    assert_true(m.samples >= 3);
    assert_int_equal(m.nsample_us, m.samples);
    assert_true(m.median_us > 0 && m.min_us > 0);
    assert_true(m.min_us <= m.median_us && m.median_us <= m.max_us);
    assert_true(m.p90_us <= m.max_us);
    assert_true(m.has_cold && m.cold_us > 0);
    assert_true(m.has_invocations);
    assert_int_equal(m.invocations, 4 * 256); /* groups x local size */

    /* every run adds alpha*x once: warm-up runs (cold and the untimed
     * statistics dispatch included: at least two) + samples */
    double runs = (double)((o.warmup < 2 ? 2 : o.warmup) + m.samples);
    size_t len;
    float *y = read_dump(0, 1, &len);
    assert_int_equal(len, 1024 * sizeof(float));
    for (int i = 0; i < 1024; i++) {
        float want = i < 1000 ? (float)(0.5 + runs * 2.0 * i) : 0.5f;
        if (y[i] != want)
            fail_msg("y[%d] = %g, want %g", i, y[i], want);
    }
    free(y);
    /* the input is not written: no dump of it */
    assert_int_not_equal(access("binding-0-0.bin", F_OK), 0);

    /* counters: the kernel's own work on the CPU device */
    assert_string_equal(m.counters_scope, "kernel");
    const counter_value *tc = counter(&m, "task-clock");
    assert_non_null(tc);
    assert_true(tc->available);
    assert_true(tc->value > 0);
    const counter_value *cy = counter(&m, "cycles");
    assert_non_null(cy);
    if (!cy->available)
        assert_non_null(cy->reason);
    fixture_done(&f, &m);
}

/* The clock check (collectors/vk_clock.h) through the real runner on the
 * CPU device.  An expected time no device meets (1 ns) reads the clock
 * low at every probe: the runner warms up more with the kernel itself for
 * clock_max_s, probes again, and gives up unsettled (the in-place SAXPY
 * counts the extra runs).  An expected time every probe beats reads
 * settled at once: one probe, no extra run. */
static void test_clock_check(void **state)
{
    (void)state;
    device_profile prof;
    profile_init(&prof);
    prof.clock_ghz = 1.98;
    prof.fp_latency_cycles = 4.5;
    /* calibrate's fp latency row: 8192 trips of 8 FMAs */
    assert_true(fabs(clock_probe_expected_us(&prof, 0) - 65536 * 4.5 / 1980) < 1e-9);
    prof.clock_ghz = -1;
    assert_true(clock_probe_expected_us(&prof, 0) == 0);

    for (int low = 1; low >= 0; low--) {
        kernel_fixture f;
        saxpy_fixture(&f, 4, 1024, PLAN_INIT_CONST, 0.5);
        add_push(&f, "alpha", SCALAR_F32, 2.0);
        run_options o;
        small_options(&o);
        o.clock_expected_us = low ? 1e-3 : 1e9;
        o.clock_max_s = 0.2;
        o.warmup_s = 0.05;
        measurement m;
        run_ok(&f, &o, &m);
        const clock_reading *ck = &m.clock;
        assert_null(ck->unavailable);
        assert_true(ck->ran && ck->probe_us > 0);
        assert_true(fabs(ck->ratio - o.clock_expected_us / ck->probe_us) < 1e-9 * ck->ratio);
        double runs = (double)((o.warmup < 2 ? 2 : o.warmup) + m.samples);
        size_t len;
        float *y = read_dump(0, 1, &len);
        if (low) {
            assert_false(ck->settled);
            assert_true(ck->probes >= 2);
            assert_true(ck->extra_warmup_s >= o.clock_max_s);
            assert_true(y[1] > (float)(0.5 + runs * 2.0)); /* the kernel warmed up more */
        } else {
            assert_true(ck->settled);
            assert_int_equal(ck->probes, 1);
            assert_true(ck->extra_warmup_s == 0);
            assert_true(y[1] == (float)(0.5 + runs * 2.0));
        }
        free(y);
        fixture_done(&f, &m);
    }
}

static void test_saxpy(void **state)
{
    (void)state;
    run_saxpy_check();
}

/* the path of a discrete GPU: uploads and --dump through staging buffers
 * and vkCmdCopyBuffer instead of mapped device memory */
static void test_saxpy_staging(void **state)
{
    (void)state;
    setenv("CW_VK_FORCE_STAGING", "1", 1);
    run_saxpy_check();
    unsetenv("CW_VK_FORCE_STAGING");
}

/* ---- the counters see the driver's worker threads ---- */

static const char busy_glsl[] =
    "#version 450\n"
    "layout(local_size_x = 64) in;\n"
    "layout(set = 0, binding = 0) buffer O { float o[]; };\n"
    "layout(push_constant) uniform P { uint iters; };\n"
    "void main() {\n"
    "    uint i = gl_GlobalInvocationID.x;\n"
    "    float a = o[i], b = a + 1.0, c = a + 2.0, d = a + 3.0;\n"
    "    for (uint k = 0u; k < iters; k++) {\n"
    "        a = fma(a, 0.9999, 0.0001); b = fma(b, 0.9999, 0.0001);\n"
    "        c = fma(c, 0.9999, 0.0001); d = fma(d, 0.9999, 0.0001);\n"
    "    }\n"
    "    o[i] = a + b + c + d;\n"
    "}\n";

/* lavapipe runs the shader on its own threads while the submitting thread
 * sleeps in the fence wait: if the counters missed those threads (opened
 * after they exist, or without inherit), task-clock would be a tiny
 * fraction of the kernel's time (measured: 0.06 %).  With the workers it
 * is most of it on a quiet machine; the bound leaves room for a loaded
 * one, where the kernel's wall time stretches but its CPU time does not. */
static void test_counters_cover_workers(void **state)
{
    (void)state;
    kernel_fixture f;
    fixture_init(&f, "busy", busy_glsl, 128, 64);
    add_buffer(&f, 0, 128 * 64, PLAN_INIT_RANDOM, 0, SCALAR_F32, 1, 1);
    add_push(&f, "iters", SCALAR_U32, 20000);
    run_options o;
    small_options(&o);
    o.dump_dir = NULL;
    measurement m;
    run_ok(&f, &o, &m);
    const counter_value *tc = counter(&m, "task-clock");
    assert_non_null(tc);
    assert_true(tc->available);
    double kernel_ns = m.median_us * 1e3;
    if (!(tc->value > 0.2 * kernel_ns))
        fail_msg("task-clock %.0f ns per dispatch for a %.0f ns kernel",
                 tc->value, kernel_ns);
    assert_true(m.median_us > 1000); /* really busy: > 1 ms */
    fixture_done(&f, &m);
}

/* ---- poisoned output, seeded random input ---- */

static const char scale_glsl[] =
    "#version 450\n"
    "layout(local_size_x = 64) in;\n"
    "layout(set = 0, binding = 0) readonly buffer X { float x[]; };\n"
    "layout(set = 0, binding = 1) writeonly buffer O { float o[]; };\n"
    "layout(set = 0, binding = 2) writeonly buffer C { float c[]; };\n"
    "layout(push_constant) uniform Params { uint n; };\n"
    "void main() {\n"
    "    uint i = gl_GlobalInvocationID.x;\n"
    "    if (i < n) { o[i] = 3.0 * float(i) + 1.0; c[i] = x[i]; }\n"
    "}\n";

static float *run_scale(uint64_t seed, float **copy)
{
    kernel_fixture f;
    fixture_init(&f, "scale", scale_glsl, 16, 64);
    add_buffer(&f, 0, 1024, PLAN_INIT_RANDOM, 0, SCALAR_F32, 1, 0);
    add_buffer(&f, 1, 1100, PLAN_INIT_CONST, -7777.0, SCALAR_F32, 0, 1);
    add_buffer(&f, 2, 1024, PLAN_INIT_CONST, -7777.0, SCALAR_F32, 0, 1);
    add_push(&f, "n", SCALAR_U32, 1000);
    run_options o;
    one_sample(&o);
    o.seed = seed;
    measurement m;
    run_ok(&f, &o, &m);
    assert_int_equal(m.invocations, 16 * 64);
    size_t len;
    float *out = read_dump(0, 1, &len);
    assert_int_equal(len, 1100 * sizeof(float));
    *copy = read_dump(0, 2, &len);
    fixture_done(&f, &m);
    return out;
}

static void test_poison_and_random(void **state)
{
    (void)state;
    float *c1, *c2, *c3;
    float *o = run_scale(42, &c1);
    for (int i = 0; i < 1100; i++) {
        float want = i < 1000 ? 3.0f * (float)i + 1.0f : -7777.0f;
        if (o[i] != want)
            fail_msg("o[%d] = %g, want %g", i, o[i], want);
    }
    /* random input: in [-1, 1), not all equal, not zeros */
    int zeros = 0, distinct = 0;
    for (int i = 0; i < 1000; i++) {
        assert_true(c1[i] >= -1.0f && c1[i] < 1.0f);
        zeros += c1[i] == 0.0f;
        distinct += i && c1[i] != c1[i - 1];
    }
    assert_true(zeros < 5);
    assert_true(distinct > 990);
    /* past n the copy keeps its poison */
    assert_true(c1[1000] == -7777.0f);
    free(o);
    /* same seed: same data; another seed: other data */
    o = run_scale(42, &c2);
    free(o);
    o = run_scale(43, &c3);
    free(o);
    assert_memory_equal(c1, c2, 1000 * sizeof(float));
    assert_memory_not_equal(c1, c3, 1000 * sizeof(float));
    free(c1);
    free(c2);
    free(c3);
}

/* ---- specialization constants ---- */

static const char spec_glsl[] =
    "#version 450\n"
    "layout(local_size_x_id = 1) in;\n"
    "layout(constant_id = 0) const uint K = 1;\n"
    "layout(set = 0, binding = 0) writeonly buffer O { uint o[]; };\n"
    "void main() { o[gl_GlobalInvocationID.x] = K; }\n";

static void test_spec_constants(void **state)
{
    (void)state;
    kernel_fixture f;
    fixture_init(&f, "spec", spec_glsl, 2, 32);
    add_buffer(&f, 0, 64, PLAN_INIT_ZERO, 0, SCALAR_U32, 0, 1);
    f.rs[0] = (refl_spec){.id = 0, .type = SCALAR_U32, .default_value = 1,
                          .value = 7, .overridden = 1};
    f.rs[1] = (refl_spec){.id = 1, .type = SCALAR_U32, .default_value = 1,
                          .value = 32, .overridden = 1};
    f.refl.nspecs = 2;
    run_options o;
    one_sample(&o);
    measurement m;
    run_ok(&f, &o, &m);
    /* local size from the spec constant: 2 groups x 32 */
    assert_int_equal(m.invocations, 64);
    size_t len;
    uint32_t *out = read_dump(0, 0, &len);
    for (int i = 0; i < 64; i++)
        assert_int_equal(out[i], 7);
    free(out);
    fixture_done(&f, &m);
}

/* ---- pipeline executable properties ---- */

static void test_pipeline_facts(void **state)
{
    (void)state;
    kernel_fixture f;
    saxpy_fixture(&f, 4, 1024, PLAN_INIT_RAMP, 0);
    vk_pipeline_facts pf;
    cw_error err;
    assert_int_equal(vk_pipeline_facts_get(ctx, &f.k, &f.mod, &f.refl, &pf,
                                           &err), 0);
    if (vk_ctx_info(ctx)->pipeline_executable_properties) {
        /* a driver that has it reports at least one statistic */
        if (!pf.available)
            fail_msg("unavailable: %s", pf.reason);
        assert_true(pf.nstats > 0);
    } else {
        /* lavapipe (Mesa 22.3) does not: unavailable, with the reason */
        assert_false(pf.available);
        assert_non_null(strstr(pf.reason,
                               "VK_KHR_pipeline_executable_properties"));
        assert_int_equal(pf.nstats, 0);
        assert_int_equal(pf.registers, 0);
    }
    shader_free(&f.mod);
}

/* ---- a uniform buffer, bytes given instead of elements ---- */

static const char ubo_glsl[] =
    "#version 450\n"
    "layout(local_size_x = 16) in;\n"
    "layout(set = 0, binding = 0) writeonly buffer O { float o[]; };\n"
    "layout(set = 0, binding = 1) uniform U { vec4 v[4]; };\n"
    "void main() {\n"
    "    uint i = gl_GlobalInvocationID.x;\n"
    "    o[i] = v[i & 3u].y + float(i);\n"
    "}\n";

static void test_uniform_buffer(void **state)
{
    (void)state;
    kernel_fixture f;
    fixture_init(&f, "ubo", ubo_glsl, 1, 16);
    add_buffer(&f, 0, 16, PLAN_INIT_ZERO, 0, SCALAR_F32, 0, 1);
    add_buffer(&f, 1, 0, PLAN_INIT_CONST, 2.5, SCALAR_F32, 1, 0);
    f.bufs[1].has_elements = 0;
    f.bufs[1].has_bytes = 1;
    f.bufs[1].bytes = 64;
    f.rb[1].kind = DESC_UNIFORM_BUFFER;
    f.rb[1].fixed_bytes = 64;
    f.rb[1].array_stride = 0;
    run_options o;
    one_sample(&o);
    measurement m;
    run_ok(&f, &o, &m);
    size_t len;
    float *out = read_dump(0, 0, &len);
    assert_int_equal(len, 64);
    for (int i = 0; i < 16; i++)
        assert_true(out[i] == 2.5f + (float)i);
    free(out);
    fixture_done(&f, &m);
}

static void test_missing_buffer(void **state)
{
    (void)state;
    kernel_fixture f;
    saxpy_fixture(&f, 4, 1024, PLAN_INIT_RAMP, 0);
    f.k.nbuffers = 1; /* the plan forgets binding 1 */
    run_options o;
    small_options(&o);
    measurement m;
    memset(&m, 0, sizeof m);
    cw_error err;
    assert_int_equal(vk_run_kernel(ctx, &f.k, &f.mod, &f.refl, &o, &m, &err),
                     CW_STATUS_INPUT);
    assert_non_null(m.error);
    assert_non_null(strstr(m.error, "binding 1"));
    assert_false(m.valid);
    fixture_done(&f, &m);
}

/* ---- what the device cannot run is refused with the reason ---- */

static void test_refused_dispatches(void **state)
{
    (void)state;
    static const struct {
        int line;
        uint32_t groups;
        uint32_t local;
        uint64_t elements;
        const char *want;
    } rows[] = {
        {__LINE__, 70000, 256, 1024, "maxComputeWorkGroupCount"},
        {__LINE__, 4, 4096, 1024, "maxComputeWorkGroupSize"},
        /* 200 MiB storage buffer: above lavapipe's 128 MiB range */
        {__LINE__, 4, 256, 50u << 20, "maxStorageBufferRange"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        kernel_fixture f;
        saxpy_fixture(&f, rows[i].groups, rows[i].elements, PLAN_INIT_RAMP, 0);
        f.refl.local_size[0] = rows[i].local;
        run_options o;
        small_options(&o);
        measurement m;
        memset(&m, 0, sizeof m);
        cw_error err;
        cw_error_clear(&err);
        int rc = vk_run_kernel(ctx, &f.k, &f.mod, &f.refl, &o, &m, &err);
        if (rc != CW_STATUS_ENV || !strstr(err.text, rows[i].want) ||
            !m.error || !strstr(m.error, "saxpy"))
            fail_msg("row at line %d: rc %d: %s", rows[i].line, rc, err.text);
        if (i == 2)
            assert_non_null(strstr(err.text, "binding 1"));
        fixture_done(&f, &m);
    }
}

/* out of device memory names the buffer (the runner passes this name) */
static void test_out_of_memory(void **state)
{
    (void)state;
    vkx_buffer b;
    cw_error err;
    cw_error_clear(&err);
    int rc = vkx_buffer_create(ctx, 1ull << 40, 0,
                               "buffer set 0 binding 1 ('Y') of kernel 'big'",
                               &b, &err);
    if (rc == 0) {
        vkx_buffer_destroy(ctx, &b);
        skip(); /* a driver that accepts 1 TiB: nothing to check */
    }
    assert_int_equal(rc, CW_STATUS_ENV);
    assert_non_null(strstr(err.text, "out of device memory"));
    assert_non_null(strstr(err.text, "binding 1 ('Y') of kernel 'big'"));
    assert_non_null(strstr(err.text, "1099511627776 bytes"));
}

/* ---- calibration with a short budget ---- */

/* Under ASan lavapipe's start of a workgroup costs ~65x its normal time
 * (5.8 us against 0.09 us for 8 invocations, measured at main 2026-12-01),
 * more than a 1024-wide workgroup's, so the subgroup row, a difference of
 * the two, cannot be derived there; calibrate says so ("not derived: ...").
 * The normal build must derive it. */
static int sanitized_build(void)
{
#if defined(__SANITIZE_ADDRESS__)
    return 1;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
    return 1;
#endif
#endif
    return 0;
}

static void test_calibrate_short(void **state)
{
    (void)state;
    device_profile p;
    cw_error err;
    cw_error_clear(&err);
    char *log = NULL;
    size_t loglen = 0;
    FILE *lf = open_memstream(&log, &loglen);
    vk_ctx *cal_ctx = NULL;
    if (vk_open_events("llvmpipe", "", &cal_ctx, &err))
        fail_msg("open: %s", err.text);
    int rc = calibrate_device(cal_ctx, "llvmpipe", 0.05, &p, lf, &err);
    if (!vk_ctx_hung(cal_ctx))
        vk_close(cal_ctx);
    fclose(lf);
    if (rc)
        fail_msg("calibrate: %s", err.text);
    assert_int_equal(p.source, PROFILE_CALIBRATED);
    assert_string_equal(p.key, "lavapipe");
    assert_int_equal(p.kind, DEVICE_KIND_CPU_VULKAN);
    assert_int_equal(strlen(p.uuid), 32);
    assert_true(p.date[0] && p.driver[0]);
    assert_non_null(strstr(p.command, "clockwork calibrate"));
    assert_true(p.limits.max_wg_invocations > 0);
    /* every ceiling measured (lavapipe has fp16 and fp64) and plausible
     * for a CPU: between 10 MB/s and 10 TB/s, 10 MFLOP/s and 100 TFLOP/s */
    double bw[] = {p.dram_gbs, p.dram_read_gbs, p.dram_write_gbs, p.l2_gbs,
                   p.shared_gbs};
    for (size_t i = 0; i < 5; i++)
        if (!(bw[i] > 0.01 && bw[i] < 10000))
            fail_msg("bandwidth %zu = %g GB/s", i, bw[i]);
    double fl[] = {p.fp32_gflops, p.fp16_gflops, p.fp64_gflops,
                   p.int32_gops, p.sfu_gops, p.atomic_gops};
    for (size_t i = 0; i < 6; i++)
        if (!(fl[i] > 0.01 && fl[i] < 100000))
            fail_msg("rate %zu = %g G/s", i, fl[i]);
    assert_true(p.launch_us > 0 && p.launch_us < 100000);
    assert_true(p.timestamp_res_ns >= 1);
    assert_non_null(strstr(log, "dram (host)")); /* a CPU device: native */
    assert_non_null(strstr(log, "fp32"));
    assert_non_null(strstr(log, "atomics"));
    /* fields the built-in lavapipe profile leaves unknown: only a
     * measurement can have set them */
    double lat[] = {p.mem_latency_ns, p.l2_latency_ns, p.l1_latency_ns,
                    p.shared_latency_ns, p.subgroup_op_ns,
                    p.atomic_shared_same_ns, p.l1_gbs, p.atomic_shared_gops};
    for (size_t i = 0; i < sizeof lat / sizeof lat[0]; i++)
        if (!(lat[i] > 0 && lat[i] < 1e7))
            fail_msg("cost %zu = %g", i, lat[i]);
    /* every CPU row of the table ran and was derived */
    size_t n;
    const cal_bench *t = cal_table(&n);
    for (size_t i = 0; i < n; i++) {
        if (t[i].need & CAL_GPU_ONLY)
            continue;
        char want[64];
        snprintf(want, sizeof want, "  %-20s ", t[i].name);
        const char *at = strstr(log, want);
        if (!at)
            fail_msg("no log line for '%s':\n%s", t[i].name, log);
        if (!strncmp(at + strlen(want), "not ", 4) &&
            !(sanitized_build() && t[i].kind == CAL_CPU_SUBGROUP &&
              strstr(at, "not derived: ")))
            fail_msg("'%s' was not measured:\n%s", t[i].name, log);
    }
    assert_true(p.cpu_cycles_per_instruction > 0);
    assert_true(p.cpu_cycles_per_storage_lane > 0);
    assert_true(p.cpu_ns_per_group > 0);
    free(log);
}

/* Every row of the calibration table is consistent with its kernel: the
 * local size it counts work with is the GLSL's, the field lies inside the
 * result, and a rate has a unit. */
static void test_calibrate_table(void **state)
{
    (void)state;
    size_t n;
    const cal_bench *t = cal_table(&n);
    assert_true(n >= 30);
    for (size_t i = 0; i < n; i++) {
        char want[48];
        snprintf(want, sizeof want, "local_size_x = %u)", t[i].local);
        if (!strstr(t[i].glsl, want))
            fail_msg("row '%s': GLSL does not say %s", t[i].name, want);
        assert_true(t[i].field + sizeof(double) <= sizeof(cal_out));
        assert_non_null(t[i].unit);
        assert_non_null(t[i].what);
        for (size_t j = 0; j < i; j++)
            if (!strcmp(t[i].name, t[j].name))
                fail_msg("row name '%s' twice", t[i].name);
    }
}

/* `dram row walk` on the H200 probe's numbers (rp_v4_p2048_r32, run 10):
 * 270336 lanes x 128 vec4 loads in 243.2 us at 4511.33 GB/s read, 64-B
 * fetch blocks: 1.0972e9 bytes of read time over 8650752 blocks = 126.83
 * B a block; nothing derived from a zero time or fetch. */
static void test_walk_fetch_bytes(void **state)
{
    (void)state;
    assert_float_equal(cal_walk_fetch_bytes(243.2e-6, 4511.33, 270336.0 * 128, 64),
                       243.2e-6 * 4511.33e9 / 8650752, 1e-9);
    assert_float_equal(cal_walk_fetch_bytes(243.2e-6, 4511.33, 270336.0 * 128, 64),
                       126.83, 0.01);
    assert_true(cal_walk_fetch_bytes(0, 4511.33, 1, 64) < 0);
    assert_true(cal_walk_fetch_bytes(1e-3, 4511.33, 1, 0) < 0);
    assert_true(cal_walk_fetch_bytes(1e-3, -1, 1, 64) < 0);
}

/* The atomic unit's three costs from its three rows, hand-computed: with
 * request 0.1 ns, 0.285 ns per lone word, 0.42 ns per colliding word the
 * rows read 9.22, 9.92 and 3.46 ns per instruction. */
static void test_atomic_unit_costs(void **state)
{
    (void)state;
    double req, word, col;
    assert_int_equal(cal_atomic_unit_costs(9.22, 9.92, 3.46, &req, &word, &col), 0);
    assert_float_equal(req, 0.1, 1e-9);
    assert_float_equal(word, 0.285, 1e-9);
    assert_float_equal(col, 0.42, 1e-9);
    /* 8 lines no slower than one: no request cost, words take it all */
    assert_int_equal(cal_atomic_unit_costs(6.4, 6.0, 3.2, &req, &word, &col), 1);
    assert_float_equal(req, 0, 0);
    assert_float_equal(word, 0.2, 1e-9);
    assert_float_equal(col, 0.4, 1e-9);
    /* rows that did not run */
    assert_int_equal(cal_atomic_unit_costs(0, 9.92, 3.46, &req, &word, &col), -1);
    assert_true(word < 0 && col < 0);
    /* collide row missing: the other two still derived */
    assert_int_equal(cal_atomic_unit_costs(9.22, 9.92, 0, &req, &word, &col), 0);
    assert_true(col < 0 && word > 0);
}

/* The block L2 fetches per missed sector from `dram sector reads`' bytes
 * per read: 76 B (b_sector_read8's pass of 225.6 us: 225.6 us x 4511
 * GB/s / 12.58 M reads = 80.9 B, less its stores) -> 64; 33 -> 32 (the
 * sector and a little page time); 60 -> 64 (within 10%); 300 -> 128 (at
 * most a line); nothing -> -1. */
static void test_fetch_bytes(void **state)
{
    (void)state;
    assert_float_equal(cal_fetch_bytes(76, 32, 128), 64, 0);
    assert_float_equal(cal_fetch_bytes(33, 32, 128), 32, 0);
    assert_float_equal(cal_fetch_bytes(60, 32, 128), 64, 0);
    assert_float_equal(cal_fetch_bytes(57, 32, 128), 32, 0);
    assert_float_equal(cal_fetch_bytes(118, 32, 128), 128, 0);
    assert_float_equal(cal_fetch_bytes(300, 32, 128), 128, 0);
    assert_float_equal(cal_fetch_bytes(10, 32, 128), 32, 0);
    assert_true(cal_fetch_bytes(0, 32, 128) < 0);
    assert_true(cal_fetch_bytes(-5, 32, 128) < 0);
    assert_true(cal_fetch_bytes(64, 48, 128) < 0);
    assert_true(cal_fetch_bytes(64, 256, 128) < 0);
}

/* ---- the hang guard: keep last ---- */

/* lavapipe (gallivm) caps every loop at 65535 iterations per invocation,
 * so a single spinning invocation finishes in milliseconds there; a
 * never-ending loop over a million invocations still runs for minutes,
 * far past the guard's timeout. */
static const char hang_glsl[] =
    "#version 450\n"
    "layout(local_size_x = 64) in;\n"
    "layout(set = 0, binding = 0) buffer B { uint b[]; };\n"
    "void main() {\n"
    "    uint i = gl_GlobalInvocationID.x & 1023u;\n"
    "    while (b[0] == 0u) b[1u + i] += 1u;\n"
    "}\n";

static void test_hang_guard(void **state)
{
    (void)state;
    kernel_fixture f;
    fixture_init(&f, "spin_forever", hang_glsl, 16384, 64);
    add_buffer(&f, 0, 1025, PLAN_INIT_ZERO, 0, SCALAR_U32, 1, 1);
    run_options o;
    small_options(&o);
    o.timeout_s = 1;
    o.dump_dir = NULL;
    measurement m;
    memset(&m, 0, sizeof m);
    cw_error err;
    cw_error_clear(&err);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int rc = vk_run_kernel(ctx, &f.k, &f.mod, &f.refl, &o, &m, &err);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double s = (double)(t1.tv_sec - t0.tv_sec) +
               1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    assert_int_equal(rc, CW_STATUS_ENV);
    assert_non_null(strstr(err.text, "'spin_forever'"));
    assert_non_null(strstr(err.text, "hang guard"));
    assert_non_null(m.error);
    assert_true(s < 4.0);
    assert_true(vk_ctx_hung(ctx));
    /* the context refuses further work instead of queueing behind it */
    measurement m2;
    memset(&m2, 0, sizeof m2);
    assert_int_equal(vk_run_kernel(ctx, &f.k, &f.mod, &f.refl, &o, &m2, &err),
                     CW_STATUS_ENV);
    measurement_free(&m2);
    fixture_done(&f, &m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_list_devices),
        cmocka_unit_test(test_select_errors),
        cmocka_unit_test(test_profile_limits),
        cmocka_unit_test(test_saxpy),
        cmocka_unit_test(test_clock_check),
        cmocka_unit_test(test_saxpy_staging),
        cmocka_unit_test(test_counters_cover_workers),
        cmocka_unit_test(test_poison_and_random),
        cmocka_unit_test(test_spec_constants),
        cmocka_unit_test(test_uniform_buffer),
        cmocka_unit_test(test_pipeline_facts),
        cmocka_unit_test(test_missing_buffer),
        cmocka_unit_test(test_refused_dispatches),
        cmocka_unit_test(test_out_of_memory),
        cmocka_unit_test(test_calibrate_table),
        cmocka_unit_test(test_atomic_unit_costs),
        cmocka_unit_test(test_walk_fetch_bytes),
        cmocka_unit_test(test_fetch_bytes),
        cmocka_unit_test(test_calibrate_short),
        cmocka_unit_test(test_hang_guard),
    };
    /* exits through the hang exit path (the device is left busy); the
     * status is still cmocka's */
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
