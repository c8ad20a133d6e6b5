/* test_eval.c - the evaluator's counts, checked against numbers computed by
 * hand for each kernel (FLOPs, compulsory bytes, invocations, barriers),
 * including dispatches large enough that only representative workgroups
 * are executed, and the budget on pathological modules. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "kernel_fixture.h"

#include "checks.h"
#include "eval.h"
#include "plan.h"
#include "profile.h"
#include "report.h"
#include "shader.h"

typedef kfix run;

static char *read_text(const char *path)
{
    char full[1024];
    const char *root = getenv("CW_TEST_ROOT");
    snprintf(full, sizeof full, "%s/%s", root && *root ? root : ".", path);
    FILE *f = fopen(full, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = calloc(1, (size_t)n + 1);
    if (fread(s, 1, (size_t)n, f) != (size_t)n) {
        free(s);
        s = NULL;
    }
    fclose(f);
    return s;
}

/* Compiles glsl, loads the plan text (one kernel), evaluates with o on a
 * default profile with subgroups of 8. */
static void run_kernel(run *x, const char *glsl, const char *plan_json,
                       const eval_options *o)
{
    plan_kernel *k = kfix_open(x, glsl, plan_json);
    profile_init(&x->prof);
    x->prof.limits.subgroup_size = 8;
    x->rc = eval_run_opts(&x->m, &x->r, k, &x->prof, o, &x->kc, x->kr);
}

/* run_kernel on an example kernel's GLSL (path under the checkout). */
static void run_example(run *x, const char *path, const char *plan_json)
{
    char *src = read_text(path);
    if (!src)
        fail_msg("cannot read %s", path);
    run_kernel(x, src, plan_json, NULL);
    free(src);
}

static double flops(const kernel_counts *c)
{
    return c->flops_fp16 + c->flops_fp32 + c->flops_fp64;
}

static size_t errors(const kernel_report *kr)
{
    return kernel_report_count(kr, SEV_ERROR);
}

static const char *SAXPY =
    "#version 450\n"
    "layout(local_size_x = 256) in;\n"
    "layout(set = 0, binding = 0) readonly buffer X { float x[]; };\n"
    "layout(set = 0, binding = 1) buffer Y { float y[]; };\n"
    "layout(push_constant) uniform Params { uint n; float alpha; };\n"
    "void main() {\n"
    "    uint i = gl_GlobalInvocationID.x;\n"
    "    if (i < n)\n"
    "        y[i] = alpha * x[i] + y[i];\n"
    "}\n";

/* SAXPY, guard, n = 1000 over 4 x 256 invocations: every group executed. */
static void test_saxpy_small(void **state)
{
    (void)state;
    run x;
    run_kernel(&x, SAXPY,
               "{\"kernels\":[{\"name\":\"saxpy\",\"shader\":\"k.comp\","
               "\"workgroups\":[4,1,1],\"push\":{\"n\":1000,\"alpha\":2.0},"
               "\"buffers\":[{\"binding\":0,\"elements\":1000},"
               "{\"binding\":1,\"elements\":1000}]}]}",
               NULL);
    assert_int_equal(x.rc, 0);
    const kernel_counts *c = &x.kc;
    assert_int_equal(c->invocations, 1024);
    assert_int_equal(c->workgroups, 4);
    assert_int_equal(c->active_invocations, 1000);
    /* one mul + one add per active invocation */
    assert_true(c->flops_fp32 == 2.0 * 1000);
    /* x and y read once, y written once: 4 bytes each */
    assert_true(c->compulsory_read_bytes == 2.0 * 1000 * 4);
    assert_true(c->compulsory_write_bytes == 1000.0 * 4);
    assert_true(c->storage_load_bytes == 2.0 * 1000 * 4);
    assert_true(c->storage_store_bytes == 1000.0 * 4);
    assert_int_equal(c->conf, CONF_EXACT);
    assert_int_equal(errors(x.kr), 0);
    /* the store: stride one float across lanes, indices [0, 999] */
    int seen = 0;
    for (size_t a = 0; a < c->naccesses; a++) {
        const access_summary *s = &c->accesses[a];
        if (!s->is_store)
            continue;
        seen = 1;
        assert_int_equal(s->binding, 1);
        assert_true(s->stride_known);
        assert_int_equal(s->lane_stride_bytes, 4);
        assert_true(s->index_known);
        assert_int_equal(s->index_min, 0);
        assert_int_equal(s->index_max, 999);
        assert_true(s->count == 1000);
        assert_int_equal(s->line, 9);
    }
    assert_true(seen);
    kfix_close(&x);
}

/* The same over 4096 groups (n = 10^6): only representative groups run;
 * the guard cuts group 3906, groups 3907.. are empty. */
static void test_saxpy_large(void **state)
{
    (void)state;
    run x;
    run_kernel(&x, SAXPY,
               "{\"kernels\":[{\"name\":\"saxpy\",\"shader\":\"k.comp\","
               "\"workgroups\":[4096,1,1],\"push\":{\"n\":1000000,\"alpha\":2.0},"
               "\"buffers\":[{\"binding\":0,\"elements\":1000000},"
               "{\"binding\":1,\"elements\":1000000}]}]}",
               NULL);
    const kernel_counts *c = &x.kc;
    assert_int_equal(c->invocations, 4096u * 256u);
    assert_int_equal(c->active_invocations, 1000000);
    assert_true(c->flops_fp32 == 2e6);
    assert_true(c->compulsory_read_bytes == 8e6);
    assert_true(c->compulsory_write_bytes == 4e6);
    assert_int_equal(c->conf, CONF_EXACT);
    kfix_close(&x);
}

