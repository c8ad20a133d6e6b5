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

/* Calls are inlined by the driver's compiler: a helper called with an
 * unrolled loop's counter folds like the same expression written inline.
 * Per invocation (n = 4 trips of the kept r loop, 8 unrolled j): off(j)'s
 * four integer operations fold at every call (0, against 4 x 32 counted
 * as written); off(j) + x varies in j only, so it is hoisted out of r (8);
 * acc += ... 32; the r loop's compare 5 and increment 4.  The call and the
 * callee's return are no instructions: the counts equal the inline
 * kernel's. */
#define CALL_HEAD "#version 450\n" \
    "layout(local_size_x = 8) in;\n" \
    "layout(set = 0, binding = 0) writeonly buffer O { uint dst[]; };\n" \
    "layout(push_constant) uniform P { uint n; };\n"
#define CALL_LOOP(expr) \
    "void main() {\n" \
    "    uint x = gl_GlobalInvocationID.x;\n" \
    "    uint acc = 0u;\n" \
    "    for (uint r = 0u; r < n; r++)\n" \
    "        for (uint j = 0u; j < 8u; j++)\n" \
    "            acc += " expr " + x;\n" \
    "    dst[x] = acc;\n" \
    "}\n"
static const char call_off[] = CALL_HEAD
    "uint off(uint j) { return (j & 3u) * 5u + (j >> 2); }\n" CALL_LOOP("off(j)");
static const char call_inline[] = CALL_HEAD CALL_LOOP("((j & 3u) * 5u + (j >> 2))");
static const char call_plan[] =
    "\"workgroups\": [1, 1, 1], \"push\": {\"n\": 4}, \"buffers\": "
    "[{\"binding\": 0, \"elements\": 8}]";

/* the executed counts of a kernel with a call, which must be those of the
 * same kernel with the call written inline */
static void counts_as_inline(const char *with_call, const char *inlined, const char *pl,
                             kernel_counts *kc)
{
    kernel_counts in;
    counts_of(with_call, pl, 64, DEVICE_KIND_GPU, kc);
    counts_of(inlined, pl, 64, DEVICE_KIND_GPU, &in);
    assert_float_equal(kc->instructions, in.instructions, 1e-9);
    assert_float_equal(kc->int_ops, in.int_ops, 1e-9);
    eval_counts_free(&in);
}

static void test_call_folds_inlined(void **state)
{
    (void)state;
    kernel_counts kc, raw;
    counts_as_inline(call_off, call_inline, call_plan, &kc);
    counts_of(call_off, call_plan, 0, DEVICE_KIND_GPU, &raw);
    assert_float_equal(kc.int_ops / LANES, 8 + 32 + 5 + 4, 1e-9);
    assert_float_equal(kc.loop_ctl_int_ops / LANES, 5 + 4, 1e-9);
    /* as written: 4 a call, 32 calls, the sum and the add 32 each, and
     * the control of both loops (r: 5 + 4; j: 9 + 8 a trip of r) */
    assert_float_equal(raw.int_ops / LANES, 128 + 64 + 9 + 4 * 17, 1e-9);
    eval_counts_free(&kc);
    eval_counts_free(&raw);
}

/* A helper that loads through an out parameter: the caller's variable
 * changes at every call, so t * 3u is not a constant of the unrolled loop
 * (it was folded while calls were opaque).  Per invocation: x + j, t * 3u
 * and acc += ... 8 each = 24, as the inline kernel's. */
#define OUT_HEAD "#version 450\n" \
    "layout(local_size_x = 8) in;\n" \
    "layout(set = 0, binding = 0) readonly buffer I { uint src[]; };\n" \
    "layout(set = 0, binding = 1) writeonly buffer O { uint dst[]; };\n"
#define OUT_BODY(get) \
    "void main() {\n" \
    "    uint x = gl_GlobalInvocationID.x;\n" \
    "    uint acc = 0u;\n" \
    "    for (uint j = 0u; j < 8u; j++) {\n" \
    "        uint t;\n" \
    "        " get ";\n" \
    "        acc += t * 3u;\n" \
    "    }\n" \
    "    dst[x] = acc;\n" \
    "}\n"
static const char out_call[] = OUT_HEAD
    "void get(out uint v, uint k) { v = src[k]; }\n" OUT_BODY("get(t, x + j)");
static const char out_inline[] = OUT_HEAD OUT_BODY("t = src[x + j]");
static const char out_plan[] =
    "\"workgroups\": [1, 1, 1], \"buffers\": [{\"binding\": 0, \"elements\": 16}, "
    "{\"binding\": 1, \"elements\": 8}]";

static void test_out_parameter_varies(void **state)
{
    (void)state;
    kernel_counts kc;
    counts_as_inline(out_call, out_inline, out_plan, &kc);
    assert_float_equal(kc.int_ops / LANES, 24, 1e-9);
    eval_counts_free(&kc);
}

