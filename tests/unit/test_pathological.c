/* test_pathological.c - valid but pathological modules through the whole
 * static path (validation, reflection, evaluator, checks, model), as
 * `clockwork check` runs it: deep nesting, a loop of 2^31 iterations, a
 * 64-bit loop counter, a long OpPhi chain, unreachable blocks, a
 * spec-constant workgroup size, and ~100,000 instructions.
 *
 * Each must finish (an alarm guards every test: a hang fails it instead of
 * hanging the suite; no timing assertion), stay within a memory budget
 * (peak RSS, generous), produce a prediction, and say what was estimated:
 * where the evaluator could not execute everything the confidence is
 * "estimated" with at least one assumption naming why.
 *
 * The SPIR-V-only shapes (phi chains, unreachable blocks, 100k
 * instructions) are written as SPIR-V assembly here and assembled with
 * SPIRV-Tools at run time, so nothing large is committed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>


#include "spirv_asm.h"
#include "unit.h"

#include "model.h"
#include "profile.h"
#include "shader.h"
#include "verifier.h"
#include "../fuzz/spirv_target.h" /* spirv_static_path */

/* Seconds a single pathological module may take (ASan builds on a loaded
 * 2-core machine included); the budget is the evaluator's own step
 * budget, this is only the backstop that turns a hang into a failure. */
#define GUARD_SECONDS 120
/* Peak RSS budget of the whole test program, in KiB. */
#define RSS_BUDGET_KIB (1536L * 1024)

static void on_alarm(int sig)
{
    (void)sig;
    static const char msg[] = "test_pathological: a module did not finish within "
                              "the guard: the analysis hangs\n";
    if (write(2, msg, sizeof msg - 1) < 0) {
        /* nothing else to do in a signal handler */
    }
    _exit(1);
}

typedef struct outcome {
    int analyzed;        /* verifier_analyze returned 0 and ok */
    double time_us;
    confidence conf;
    size_t nassumptions;
    char assumptions[8192];
    size_t nerrors;
    uint32_t local_x;
} outcome;

static void analyze(const shader_module *m, uint32_t wg_x, plan_value *spec, size_t nspec,
                    outcome *o)
{
    static device_profile prof;
    static int init;
    if (!init) {
        assert_int_equal(profile_builtin("h200", &prof), 0);
        init = 1;
    }
    memset(o, 0, sizeof *o);
    plan_value push[1] = {{.key = (char *)"n", .value = 1 << 20, .is_integer = 1,
                           .ivalue = 1 << 20}};
    plan_buffer bufs[2] = {{.binding = 0, .has_elements = 1, .elements = 1 << 20},
                           {.binding = 1, .has_elements = 1, .elements = 1 << 20}};
    plan_kernel k = {.name = (char *)"patho", .shader = (char *)"patho.comp",
                     .shader_path = (char *)"patho.comp", .entry = (char *)"main",
                     .workgroups = {wg_x, 1, 1}, .push = push, .npush = 1,
                     .spec = spec, .nspec = nspec, .buffers = bufs, .nbuffers = 2,
                     .min_efficiency = -1};
    report r;
    report_init(&r);
    kernel_report *kr = report_add_kernel(&r, "patho");
    alarm(GUARD_SECONDS);
    o->analyzed = spirv_static_path(&k, m, &prof, kr);
    alarm(0);
    o->time_us = kr->prediction.time_us;
    o->conf = kr->prediction.conf;
    o->nassumptions = kr->prediction.nassumptions;
    /* bounded append: once the buffer is full the rest is dropped (strncat's
     * "size - strlen - 2" wrapped around to SIZE_MAX on a full buffer) */
    for (size_t i = 0; i < kr->prediction.nassumptions; i++) {
        size_t used = strlen(o->assumptions);
        snprintf(o->assumptions + used, sizeof o->assumptions - used, "%s\n",
                 kr->prediction.assumptions[i]);
    }
    o->nerrors = kernel_report_count(kr, SEV_ERROR);
    o->local_x = kr->local_size[0];
    print_message("  %s: %.4g us, %s, %zu assumption(s)\n", m->path ? m->path : "?",
                  o->time_us, confidence_name(o->conf), o->nassumptions);
    if (getenv("CW_TEST_VERBOSE"))
        print_message("%s", o->assumptions);
    for (size_t i = 0; i < kr->nfindings; i++)
        if (kr->findings[i].sev == SEV_ERROR)
            print_message("  error finding: %s [%s]\n", kr->findings[i].message,
                          kr->findings[i].id);
    report_free(&r);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    assert_true(ru.ru_maxrss < RSS_BUDGET_KIB);
}

static void compile_glsl(const char *glsl, shader_module *m)
{
    cw_error err;
    cw_error_clear(&err);
    if (shader_compile_glsl("patho.comp", glsl, strlen(glsl), m, &err) != 0)
        fail_msg("glsl: %s", err.text);
}