/* 2-D: naive GEMM, n = 40 over 3 x 3 groups of 16 x 16 (the last row and
 * column of groups are cut by the guard). */
static void test_gemm_naive_2d(void **state)
{
    (void)state;
    run x;
    run_example(&x, "examples/kernels/matmul_naive.comp",
                "{\"kernels\":[{\"name\":\"mm\",\"shader\":\"k.comp\","
                "\"workgroups\":[3,3,1],\"push\":{\"n\":40},"
                "\"buffers\":[{\"binding\":0,\"elements\":1600},"
                "{\"binding\":1,\"elements\":1600},{\"binding\":2,\"elements\":1600}]}]}");
    const double n = 40;
    const kernel_counts *c = &x.kc;
    assert_int_equal(c->invocations, 9 * 256);
    assert_int_equal(c->active_invocations, 1600);
    assert_true(flops(c) == 2 * n * n * n);          /* one FMA-pair per k */
    assert_true(c->compulsory_read_bytes == 2 * n * n * 4);
    assert_true(c->compulsory_write_bytes == n * n * 4);
    assert_true(c->storage_load_bytes == 2 * n * n * n * 4);
    assert_int_equal(errors(x.kr), 0);
    kfix_close(&x);
}

/* Tiled GEMM through shared memory: n = 64, 4 x 4 groups. */
static void test_gemm_tiled(void **state)
{
    (void)state;
    run x;
    run_example(&x, "examples/kernels/matmul_tiled.comp",
                "{\"kernels\":[{\"name\":\"mm\",\"shader\":\"k.comp\","
                "\"workgroups\":[4,4,1],\"push\":{\"n\":64},"
                "\"buffers\":[{\"binding\":0,\"elements\":4096},"
                "{\"binding\":1,\"elements\":4096},{\"binding\":2,\"elements\":4096}]}]}");
    const double n = 64;
    const kernel_counts *c = &x.kc;
    assert_true(flops(c) == 2 * n * n * n);
    assert_true(c->compulsory_read_bytes == 2 * n * n * 4);
    assert_true(c->compulsory_write_bytes == n * n * 4);
    /* each A and B element is loaded once per tile row/column: n/16 times */
    assert_true(c->storage_load_bytes == 2 * n * n * (n / 16) * 4);
    /* 16 groups x (n/16 tiles x 2 barriers) */
    assert_true(c->barriers == 16 * (n / 16) * 2);
    assert_true(c->shared_store_bytes == 2 * n * n * (n / 16) * 4);
    assert_true(c->shared_load_bytes == 2 * n * n * n * 4);
    assert_int_equal(errors(x.kr), 0);
    kfix_close(&x);
}

/* 5-point stencil with boundary guards: w = h = 40 on 3 x 3 groups. */
static void test_stencil(void **state)
{
    (void)state;
    run x;
    run_example(&x, "examples/kernels/stencil.comp",
                "{\"kernels\":[{\"name\":\"st\",\"shader\":\"k.comp\","
                "\"workgroups\":[3,3,1],\"push\":{\"w\":40,\"h\":40},"
                "\"buffers\":[{\"binding\":0,\"elements\":1600},"
                "{\"binding\":1,\"elements\":1600}]}]}");
    const kernel_counts *c = &x.kc;
    double interior = 38.0 * 38.0;
    assert_true(flops(c) == 5 * interior); /* 4 adds + 1 mul */
    assert_true(c->compulsory_read_bytes == 1600 * 4.0);
    assert_true(c->compulsory_write_bytes == 1600 * 4.0);
    assert_true(c->storage_load_bytes == (5 * interior + (1600 - interior)) * 4);
    assert_int_equal(c->active_invocations, 1600);
    assert_int_equal(errors(x.kr), 0);
    kfix_close(&x);
}

/* Tree reduction: 255 adds and 9 barriers per group. */
static void test_reduce(void **state)
{
    (void)state;
    run x;
    run_example(&x, "examples/kernels/reduce.comp",
                "{\"kernels\":[{\"name\":\"r\",\"shader\":\"k.comp\","
                "\"workgroups\":[40,1,1],\"push\":{\"n\":10000},"
                "\"buffers\":[{\"binding\":0,\"elements\":10000},"
                "{\"binding\":1,\"elements\":40}]}]}");
    const kernel_counts *c = &x.kc;
    assert_true(c->flops_fp32 == 40 * 255.0);
    assert_true(c->barriers == 40 * 9.0);
    assert_true(c->compulsory_read_bytes == 10000 * 4.0);
    assert_true(c->compulsory_write_bytes == 40 * 4.0);
    assert_int_equal(c->conf, CONF_EXACT);
    assert_int_equal(errors(x.kr), 0);
    kfix_close(&x);
}

/* Transpose through a padded tile: no FLOPs, every element once each way;
 * the column read from the tile has a stride of 33 floats. */
