/* test_eval_compiled.c - executed counts (verifier/eval_compiled.h): loops
 * the compiler fully unrolls, arithmetic it folds and hoists, the loop
 * control of the loops it keeps.  Every expected count is worked out by
 * hand from the kernel's source (one workgroup of 8 invocations). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "eval.h"
#include "eval_fixture.h"
#include "plan.h"
#include "report.h"
#include "verifier.h"

#define LANES 8.0

/* the whole evaluator on glsl with a GPU (or lavapipe) profile that says
 * how far the driver unrolls */
static void counts_of(const char *glsl, const char *kernel_json, uint32_t unroll,
                      device_kind kind, kernel_counts *kc)
{
    plan p;
    plan_kernel *k = efix_plan(&p, kernel_json);
    device_profile prof;
    profile_init(&prof);
    prof.kind = kind;
    prof.limits.subgroup_size = 8;
    prof.full_unroll_trips = unroll;
    report rep;
    kernel_report *kr;
    assert_int_equal(efix_eval_prof(glsl, k, NULL, &prof, kc, &rep, &kr), 0);
    report_free(&rep);
    plan_free(&p);
}

static int has_assumption(const kernel_counts *kc, const char *s)
{
    for (size_t i = 0; i < kc->nassumptions; i++)
        if (strstr(kc->assumptions[i], s))
            return 1;
    return 0;
}

/* 5 x 5 constant trips: the weight 1/(1 + dx^2 + dy^2) depends on the
 * counters only and folds (25 divisions -> 0).  Integer work per
 * invocation: x + dx (varies in dx only: 5 copies, hoisted out of dy),
 * dy * w (5), their sum (25) = 35; written, it is 7 a tap (175) plus the
 * loop control (6 + 5 compares and increments of dy, 30 + 25 of dx). */
static const char conv5[] =
    "#version 450\n"
    "layout(local_size_x = 8) in;\n"
    "layout(set = 0, binding = 0) readonly buffer I { float src[]; };\n"
    "layout(set = 0, binding = 1) writeonly buffer O { float dst[]; };\n"
    "layout(push_constant) uniform P { int w; };\n"
    "void main() {\n"
    "    int x = int(gl_GlobalInvocationID.x);\n"
    "    float acc = 0.0;\n"
    "    for (int dy = 0; dy < 5; dy++)\n"
    "        for (int dx = 0; dx < 5; dx++) {\n"
    "            float wt = 1.0 / float(1 + dx * dx + dy * dy);\n"
    "            acc += wt * src[x + dx + dy * w];\n"
    "        }\n"
    "    dst[x] = acc;\n"
    "}\n";
static const char conv5_plan[] =
    "\"workgroups\": [1, 1, 1], \"push\": {\"w\": 64}, \"buffers\": "
    "[{\"binding\": 0, \"elements\": 512}, {\"binding\": 1, \"elements\": 8}]";

static void test_unrolled_weights_fold(void **state)
{
    (void)state;
    kernel_counts kc;
    counts_of(conv5, conv5_plan, 0, DEVICE_KIND_GPU, &kc);
    assert_float_equal(kc.sfu_ops / LANES, 25, 1e-9);
    assert_float_equal(kc.int_ops / LANES, 175 + 66, 1e-9);
    assert_float_equal(kc.flops_fp32 / LANES, 50, 1e-9);
    eval_counts_free(&kc);

    counts_of(conv5, conv5_plan, 16, DEVICE_KIND_GPU, &kc);
    assert_float_equal(kc.sfu_ops / LANES, 0, 1e-9);
    assert_float_equal(kc.int_ops / LANES, 35, 1e-9);
    assert_float_equal(kc.flops_fp32 / LANES, 50, 1e-9); /* the taps stay */
    assert_float_equal(kc.loop_trips, 0, 0);             /* nothing kept */
    assert_true(has_assumption(&kc, "2 of 2 loop(s) fully unrolled"));
    /* the source lines named: the weight (line 14 of conv5) folded, the
     * column address x + dx (line 15) hoisted out of the dy loop */
    assert_true(has_assumption(&kc, "; folded at line(s) "));
    assert_true(has_assumption(&kc, "hoisted at line(s) "));
    eval_counts_free(&kc);

    /* a limit below 5 trips: nothing unrolled, nothing folded */
    counts_of(conv5, conv5_plan, 4, DEVICE_KIND_GPU, &kc);
    assert_float_equal(kc.sfu_ops / LANES, 25, 1e-9);
    assert_true(has_assumption(&kc, "0 of 2 loop(s) fully unrolled"));
    eval_counts_free(&kc);
}