/* In a callee, what depends on none of its parameters (n * 4u - 1u: a
 * push constant) is the same at every inlined call: computed once an
 * invocation (2 integer operations, against 2 at each of the 32 calls).
 * What depends on a parameter (the min, 32) is counted at every call.
 * Per invocation: 2 + 32; x + j and lim(...) + x vary in j only, hoisted
 * out of r (8 each); acc += ... 32; the r loop's control 5 + 4. */
static const char call_lim[] = CALL_HEAD
    "uint lim(uint v) { return min(v, n * 4u - 1u); }\n" CALL_LOOP("lim(x + j)");

static void test_callee_invariant_once(void **state)
{
    (void)state;
    kernel_counts kc;
    counts_of(call_lim, call_plan, 64, DEVICE_KIND_GPU, &kc);
    assert_float_equal(kc.int_ops / LANES, 2 + 32 + 8 + 8 + 32 + 5 + 4, 1e-9);
    eval_counts_free(&kc);
}

/* ...but a callee value computed from memory is not: the buffer may change
 * between the calls (here the caller stores to it).  Per invocation:
 * v[0] * 3u at each of the 8 calls, acc += ... 8, x + 1 hoisted out of
 * the unrolled loop (1). */
static const char call_mem[] =
    "#version 450\n"
    "layout(local_size_x = 8) in;\n"
    "layout(set = 0, binding = 0) buffer B { uint v[]; };\n"
    "uint rd() { return v[0] * 3u; }\n"
    "void main() {\n"
    "    uint x = gl_GlobalInvocationID.x;\n"
    "    uint acc = 0u;\n"
    "    for (uint j = 0u; j < 8u; j++) {\n"
    "        acc += rd();\n"
    "        v[x + 1u] = acc;\n"
    "    }\n"
    "    v[x] = acc;\n"
    "}\n";

static void test_callee_memory_every_call(void **state)
{
    (void)state;
    kernel_counts kc;
    counts_of(call_mem, "\"workgroups\": [1, 1, 1], \"buffers\": [{\"binding\": 0, "
                        "\"elements\": 16}]", 64, DEVICE_KIND_GPU, &kc);
    assert_float_equal(kc.int_ops / LANES, 8 + 8 + 1, 1e-9);
    eval_counts_free(&kc);
}

/* The same load two calls deep (an out parameter handed on): still the
 * inline kernel's counts, t * 3u not folded. */
static const char out_nested[] = OUT_HEAD
    "void get(out uint v, uint k) { v = src[k]; }\n"
    "void fetch(out uint w, uint k) { get(w, k); }\n" OUT_BODY("fetch(t, x + j)");

static void test_nested_out_parameter(void **state)
{
    (void)state;
    kernel_counts kc;
    counts_as_inline(out_nested, out_inline, out_plan, &kc);
    assert_float_equal(kc.int_ops / LANES, 24, 1e-9);
    eval_counts_free(&kc);
}

/* A helper's value chosen by a branch on its parameter varies with the
 * parameter, though each value it can take is a constant: r * r + r runs
 * at every call, as in the inline kernel (it was counted once an
 * invocation, as if r were a constant of the callee). */
#define PICK_HEAD CALL_HEAD
#define PICK_MAIN(body) \
    "void main() {\n" \
    "    uint x = gl_GlobalInvocationID.x;\n" \
    "    uint acc = 0u;\n" \
    "    for (uint j = 0u; j < n; j++) {\n" \
    "        " body "\n" \
    "    }\n" \
    "    dst[x] = acc;\n" \
    "}\n"
static const char pick_call[] = PICK_HEAD
    "uint pick(uint v) { uint r; if (v > 3u) r = 7u; else r = 11u; return r * r + r; }\n"
    PICK_MAIN("acc += pick(x + j);");
static const char pick_inline[] = PICK_HEAD
    PICK_MAIN("uint r; if (x + j > 3u) r = 7u; else r = 11u; acc += r * r + r;");

static void test_callee_branch_chosen(void **state)
{
    (void)state;
    kernel_counts kc, once;
    counts_as_inline(pick_call, pick_inline, call_plan, &kc);
    /* r * r + r at each of the 4 calls, not once: at least 2 x 3 more
     * integer operations than a kernel that computes it once */
    counts_of(CALL_HEAD "void main() { uint x = gl_GlobalInvocationID.x; uint acc = 0u;\n"
              "uint r = x > 3u ? 7u : 11u; uint k = r * r + r;\n"
              "for (uint j = 0u; j < n; j++) acc += k + x + j;\n"
              "dst[x] = acc; }\n",
              call_plan, 64, DEVICE_KIND_GPU, &once);
    assert_true(kc.int_ops / LANES >= once.int_ops / LANES + 6);
    eval_counts_free(&kc);
    eval_counts_free(&once);
}