static void test_transpose(void **state)
{
    (void)state;
    run x;
    run_example(&x, "examples/kernels/transpose.comp",
                "{\"kernels\":[{\"name\":\"t\",\"shader\":\"k.comp\","
                "\"workgroups\":[3,3,1],\"push\":{\"n\":96},"
                "\"buffers\":[{\"binding\":0,\"elements\":9216},"
                "{\"binding\":1,\"elements\":9216}]}]}");
    const kernel_counts *c = &x.kc;
    assert_true(flops(c) == 0);
    assert_true(c->compulsory_read_bytes == 9216 * 4.0);
    assert_true(c->compulsory_write_bytes == 9216 * 4.0);
    assert_true(c->barriers == 9);
    int col = 0;
    for (size_t a = 0; a < c->naccesses; a++)
        if (c->accesses[a].space == SPACE_SHARED && !c->accesses[a].is_store) {
            assert_int_equal(c->accesses[a].lane_stride_bytes, 33 * 4);
            col = 1;
        }
    assert_true(col);
    assert_int_equal(errors(x.kr), 0);
    kfix_close(&x);
}

/* Matrix-vector product with the loop bound in a push constant. */
static void test_matvec_push_bound(void **state)
{
    (void)state;
    static const char *src =
        "#version 450\n"
        "layout(local_size_x = 64) in;\n"
        "layout(set = 0, binding = 0) readonly buffer A { float a[]; };\n"
        "layout(set = 0, binding = 1) readonly buffer X { float x[]; };\n"
        "layout(set = 0, binding = 2) writeonly buffer Y { float y[]; };\n"
        "layout(push_constant) uniform Params { uint rows; uint cols; };\n"
        "void main() {\n"
        "    uint r = gl_GlobalInvocationID.x;\n"
        "    if (r >= rows) return;\n"
        "    float acc = 0.0;\n"
        "    for (uint k = 0; k < cols; ++k)\n"
        "        acc = fma(a[r * cols + k], x[k], acc);\n"
        "    y[r] = acc;\n"
        "}\n";
    run x;
    run_kernel(&x, src,
               "{\"kernels\":[{\"name\":\"mv\",\"shader\":\"k.comp\","
               "\"workgroups\":[2,1,1],\"push\":{\"rows\":100,\"cols\":37},"
               "\"buffers\":[{\"binding\":0,\"elements\":3700},"
               "{\"binding\":1,\"elements\":37},{\"binding\":2,\"elements\":100}]}]}",
               NULL);
    const kernel_counts *c = &x.kc;
    assert_true(c->flops_fp32 == 2.0 * 100 * 37);  /* FMA = 2 */
    assert_true(c->compulsory_read_bytes == (3700 + 37) * 4.0);
    assert_true(c->compulsory_write_bytes == 100 * 4.0);
    assert_true(c->storage_load_bytes == 2.0 * 100 * 37 * 4);
    assert_int_equal(c->fp_chains, 1);
    assert_int_equal(c->conf, CONF_EXACT);
    kfix_close(&x);
}

/* 3-D kernel with a guard on every axis: 10 x 10 x 10 inside 3 x 3 x 3
 * groups of 4 x 4 x 4; fp64 arithmetic. */
static void test_3d(void **state)
{
    (void)state;
    static const char *src =
        "#version 450\n"
        "layout(local_size_x = 4, local_size_y = 4, local_size_z = 4) in;\n"
        "layout(set = 0, binding = 0) readonly buffer In { double src[]; };\n"
        "layout(set = 0, binding = 1) writeonly buffer Out { double dst[]; };\n"
        "layout(push_constant) uniform Params { uint nx; uint ny; uint nz; };\n"
        "void main() {\n"
        "    uvec3 g = gl_GlobalInvocationID;\n"
        "    if (g.x >= nx || g.y >= ny || g.z >= nz) return;\n"
        "    uint i = (g.z * ny + g.y) * nx + g.x;\n"
        "    dst[i] = src[i] * 3.0 + 1.0;\n"
        "}\n";
    run x;
    run_kernel(&x, src,
               "{\"kernels\":[{\"name\":\"v\",\"shader\":\"k.comp\","
               "\"workgroups\":[3,3,3],\"push\":{\"nx\":10,\"ny\":10,\"nz\":10},"
               "\"buffers\":[{\"binding\":0,\"elements\":1000},"
               "{\"binding\":1,\"elements\":1000}]}]}",
               NULL);
    const kernel_counts *c = &x.kc;
    assert_int_equal(c->invocations, 27 * 64);
    assert_int_equal(c->active_invocations, 1000);
    assert_true(c->flops_fp64 == 2 * 1000.0);
    assert_true(c->flops_fp32 == 0);
    assert_true(c->compulsory_read_bytes == 8000);
    assert_true(c->compulsory_write_bytes == 8000);
    assert_int_equal(errors(x.kr), 0);
    kfix_close(&x);
}