/* lavapipe: the same profile field does not apply (counts as written) */
static void test_cpu_device_counts_as_written(void **state)
{
    (void)state;
    kernel_counts kc;
    counts_of(conv5, conv5_plan, 16, DEVICE_KIND_CPU_VULKAN, &kc);
    assert_float_equal(kc.sfu_ops / LANES, 25, 1e-9);
    assert_float_equal(kc.int_ops / LANES, 175 + 66, 1e-9);
    assert_false(has_assumption(&kc, "fully unrolled"));
    eval_counts_free(&kc);
}

/* 3 x 3 loops kept (limit 1 trip): the row clamp is invariant in the dx
 * loop and runs once per dy trip.  Per invocation: y + dy 3, h - 1 1,
 * clamp(yy) 3, yy * w 3 (all hoisted out of dx), x + dx 9, w - 1 1,
 * clamp(xx) 9, the address sum 9 = 38; the kept loops' control: dy
 * compares 4 and increments 3, dx compares 12 and increments 9 = 28. */
static const char clamp3[] =
    "#version 450\n"
    "layout(local_size_x = 8) in;\n"
    "layout(set = 0, binding = 0) readonly buffer I { float src[]; };\n"
    "layout(set = 0, binding = 1) writeonly buffer O { float dst[]; };\n"
    "layout(push_constant) uniform P { int w; int h; };\n"
    "void main() {\n"
    "    int x = int(gl_GlobalInvocationID.x), y = int(gl_GlobalInvocationID.y);\n"
    "    float acc = 0.0;\n"
    "    for (int dy = -1; dy <= 1; dy++)\n"
    "        for (int dx = -1; dx <= 1; dx++) {\n"
    "            int yy = clamp(y + dy, 0, h - 1);\n"
    "            int xx = clamp(x + dx, 0, w - 1);\n"
    "            acc += src[yy * w + xx];\n"
    "        }\n"
    "    dst[x] = acc;\n"
    "}\n";

static void test_row_clamp_hoisted(void **state)
{
    (void)state;
    const char *pl = "\"workgroups\": [1, 1, 1], \"push\": {\"w\": 64, \"h\": 4}, "
                     "\"buffers\": [{\"binding\": 0, \"elements\": 256}, "
                     "{\"binding\": 1, \"elements\": 8}]";
    kernel_counts kc;
    counts_of(clamp3, pl, 1, DEVICE_KIND_GPU, &kc);
    assert_float_equal(kc.int_ops / LANES, 38 + 28, 1e-9);
    /* the two kept loops: 3 + 9 trips an invocation, their control the
     * 28 integer operations above */
    assert_float_equal(kc.loop_trips / LANES, 12, 1e-9);
    assert_float_equal(kc.loop_ctl_int_ops / LANES, 28, 1e-9);
    eval_counts_free(&kc);
    /* as written: clamp pair and address arithmetic on every tap */
    counts_of(clamp3, pl, 0, DEVICE_KIND_GPU, &kc);
    assert_float_equal(kc.int_ops / LANES, 9 * 8 + 28, 1e-9);
    eval_counts_free(&kc);
}