static void assemble(const char *text, shader_module *m)
{
    cw_assemble(text, strlen(text), SPV_ENV_VULKAN_1_2, "patho.spv", m);
}

/* The prediction exists and, being estimated, says why. */
static void assert_estimated(const outcome *o, const char *word)
{
    assert_true(o->analyzed);
    assert_true(o->time_us > 0);
    assert_int_equal(o->conf, CONF_ESTIMATED);
    assert_true(o->nassumptions > 0);
    if (word && !strstr(o->assumptions, word))
        fail_msg("no assumption mentions '%s':\n%s", word, o->assumptions);
}

/* Exact or estimated, never silently: estimated always carries a reason. */
static void assert_honest(const outcome *o)
{
    assert_true(o->analyzed);
    assert_true(o->time_us > 0);
    assert_int_not_equal(o->conf, CONF_UNKNOWN);
    if (o->conf == CONF_ESTIMATED)
        assert_true(o->nassumptions > 0);
}

/* The module over wg_x groups runs into the step budget: an estimate that
 * says so.  Frees m. */
static void assert_budget_stops(shader_module *m, uint32_t wg_x)
{
    outcome o;
    analyze(m, wg_x, NULL, 0, &o);
    assert_estimated(&o, "budget");
    shader_free(m);
}

static void assert_glsl_budget_stops(const char *glsl, uint32_t wg_x)
{
    shader_module m;
    compile_glsl(glsl, &m);
    assert_budget_stops(&m, wg_x);
}

/* ---- GLSL shapes ---- */

/* The shapes' prologue: groups of 64, buffers a and b of elements of type
 * (after the #extension lines ext), push constant n, i the invocation. */
#define AB_KERNEL_HEAD(ext, type)                                            \
    "#version 450\n" ext                                                     \
    "layout(local_size_x = 64) in;\n"                                        \
    "layout(set = 0, binding = 0) buffer A { " type " a[]; };\n"             \
    "layout(set = 0, binding = 1) buffer B { " type " b[]; };\n"             \
    "layout(push_constant) uniform P { uint n; };\n"                         \
    "void main() {\n"                                                        \
    "    uint i = gl_GlobalInvocationID.x;\n"

static void test_loop_2_31(void **state)
{
    (void)state;
    assert_glsl_budget_stops(AB_KERNEL_HEAD("", "float")
                             "    float s = 0.0;\n"
                             "    for (uint k = 0u; k < 2147483648u; k++)\n"
                             "        s += a[(i + k) & 1023u] * 0.5;\n"
                             "    b[i & 1023u] = s;\n"
                             "}\n", 1024);
}

static void test_loop_64bit(void **state)
{
    (void)state;
    assert_glsl_budget_stops(AB_KERNEL_HEAD("#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require\n",
                                            "uint64_t")
                             "    uint64_t s = 0xffffffff00000000ul;\n"
                             "    for (uint64_t k = 0ul; k < (1ul << 40); k += 3ul)\n"
                             "        s = s * 6364136223846793005ul + a[uint(k & 1023ul)];\n"
                             "    b[i] = s >> 33;\n"
                             "}\n", 16);
}

/* 40 levels of nested loops and branches: 3^40 innermost paths. */
static void test_deep_nesting(void **state)
{
    (void)state;
    char glsl[16384];
    cw_glsl_nest(glsl, sizeof glsl,
                 "#version 450\nlayout(local_size_x = 64) in;\n"
                 "layout(set = 0, binding = 0) buffer A { float a[]; };\n"
                 "layout(set = 0, binding = 1) buffer B { float b[]; };\n"
                 "layout(push_constant) uniform P { uint n; };\n"
                 "void main() {\n uint i = gl_GlobalInvocationID.x;\n float s = 0.0;\n",
                 40, "for (uint k%d = 0u; k%d < 3u; k%d++) {\n",
                 "if (a[(i + %du) & 1023u] > 0.5) {\n", "s += 1.0;\n",
                 "b[i & 1023u] = s;\n}\n");
    shader_module m;
    compile_glsl(glsl, &m);
    outcome o;
    analyze(&m, 256, NULL, 0, &o);
    assert_honest(&o);
    shader_free(&m);
}

/* local_size_x from a spec constant: set by the plan (1024), and left at
 * its default. */