/* 3-D again, large enough that the evaluator samples groups (12^3 groups). */
static void test_3d_sampled(void **state)
{
    (void)state;
    static const char *src =
        "#version 450\n"
        "layout(local_size_x = 4, local_size_y = 4, local_size_z = 4) in;\n"
        "layout(set = 0, binding = 0) readonly buffer In { float src[]; };\n"
        "layout(set = 0, binding = 1) writeonly buffer Out { float dst[]; };\n"
        "layout(push_constant) uniform Params { uint n; };\n"
        "void main() {\n"
        "    uvec3 g = gl_GlobalInvocationID;\n"
        "    if (g.x >= n || g.y >= n || g.z >= n) return;\n"
        "    uint i = (g.z * n + g.y) * n + g.x;\n"
        "    dst[i] = src[i] * 3.0;\n"
        "}\n";
    run x;
    run_kernel(&x, src,
               "{\"kernels\":[{\"name\":\"v\",\"shader\":\"k.comp\","
               "\"workgroups\":[12,12,12],\"push\":{\"n\":45},"
               "\"buffers\":[{\"binding\":0,\"elements\":91125},"
               "{\"binding\":1,\"elements\":91125}]}]}",
               NULL);
    const kernel_counts *c = &x.kc;
    assert_int_equal(c->active_invocations, 91125);
    assert_true(c->flops_fp32 == 91125.0);
    assert_true(c->compulsory_read_bytes == 91125 * 4.0);
    assert_true(c->compulsory_write_bytes == 91125 * 4.0);
    assert_int_equal(c->conf, CONF_EXACT);
    kfix_close(&x);
}

/* A loop whose trip count comes from buffer contents is estimated and
 * says so; an index read from a buffer is not an error. */
static void test_data_dependent(void **state)
{
    (void)state;
    static const char *src =
        "#version 450\n"
        "layout(local_size_x = 32) in;\n"
        "layout(set = 0, binding = 0) readonly buffer Cnt { uint cnt[]; };\n"
        "layout(set = 0, binding = 1) buffer Out { float o[]; };\n"
        "void main() {\n"
        "    uint i = gl_GlobalInvocationID.x;\n"
        "    float s = 0.0;\n"
        "    for (uint k = 0; k < cnt[i]; ++k)\n"
        "        s += 1.0;\n"
        "    o[cnt[i]] = s;\n"
        "}\n";
    run x;
    run_kernel(&x, src,
               "{\"kernels\":[{\"name\":\"d\",\"shader\":\"k.comp\","
               "\"workgroups\":[1,1,1],"
               "\"buffers\":[{\"binding\":0,\"elements\":32},"
               "{\"binding\":1,\"elements\":32}]}]}",
               NULL);
    const kernel_counts *c = &x.kc;
    assert_int_equal(c->conf, CONF_ESTIMATED);
    int said = 0;
    for (size_t i = 0; i < c->nassumptions; i++)
        if (strstr(c->assumptions[i], "line 8") && strstr(c->assumptions[i], "buffer contents"))
            said = 1;
    assert_true(said);
    /* 64 assumed iterations, one add each */
    assert_true(c->flops_fp32 == 32 * 64.0);
    assert_int_equal(errors(x.kr), 0);
    assert_true(kernel_report_count(x.kr, SEV_WARNING) >= 1);
    kfix_close(&x);
}

/* A loop of 2^31 iterations finishes within the budget and says what was
 * estimated. */
static void test_huge_loop_budget(void **state)
{
    (void)state;
    static const char *src =
        "#version 450\n"
        "layout(local_size_x = 64) in;\n"
        "layout(set = 0, binding = 0) buffer Out { float o[]; };\n"
        "layout(push_constant) uniform Params { uint n; };\n"
        "void main() {\n"
        "    float s = 0.0;\n"
        "    for (uint k = 0; k < n; ++k)\n"
        "        s = s * 0.5 + float(k);\n"
        "    o[gl_GlobalInvocationID.x] = s;\n"
        "}\n";
    run x;
    clock_t t0 = clock();
    run_kernel(&x, src,
               "{\"kernels\":[{\"name\":\"h\",\"shader\":\"k.comp\","
               "\"workgroups\":[2,1,1],\"push\":{\"n\":2147483648},"
               "\"buffers\":[{\"binding\":0,\"elements\":128}]}]}",
               NULL);
    double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
    assert_true(secs < 20.0);
    const kernel_counts *c = &x.kc;
    assert_int_equal(x.rc, 0);
    assert_true(c->flops_fp32 > 0);
    if (c->conf == CONF_ESTIMATED)
        assert_true(c->nassumptions >= 1);
    else
        assert_true(c->flops_fp32 == 128.0 * 2 * 2147483648.0);
    kfix_close(&x);
}

/* Grid-stride histogram: shared atomics at addresses from buffer contents
 * (an interval, [0, 63]) inside a loop that is accelerated; every count
 * exact. */