/* A module-scope variable the program changes between two calls: the
 * callee that reads it computes again at every call (the three calls here
 * were counted as one). */
#define PRIV_HEAD CALL_HEAD "uint g;\n"
static const char priv_call[] = PRIV_HEAD
    "uint sq() { uint t = g * g + g; return t * t - g; }\n"
    "void main() {\n"
    "    uint x = gl_GlobalInvocationID.x;\n"
    "    g = x * 5u;\n"
    "    uint a = sq();\n"
    "    g = a + 1u;\n"
    "    uint b = sq();\n"
    "    g = b ^ x;\n"
    "    dst[x] = a + b + sq();\n"
    "}\n";
static const char priv_inline[] = PRIV_HEAD
    "void main() {\n"
    "    uint x = gl_GlobalInvocationID.x;\n"
    "    g = x * 5u;\n"
    "    uint t = g * g + g; uint a = t * t - g;\n"
    "    g = a + 1u;\n"
    "    t = g * g + g; uint b = t * t - g;\n"
    "    g = b ^ x;\n"
    "    t = g * g + g;\n"
    "    dst[x] = a + b + (t * t - g);\n"
    "}\n";

static void test_private_between_calls(void **state)
{
    (void)state;
    kernel_counts kc;
    counts_as_inline(priv_call, priv_inline, call_plan, &kc);
    /* x * 5u, 4 at each of 3 calls, a + 1u, b ^ x, two adds */
    assert_float_equal(kc.int_ops / LANES, 1 + 12 + 1 + 1 + 2, 1e-9);
    eval_counts_free(&kc);
}

/* A private array read through a kept loop's counter cannot stay in
 * registers: the driver places it in local memory (H200 run 15).  The
 * counts name the loads (4 trips of the n loop a lane, line 10); the same
 * array read by an unrolled loop, and a vector indexed at run time
 * (selects), are not local memory. */
#define LOCAL_KERNEL(bound, decl, fill, read) \
    "#version 450\n" \
    "layout(local_size_x = 8) in;\n" \
    "layout(set = 0, binding = 0) writeonly buffer O { uint dst[]; };\n" \
    "layout(push_constant) uniform P { uint n; };\n" \
    "void main() {\n" \
    "    uint x = gl_GlobalInvocationID.x;\n" \
    "    " decl "\n" \
    "    " fill "\n" \
    "    uint acc = 0u;\n" \
    "    for (uint k = 0u; k < " bound "; k++) acc += " read ";\n" \
    "    dst[x] = acc;\n" \
    "}\n"

static void test_local_memory_array(void **state)
{
    (void)state;
    static const struct {
        const char *glsl;
        double loads;
    } cases[] = {
        {LOCAL_KERNEL("n", "uint v[16];", "for (uint j = 0u; j < 16u; j++) v[j] = x + j;",
                      "v[k & 15u]"), 4},
        {LOCAL_KERNEL("4u", "uint v[16];", "for (uint j = 0u; j < 16u; j++) v[j] = x + j;",
                      "v[k & 15u]"), 0},
        {LOCAL_KERNEL("n", "uvec4 w = uvec4(x, x + 1u, x + 2u, x + 3u);", "",
                      "w[k & 3u]"), 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        kernel_counts kc;
        counts_of(cases[i].glsl, call_plan, 64, DEVICE_KIND_GPU, &kc);
        if (kc.local_accesses / LANES != cases[i].loads)
            fail_msg("case %zu: %g local accesses a lane, want %g", i,
                     kc.local_accesses / LANES, cases[i].loads);
        if (cases[i].loads > 0) {
            assert_int_equal(kc.local_lines[0], 10);
            assert_string_equal(kc.local_var, "v");
            assert_true(has_assumption(&kc, "private array 'v' indexed by a value that does not fold"));
        } else {
            assert_false(has_assumption(&kc, "local memory"));
        }
        eval_counts_free(&kc);
    }
    /* the CPU device: counted as written, nothing marked */
    kernel_counts cpu;
    counts_of(cases[0].glsl, call_plan, 0, DEVICE_KIND_CPU_VULKAN, &cpu);
    assert_true(cpu.local_accesses == 0);
    eval_counts_free(&cpu);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unrolled_weights_fold),
        cmocka_unit_test(test_cpu_device_counts_as_written),
        cmocka_unit_test(test_row_clamp_hoisted),
        cmocka_unit_test(test_runtime_trips_not_folded),
        cmocka_unit_test(test_one_op_chain_control),
        cmocka_unit_test(test_call_folds_inlined),
        cmocka_unit_test(test_out_parameter_varies),
        cmocka_unit_test(test_nested_out_parameter),
        cmocka_unit_test(test_callee_invariant_once),
        cmocka_unit_test(test_callee_memory_every_call),
        cmocka_unit_test(test_callee_branch_chosen),
        cmocka_unit_test(test_private_between_calls),
        cmocka_unit_test(test_local_memory_array),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