static void test_spec_workgroup_size(void **state)
{
    (void)state;
    shader_module m;
    compile_glsl("#version 450\n"
                 "layout(local_size_x_id = 0) in;\n"
                 "layout(constant_id = 1) const uint REPS = 4u;\n"
                 "layout(set = 0, binding = 0) buffer A { float a[]; };\n"
                 "layout(set = 0, binding = 1) buffer B { float b[]; };\n"
                 "layout(push_constant) uniform P { uint n; };\n"
                 "void main() {\n"
                 "    uint i = gl_GlobalInvocationID.x;\n"
                 "    float s = 0.0;\n"
                 "    for (uint k = 0u; k < REPS; k++) s += a[(i + k) % n];\n"
                 "    if (i < n) b[i] = s;\n"
                 "}\n",
                 &m);
    plan_value spec[2] = {{.key = (char *)"0", .value = 1024, .is_integer = 1, .ivalue = 1024},
                          {.key = (char *)"1", .value = 100000000, .is_integer = 1,
                           .ivalue = 100000000}};
    outcome o;
    analyze(&m, 1024, spec, 2, &o);
    assert_int_equal(o.local_x, 1024);
    assert_estimated(&o, "budget"); /* 10^8 iterations per invocation */
    analyze(&m, 1024, spec, 1, &o);
    assert_int_equal(o.local_x, 1024);
    assert_honest(&o);
    analyze(&m, 1024, NULL, 0, &o);
    assert_int_equal(o.local_x, 1); /* the SpecId's default */
    assert_honest(&o);
    shader_free(&m);
}

/* ---- SPIR-V assembly shapes ---- */

/* Common head: a storage buffer of uint at binding 0 and 1, push n,
 * GlobalInvocationId; %main's body is appended by each test. */
static const char *HEAD =
    "OpCapability Shader\n"
    "OpCapability Int64\n"
    "OpMemoryModel Logical GLSL450\n"
    "OpEntryPoint GLCompute %main \"main\" %gid %a %b %pc\n"
    "OpExecutionMode %main LocalSize 64 1 1\n"
    "OpName %P \"P\"\nOpMemberName %P 0 \"n\"\n"
    "OpDecorate %gid BuiltIn GlobalInvocationId\n"
    "OpDecorate %rta ArrayStride 4\n"
    "OpMemberDecorate %Buf 0 Offset 0\n"
    "OpDecorate %Buf Block\n"
    "OpDecorate %a DescriptorSet 0\nOpDecorate %a Binding 0\n"
    "OpDecorate %b DescriptorSet 0\nOpDecorate %b Binding 1\n"
    "OpMemberDecorate %P 0 Offset 0\nOpDecorate %P Block\n"
    "%void = OpTypeVoid\n%fn = OpTypeFunction %void\n"
    "%bool = OpTypeBool\n"
    "%uint = OpTypeInt 32 0\n%ulong = OpTypeInt 64 0\n"
    "%uvec3 = OpTypeVector %uint 3\n%pin = OpTypePointer Input %uvec3\n"
    "%gid = OpVariable %pin Input\n"
    "%rta = OpTypeRuntimeArray %uint\n%Buf = OpTypeStruct %rta\n"
    "%pbuf = OpTypePointer StorageBuffer %Buf\n"
    "%pu = OpTypePointer StorageBuffer %uint\n"
    "%a = OpVariable %pbuf StorageBuffer\n%b = OpVariable %pbuf StorageBuffer\n"
    "%P = OpTypeStruct %uint\n%pP = OpTypePointer PushConstant %P\n"
    "%pc = OpVariable %pP PushConstant\n%ppu = OpTypePointer PushConstant %uint\n"
    "%u0 = OpConstant %uint 0\n%u1 = OpConstant %uint 1\n%u3 = OpConstant %uint 3\n"
    "%u1023 = OpConstant %uint 1023\n"
    "%l1 = OpConstant %ulong 1\n%lbig = OpConstant %ulong 1099511627776\n"
    "%false = OpConstantFalse %bool\n"
    "%main = OpFunction %void None %fn\n"
    "%entry = OpLabel\n"
    "%g = OpLoad %uvec3 %gid\n%gx = OpCompositeExtract %uint %g 0\n"
    "%idx = OpBitwiseAnd %uint %gx %u1023\n"
    "%pa = OpAccessChain %pu %a %u0 %idx\n%pb = OpAccessChain %pu %b %u0 %idx\n";

/* 2,000 blocks in a row, each a diamond whose merge block has an OpPhi of
 * the previous phi: a phi chain of 2,000, then a loop whose header carries
 * the chain's value round a 2^40-trip 64-bit counter. */