static void test_histogram_grid_stride(void **state)
{
    (void)state;
    static const char *src =
        "#version 450\n"
        "layout(local_size_x = 128) in;\n"
        "layout(set = 0, binding = 0) readonly buffer In { uint data[]; };\n"
        "layout(set = 0, binding = 1) buffer Bins { uint bins[]; };\n"
        "layout(push_constant) uniform Params { uint n; };\n"
        "shared uint hist[64];\n"
        "void main() {\n"
        "    uint l = gl_LocalInvocationID.x;\n"
        "    if (l < 64u)\n"
        "        hist[l] = 0u;\n"
        "    barrier();\n"
        "    for (uint i = gl_GlobalInvocationID.x; i < n; i += gl_NumWorkGroups.x * 128u)\n"
        "        atomicAdd(hist[data[i] % 64u], 1u);\n"
        "    barrier();\n"
        "    if (l < 64u)\n"
        "        atomicAdd(bins[l], hist[l]);\n"
        "}\n";
    run x;
    run_kernel(&x, src,
               "{\"kernels\":[{\"name\":\"h\",\"shader\":\"k.comp\","
               "\"workgroups\":[64,1,1],\"push\":{\"n\":4000000},"
               "\"buffers\":[{\"binding\":0,\"elements\":4000000},"
               "{\"binding\":1,\"elements\":64}]}]}",
               NULL);
    const kernel_counts *c = &x.kc;
    assert_true(c->atomics == 4000000.0 + 64 * 64);
    assert_true(c->compulsory_read_bytes == 4000000.0 * 4 + 64 * 4);
    assert_true(c->compulsory_write_bytes == 64 * 4.0);
    assert_true(c->barriers == 64 * 2.0);
    assert_int_equal(c->conf, CONF_EXACT);
    assert_int_equal(errors(x.kr), 0);
    kfix_close(&x);
}

/* A branch on k % 8 inside a long loop: not affine in the loop counter,
 * so the loop must not be extrapolated past it. */
static void test_loop_modulo_branch(void **state)
{
    (void)state;
    static const char *src =
        "#version 450\n"
        "layout(local_size_x = 32) in;\n"
        "layout(set = 0, binding = 0) buffer D { float d[]; };\n"
        "layout(push_constant) uniform P { uint n; };\n"
        "void main() {\n"
        "    float s = 0.0;\n"
        "    for (uint k = 0; k < n; ++k)\n"
        "        if ((k % 8u) == 0u)\n"
        "            s += d[k % 4u];\n"
        "    d[gl_GlobalInvocationID.x] = s;\n"
        "}\n";
    run x;
    run_kernel(&x, src,
               "{\"kernels\":[{\"name\":\"m\",\"shader\":\"k.comp\","
               "\"workgroups\":[1,1,1],\"push\":{\"n\":1000},"
               "\"buffers\":[{\"binding\":0,\"elements\":32}]}]}",
               NULL);
    assert_true(x.kc.flops_fp32 == 32 * 125.0);
    assert_true(x.kc.storage_load_bytes == 32 * 125.0 * 4);
    assert_int_equal(x.kc.conf, CONF_EXACT);
    kfix_close(&x);
}

/* subgroupElect(): one store per subgroup (subgroup size 8 in these
 * tests), decided exactly. */
static void test_subgroup_elect(void **state)
{
    (void)state;
    static const char *src =
        "#version 450\n"
        "#extension GL_KHR_shader_subgroup_basic : require\n"
        "#extension GL_KHR_shader_subgroup_arithmetic : require\n"
        "layout(local_size_x = 64) in;\n"
        "layout(set = 0, binding = 0) readonly buffer In { float data[]; };\n"
        "layout(set = 0, binding = 1) buffer Out { float total[]; };\n"
        "void main() {\n"
        "    float v = subgroupAdd(data[gl_GlobalInvocationID.x]);\n"
        "    if (subgroupElect())\n"
        "        total[gl_WorkGroupID.x * gl_NumSubgroups + gl_SubgroupID] = v;\n"
        "}\n";
    run x;
    run_kernel(&x, src,
               "{\"kernels\":[{\"name\":\"s\",\"shader\":\"k.comp\","
               "\"workgroups\":[4,1,1],"
               "\"buffers\":[{\"binding\":0,\"elements\":256},"
               "{\"binding\":1,\"elements\":32}]}]}",
               NULL);
    assert_true(x.kc.storage_store_bytes == 32 * 4.0);
    assert_true(x.kc.compulsory_write_bytes == 32 * 4.0);
    assert_int_equal(x.kc.active_invocations, 32);
    assert_int_equal(x.kc.conf, CONF_EXACT);
    assert_int_equal(errors(x.kr), 0);
    kfix_close(&x);
}

/* Shared-memory reads at (l + k) & 255 in a long loop: not affine, yet the
 * loop is still summarised (those addresses only need counting). */
static void test_shared_nonaffine_loop(void **state)
{
    (void)state;
    static const char *src =
        "#version 450\n"
        "layout(local_size_x = 256) in;\n"
        "layout(set = 0, binding = 0) writeonly buffer Out { float o[]; };\n"
        "layout(push_constant) uniform Params { uint iters; };\n"
        "shared float tile[256];\n"
        "void main() {\n"
        "    uint l = gl_LocalInvocationID.x;\n"
        "    tile[l] = float(l);\n"
        "    barrier();\n"
        "    float acc = 0.0;\n"
        "    for (uint k = 0; k < iters; k++)\n"
        "        acc += tile[(l + k) & 255u];\n"
        "    o[gl_GlobalInvocationID.x] = acc;\n"
        "}\n";
    eval_options o;
    eval_default_options(&o);
    o.step_budget = 2e6; /* far less than running every iteration */
    run x;
    run_kernel(&x, src,
               "{\"kernels\":[{\"name\":\"s\",\"shader\":\"k.comp\","
               "\"workgroups\":[1024,1,1],\"push\":{\"iters\":1024},"
               "\"buffers\":[{\"binding\":0,\"elements\":262144}]}]}",
               &o);
    const double inv = 1024.0 * 256;
    assert_true(x.kc.flops_fp32 == inv * 1024);
    assert_true(x.kc.shared_load_bytes == inv * 1024 * 4);
    assert_true(x.kc.shared_store_bytes == inv * 4);
    assert_true(x.kc.compulsory_write_bytes == inv * 4);
    assert_int_equal(x.kc.conf, CONF_EXACT);
    assert_int_equal(errors(x.kr), 0);
    kfix_close(&x);
}