/* A trip count known only at run time (a push constant) is not unrolled:
 * the weight's division stays, once per trip (n = 6). */
static const char runtime_trips[] =
    "#version 450\n"
    "layout(local_size_x = 8) in;\n"
    "layout(set = 0, binding = 0) readonly buffer I { float src[]; };\n"
    "layout(set = 0, binding = 1) writeonly buffer O { float dst[]; };\n"
    "layout(push_constant) uniform P { int n; };\n"
    "void main() {\n"
    "    int x = int(gl_GlobalInvocationID.x);\n"
    "    float acc = 0.0;\n"
    "    for (int k = 0; k < n; k++)\n"
    "        acc += 1.0 / float(1 + k * k) * src[x + k];\n"
    "    dst[x] = acc;\n"
    "}\n";

static void test_runtime_trips_not_folded(void **state)
{
    (void)state;
    const char *pl = "\"workgroups\": [1, 1, 1], \"push\": {\"n\": 6}, "
                     "\"buffers\": [{\"binding\": 0, \"elements\": 64}, "
                     "{\"binding\": 1, \"elements\": 8}]";
    kernel_counts kc;
    counts_of(runtime_trips, pl, 256, DEVICE_KIND_GPU, &kc);
    assert_float_equal(kc.sfu_ops / LANES, 6, 1e-9);
    assert_float_equal(kc.loop_trips / LANES, 6, 1e-9);
    assert_true(has_assumption(&kc, "0 of 1 loop(s) fully unrolled"));
    eval_counts_free(&kc);
}

/* One dependent FMA a trip, 10 trips from a push constant: the loop is
 * kept; its control is the compare (11 a lane) and the increment (10),
 * its trips 10 a lane; the FMA's push-constant operands are read once. */
static const char chain1[] =
    "#version 450\n"
    "layout(local_size_x = 8) in;\n"
    "layout(set = 0, binding = 0) writeonly buffer O { float o[]; };\n"
    "layout(push_constant) uniform P { uint iters; float a; float b; };\n"
    "void main() {\n"
    "    uint i = gl_GlobalInvocationID.x;\n"
    "    float x = float(i) * 1e-6;\n"
    "    for (uint k = 0u; k < iters; k++)\n"
    "        x = fma(x, a, b);\n"
    "    o[i] = x;\n"
    "}\n";

static void test_one_op_chain_control(void **state)
{
    (void)state;
    const char *pl = "\"workgroups\": [1, 1, 1], \"push\": {\"iters\": 10, \"a\": 0.5, "
                     "\"b\": 1.0}, \"buffers\": [{\"binding\": 0, \"elements\": 8}]";
    kernel_counts kc, raw;
    counts_of(chain1, pl, 64, DEVICE_KIND_GPU, &kc);
    counts_of(chain1, pl, 0, DEVICE_KIND_GPU, &raw);
    assert_float_equal(kc.flops_fp32 / LANES, 10 * 2 + 1, 1e-9);
    assert_float_equal(kc.loop_trips / LANES, 10, 1e-9);
    assert_float_equal(kc.loop_ctl_int_ops / LANES, 11 + 10, 1e-9);
    assert_float_equal(kc.int_ops / LANES, 11 + 10, 1e-9);
    /* the push-constant reads of the loop (a and b, 10 a lane each, and
     * the bound, 11) are constant-bank operands: none of the 31 runs */
    assert_float_equal((raw.instructions - kc.instructions) / LANES, 31, 1e-9);
    /* nothing is marked as loop control when the profile is silent */
    assert_float_equal(raw.loop_trips, 0, 0);
    eval_counts_free(&kc);
    eval_counts_free(&raw);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unrolled_weights_fold),
        cmocka_unit_test(test_cpu_device_counts_as_written),
        cmocka_unit_test(test_row_clamp_hoisted),
        cmocka_unit_test(test_runtime_trips_not_folded),
        cmocka_unit_test(test_one_op_chain_control),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