static void test_phi_chain(void **state)
{
    (void)state;
    cw_strbuf b = {0};
    cw_sb_printf(&b, "%s", HEAD);
    cw_sb_printf(&b, "%%v0 = OpLoad %%uint %%pa\nOpBranch %%h0\n");
    for (int i = 0; i < 2000; i++) {
        cw_sb_printf(&b,
                  "%%h%d = OpLabel\n"
                  "%%c%d = OpULessThan %%bool %%v%d %%u3\n"
                  "OpSelectionMerge %%m%d None\n"
                  "OpBranchConditional %%c%d %%t%d %%m%d\n"
                  "%%t%d = OpLabel\n"
                  "%%w%d = OpIAdd %%uint %%v%d %%u1\n"
                  "OpBranch %%m%d\n"
                  "%%m%d = OpLabel\n"
                  "%%v%d = OpPhi %%uint %%w%d %%t%d %%v%d %%h%d\n"
                  "OpBranch %%h%d\n",
                  i, i, i, i, i, i, i, i, i, i, i, i, i + 1, i, i, i, i, i + 1);
    }
    /* loop: header phi over a 64-bit counter */
    cw_sb_printf(&b,
              "%%h2000 = OpLabel\nOpBranch %%lh\n"
              "%%lh = OpLabel\n"
              "%%k = OpPhi %%ulong %%l1 %%h2000 %%kn %%lc\n"
              "%%s = OpPhi %%uint %%v2000 %%h2000 %%sn %%lc\n"
              "%%lt = OpULessThan %%bool %%k %%lbig\n"
              "OpLoopMerge %%le %%lc None\n"
              "OpBranchConditional %%lt %%lb %%le\n"
              "%%lb = OpLabel\n%%sn = OpIAdd %%uint %%s %%u3\nOpBranch %%lc\n"
              "%%lc = OpLabel\n%%kn = OpIAdd %%ulong %%k %%l1\nOpBranch %%lh\n"
              "%%le = OpLabel\nOpStore %%pb %%s\nOpReturn\nOpFunctionEnd\n");
    shader_module m;
    assemble(b.s, &m);
    free(b.s);
    outcome o;
    analyze(&m, 64, NULL, 0, &o);
    assert_estimated(&o, NULL);
    /* 2^40 trips of the last loop were accounted for, not cut short:
     * at least 2^40 x 64 adds at the device's integer rate */
    assert_true(o.time_us > 1e6);
    shader_free(&m);
}

/* Unreachable blocks: after the return, a chain of 200 blocks with loads
 * and stores ending in OpUnreachable; and a branch on a constant false
 * into a store.  Dead code yields no finding. */
static void test_unreachable_blocks(void **state)
{
    (void)state;
    cw_strbuf b = {0};
    cw_sb_printf(&b, "%s", HEAD);
    cw_sb_printf(&b,
              "%%x = OpLoad %%uint %%pa\n"
              "OpSelectionMerge %%m None\n"
              "OpBranchConditional %%false %%dead %%m\n"
              "%%dead = OpLabel\n"
              "OpStore %%pb %%u3\n"
              "OpBranch %%m\n"
              "%%m = OpLabel\n"
              "OpStore %%pb %%x\n"
              "OpReturn\n");
    for (int i = 0; i < 200; i++)
        cw_sb_printf(&b,
                  "%%z%d = OpLabel\n"
                  "%%zx%d = OpLoad %%uint %%pa\n"
                  "OpStore %%pb %%zx%d\n"
                  "OpBranch %%z%d\n",
                  i, i, i, i + 1);
    cw_sb_printf(&b, "%%z200 = OpLabel\nOpUnreachable\nOpFunctionEnd\n");
    shader_module m;
    assemble(b.s, &m);
    free(b.s);
    outcome o;
    analyze(&m, 64, NULL, 0, &o);
    assert_honest(&o);
    assert_int_equal(o.nerrors, 0);
    shader_free(&m);
}

/* ~100,000 instructions: a straight line of 50,000 dependent integer
 * operations plus 25,000 loads and 25,000 stores. */
static void test_100k_instructions(void **state)
{
    (void)state;
    cw_strbuf b = {0};
    cw_sb_printf(&b, "%s", HEAD);
    cw_sb_printf(&b, "%%r0 = OpLoad %%uint %%pa\n");
    for (int i = 0; i < 25000; i++)
        cw_sb_printf(&b,
                  "%%x%d = OpIAdd %%uint %%r%d %%u1\n"
                  "%%y%d = OpIMul %%uint %%x%d %%u3\n"
                  "OpStore %%pb %%y%d\n"
                  "%%r%d = OpLoad %%uint %%pa\n",
                  i, i, i, i, i, i + 1);
    cw_sb_printf(&b, "OpReturn\nOpFunctionEnd\n");
    shader_module m;
    assemble(b.s, &m);
    free(b.s);
    assert_true(m.nwords > 400000);
    assert_budget_stops(&m, 4096);
}

int main(void)
{
    signal(SIGALRM, on_alarm);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_loop_2_31),
        cmocka_unit_test(test_loop_64bit),
        cmocka_unit_test(test_deep_nesting),
        cmocka_unit_test(test_spec_workgroup_size),
        cmocka_unit_test(test_phi_chain),
        cmocka_unit_test(test_unreachable_blocks),
        cmocka_unit_test(test_100k_instructions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