/* Only even lanes store: the per-lane step is still one float and the
 * access is not uniform. */
static void test_strides_with_gaps(void **state)
{
    (void)state;
    static const char *src =
        "#version 450\n"
        "layout(local_size_x = 64) in;\n"
        "layout(set = 0, binding = 0) buffer Out { float o[]; };\n"
        "void main() {\n"
        "    uint i = gl_GlobalInvocationID.x;\n"
        "    if ((i & 1u) == 0u)\n"
        "        o[i] = 1.0;\n"
        "    o[64u + i * 4u] = 2.0;\n"
        "}\n";
    run x;
    run_kernel(&x, src,
               "{\"kernels\":[{\"name\":\"g\",\"shader\":\"k.comp\","
               "\"workgroups\":[1,1,1],\"buffers\":[{\"binding\":0,\"elements\":320}]}]}",
               NULL);
    int seen = 0;
    for (size_t a = 0; a < x.kc.naccesses; a++) {
        const access_summary *s = &x.kc.accesses[a];
        if (s->line == 7) {
            assert_false(s->uniform);
            assert_true(s->stride_known);
            assert_int_equal(s->lane_stride_bytes, 4);
            assert_true(s->count == 32);
            seen |= 1;
        }
        if (s->line == 8) {
            assert_int_equal(s->lane_stride_bytes, 16);
            seen |= 2;
        }
    }
    assert_int_equal(seen, 3);
    /* 32 floats at even indices of [0, 63], and 64 floats in [64, 319] */
    assert_true(x.kc.compulsory_write_bytes == 32 * 4 + 64 * 4);
    kfix_close(&x);
}

/* The same kernels optimised by glslc -O (SSA form: phis instead of
 * function variables) give the same FLOPs and compulsory bytes. */
static void test_optimised_modules_agree(void **state)
{
    (void)state;
    static const struct {
        const char *file, *plan;
    } cases[] = {
        {"examples/kernels/reduce.comp",
         "{\"kernels\":[{\"name\":\"r\",\"shader\":\"k.comp\",\"workgroups\":[40,1,1],"
         "\"push\":{\"n\":10000},\"buffers\":[{\"binding\":0,\"elements\":10000},"
         "{\"binding\":1,\"elements\":40}]}]}"},
        {"examples/kernels/matmul_tiled.comp",
         "{\"kernels\":[{\"name\":\"m\",\"shader\":\"k.comp\",\"workgroups\":[4,4,1],"
         "\"push\":{\"n\":64},\"buffers\":[{\"binding\":0,\"elements\":4096},"
         "{\"binding\":1,\"elements\":4096},{\"binding\":2,\"elements\":4096}]}]}"},
        {"examples/kernels/stencil.comp",
         "{\"kernels\":[{\"name\":\"s\",\"shader\":\"k.comp\",\"workgroups\":[3,3,1],"
         "\"push\":{\"w\":40,\"h\":40},\"buffers\":[{\"binding\":0,\"elements\":1600},"
         "{\"binding\":1,\"elements\":1600}]}]}"},
    };
    const char *root = getenv("CW_TEST_ROOT");
    if (system("glslc --version > /dev/null 2>&1") != 0)
        skip();
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *src = read_text(cases[i].file);
        assert_non_null(src);
        run a;
        run_kernel(&a, src, cases[i].plan, NULL);
        char spv[] = "/tmp/cw_eval_opt_XXXXXX";
        int fd = mkstemp(spv);
        assert_true(fd >= 0);
        close(fd);
        char cmd[2048];
        snprintf(cmd, sizeof cmd, "glslc -O -g -fshader-stage=compute '%s/%s' -o '%s'",
                 root && *root ? root : ".", cases[i].file, spv);
        assert_int_equal(system(cmd), 0);
        FILE *f = fopen(spv, "rb");
        assert_non_null(f);
        uint32_t words[1 << 16];
        size_t nw = fread(words, 4, sizeof words / 4, f);
        fclose(f);
        unlink(spv);
        spv_module m;
        cw_error err;
        assert_int_equal(spv_parse(words, nw, &m, &err), 0);
        int phis = 0;
        for (size_t k = 0; k < m.ninsts; k++)
            phis += m.insts[k].opcode == 245; /* OpPhi */
        assert_true(phis > 0);
        reflection r;
        reflect_module(&m, spv_entry_find(&m, "main"), &r);
        kernel_counts kc;
        device_profile prof;
        profile_init(&prof);
        prof.limits.subgroup_size = 8;
        assert_int_equal(eval_run(&m, &r, &a.p.kernels[0], &prof, &kc, NULL), 0);
        assert_true(flops(&kc) == flops(&a.kc));
        assert_true(kc.compulsory_read_bytes == a.kc.compulsory_read_bytes);
        assert_true(kc.compulsory_write_bytes == a.kc.compulsory_write_bytes);
        assert_true(kc.barriers == a.kc.barriers);
        assert_int_equal(kc.conf, CONF_EXACT);
        eval_counts_free(&kc);
        reflect_free(&r);
        spv_free(&m);
        kfix_close(&a);
        free(src);
    }
}

/* A long straight-line module without shared memory: only the first and
 * last subgroup of each workgroup run, the counts are scaled and say so. */
static void test_long_module_sampled(void **state)
{
    (void)state;
    size_t cap = 64 * 1024, len = 0;
    char *src = malloc(cap);
    assert_non_null(src);
    len += (size_t)snprintf(src + len, cap - len,
                            "#version 450\n"
                            "layout(local_size_x = 64) in;\n"
                            "layout(set = 0, binding = 0) readonly buffer X { float x[]; };\n"
                            "layout(set = 0, binding = 1) buffer Y { float y[]; };\n"
                            "void main() {\n"
                            "    uint i = gl_GlobalInvocationID.x;\n"
                            "    float acc = 0.0;\n");
    for (int j = 0; j < 800; j++)
        len += (size_t)snprintf(src + len, cap - len,
                                "    acc = acc * %d.5 + x[i + %du];\n", j % 7 + 1, j);
    snprintf(src + len, cap - len, "    y[i] = acc;\n}\n");
    run x;
    run_kernel(&x, src,
               "{\"kernels\":[{\"name\":\"l\",\"shader\":\"k.comp\","
               "\"workgroups\":[16,1,1],\"buffers\":[{\"binding\":0,\"elements\":1824},"
               "{\"binding\":1,\"elements\":1024}]}]}",
               NULL);
    assert_true(x.kc.flops_fp32 == 1024 * 800 * 2.0);
    assert_true(x.kc.storage_load_bytes == 1024 * 800 * 4.0);
    assert_int_equal(x.kc.conf, CONF_ESTIMATED);
    int said = 0;
    for (size_t i = 0; i < x.kc.nassumptions; i++)
        said |= strstr(x.kc.assumptions[i], "first and last subgroup") != NULL;
    assert_true(said);
    /* the sampled lanes still see the whole index range */
    for (size_t a = 0; a < x.kc.naccesses; a++)
        if (x.kc.accesses[a].is_store) {
            assert_int_equal(x.kc.accesses[a].index_min, 0);
            assert_int_equal(x.kc.accesses[a].index_max, 1023);
        }
    assert_int_equal(errors(x.kr), 0);
    kfix_close(&x);
    free(src);
}

/* Modules that parse but were never validated (mutated words): the
 * evaluator must neither crash nor hang on them. */
static void test_mutations(void **state)
{
    (void)state;
    static const char *const files[] = {
        "examples/kernels/reduce.comp", "examples/kernels/matmul_tiled.comp",
        "examples/kernels/stencil.comp",
    };
    eval_options o;
    eval_default_options(&o);
    o.step_budget = 2e5;
    o.max_groups = 8;
    uint32_t seed = 12345;
    int evaluated = 0;
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
        char *src = read_text(files[f]);
        assert_non_null(src);
        shader_module sm;
        cw_error err;
        assert_int_equal(shader_compile_glsl(files[f], src, strlen(src), &sm, &err), 0);
        plan p;
        char path[1024], text[512];
        const char *root = getenv("CW_TEST_ROOT");
        snprintf(path, sizeof path, "%s/t.json", root && *root ? root : ".");
        snprintf(text, sizeof text,
                 "{\"kernels\":[{\"name\":\"m\",\"shader\":\"%s\","
                 "\"workgroups\":[3,2,1],\"push\":{\"n\":64,\"w\":40,\"h\":40},"
                 "\"buffers\":[{\"binding\":0,\"elements\":4096},"
                 "{\"binding\":1,\"elements\":4096},{\"binding\":2,\"elements\":4096}]}]}",
                 files[f]);
        assert_int_equal(plan_load_text(path, text, strlen(text), &p, &err), 0);
        uint32_t *w = malloc(sm.nwords * sizeof *w);
        const char *env = getenv("CW_EVAL_MUTATIONS");
        int iters = env && atoi(env) > 0 ? atoi(env) : 150;
        for (int it = 0; it < iters; it++) {
            memcpy(w, sm.words, sm.nwords * sizeof *w);
            int nm = 1 + (int)(seed % 3);
            for (int k = 0; k < nm; k++) {
                seed = seed * 1103515245u + 12345u;
                size_t at = 5 + (seed >> 8) % (sm.nwords - 5);
                seed = seed * 1103515245u + 12345u;
                switch (seed % 4) {
                case 0: w[at] ^= 1u << ((seed >> 8) % 32); break;
                case 1: w[at] = (seed >> 4) % 64; break;
                case 2: w[at] += 1; break;
                default: w[at] = w[5 + (seed >> 10) % (sm.nwords - 5)]; break;
                }
            }
            spv_module m;
            if (spv_parse(w, sm.nwords, &m, &err))
                continue;
            if (spv_specialize(&m, NULL, 0, NULL, &err) == 0) {
                const spv_entry *e = spv_entry_find(&m, "main");
                reflection r;
                reflect_module(&m, e, &r);
                report rep;
                report_init(&rep);
                kernel_report *kr = report_add_kernel(&rep, "m");
                kernel_counts kc;
                eval_run_opts(&m, &r, &p.kernels[0], NULL, &o, &kc, kr);
                evaluated++;
                eval_counts_free(&kc);
                report_free(&rep);
                reflect_free(&r);
            }
            spv_free(&m);
        }
        free(w);
        plan_free(&p);
        shader_free(&sm);
        free(src);
    }
    assert_true(evaluated > 50);
}

/* Four independent accumulators in the hot loop: four FP chains. */
static void test_fp_chains(void **state)
{
    (void)state;
    static const char *src =
        "#version 450\n"
        "layout(local_size_x = 64) in;\n"
        "layout(set = 0, binding = 0) buffer D { float d[]; };\n"
        "layout(push_constant) uniform P { uint n; };\n"
        "void main() {\n"
        "    uint i = gl_GlobalInvocationID.x;\n"
        "    float a = d[i], b = a + 1.0, c = a + 2.0, e = a + 3.0;\n"
        "    for (uint k = 0; k < n; ++k) {\n"
        "        a = fma(a, 0.999, 0.5); b = fma(b, 0.999, 0.5);\n"
        "        c = fma(c, 0.999, 0.5); e = fma(e, 0.999, 0.5);\n"
        "    }\n"
        "    d[i] = a + b + c + e;\n"
        "}\n";
    run x;
    run_kernel(&x, src,
               "{\"kernels\":[{\"name\":\"f\",\"shader\":\"k.comp\","
               "\"workgroups\":[1,1,1],\"push\":{\"n\":1000},"
               "\"buffers\":[{\"binding\":0,\"elements\":64}]}]}",
               NULL);
    assert_int_equal(x.kc.fp_chains, 4);
    /* 3 adds before, 4 FMAs x n, 3 adds after, per invocation */
    assert_true(x.kc.flops_fp32 == 64 * (3 + 4 * 2 * 1000.0 + 3));
    assert_int_equal(x.kc.conf, CONF_EXACT);
    kfix_close(&x);
}

/* Forty nested loops and branches (3^20 innermost iterations): the step
 * budget stops it; the counts are estimated and say so. */
static void test_deep_nesting_budget(void **state)
{
    (void)state;
    char src[8192];
    size_t n = 0;
    n += (size_t)snprintf(src + n, sizeof src - n,
                          "#version 450\n"
                          "layout(local_size_x = 32) in;\n"
                          "layout(set = 0, binding = 0) buffer D { float d[]; };\n"
                          "void main() {\n"
                          "    uint i = gl_GlobalInvocationID.x;\n"
                          "    float s = 0.0;\n");
    for (int k = 0; k < 40; k++)
        n += (size_t)snprintf(src + n, sizeof src - n,
                              k % 2 == 0 ? "    for (uint k%d = 0; k%d < 3; ++k%d) {\n"
                                         : "    if (i + %du > k%d) {\n",
                              k % 2 == 0 ? k : k, k % 2 == 0 ? k : k - 1, k);
    n += (size_t)snprintf(src + n, sizeof src - n, "    s += 1.0;\n");
    for (int k = 0; k < 40; k++)
        n += (size_t)snprintf(src + n, sizeof src - n, "    }\n");
    snprintf(src + n, sizeof src - n, "    d[i] = s;\n}\n");
    run x;
    clock_t t0 = clock();
    run_kernel(&x, src,
               "{\"kernels\":[{\"name\":\"deep\",\"shader\":\"k.comp\","
               "\"workgroups\":[2,1,1],\"buffers\":[{\"binding\":0,\"elements\":64}]}]}",
               NULL);
    double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
    assert_true(secs < 10.0);
    assert_int_equal(x.rc, 0);
    assert_int_equal(x.kc.conf, CONF_ESTIMATED);
    int said = 0;
    for (size_t i = 0; i < x.kc.nassumptions; i++)
        said |= strstr(x.kc.assumptions[i], "budget") != NULL;
    assert_true(said);
    kfix_close(&x);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_saxpy_small),
        cmocka_unit_test(test_saxpy_large),
        cmocka_unit_test(test_gemm_naive_2d),
        cmocka_unit_test(test_gemm_tiled),
        cmocka_unit_test(test_stencil),
        cmocka_unit_test(test_reduce),
        cmocka_unit_test(test_transpose),
        cmocka_unit_test(test_matvec_push_bound),
        cmocka_unit_test(test_3d),
        cmocka_unit_test(test_3d_sampled),
        cmocka_unit_test(test_data_dependent),
        cmocka_unit_test(test_huge_loop_budget),
        cmocka_unit_test(test_deep_nesting_budget),
        cmocka_unit_test(test_fp_chains),
        cmocka_unit_test(test_mutations),
        cmocka_unit_test(test_histogram_grid_stride),
        cmocka_unit_test(test_loop_modulo_branch),
        cmocka_unit_test(test_subgroup_elect),
        cmocka_unit_test(test_shared_nonaffine_loop),
        cmocka_unit_test(test_strides_with_gaps),
        cmocka_unit_test(test_optimised_modules_agree),
        cmocka_unit_test(test_long_module_sampled),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
