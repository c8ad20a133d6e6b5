/* test_hostile_sizes.c - sizes that no device can run (issue 17): each is
 * an error finding before anything runs, never a signal, a hang or a
 * runaway allocation.  Every case runs the whole static path (validation,
 * reflection, limits, evaluator, model) under an alarm, and the program's
 * peak RSS is checked at the end (the address space is also limited when
 * not built with a sanitizer).
 *
 *   local size 2^31 x 2^31 x 4 from spec constants (the product wraps to 0
 *   in 64 bits), a module with WorkgroupSize (64, 2^31, 2^31), local size
 *   0, a shared array of spec-constant length 0, a private array of
 *   2^32 - 1 floats, nested arrays whose size overflows 64 bits, a 1 GiB
 *   private array loaded by value. */
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
#undef kDefaultMaxIdBound

#include "model.h"
#include "plan.h"
#include "profile.h"
#include "shader.h"
#include "verifier.h"
#include "../fuzz/spirv_target.h" /* spirv_static_path */

#define GUARD_SECONDS 60
#define RSS_BUDGET_KIB (1024L * 1024)

static void on_alarm(int sig)
{
    (void)sig;
    static const char msg[] = "test_hostile_sizes: the analysis did not finish\n";
    if (write(2, msg, sizeof msg - 1) < 0) {
        /* nothing else to do */
    }
    _exit(1);
}

/* Runs module m (spec values spec) through verifier + model; returns the
 * number of error findings with id (NULL: any). */
static size_t run(const shader_module *m, const plan_value *spec, size_t nspec, const char *id)
{
    static device_profile prof;
    static int init;
    if (!init) {
        assert_int_equal(profile_builtin("lavapipe", &prof), 0);
        init = 1;
    }
    plan_buffer bufs[1] = {{.binding = 0, .has_elements = 1, .elements = 1024}};
    plan_kernel k = {.name = (char *)"k", .shader = (char *)"k.comp",
                     .shader_path = (char *)"k.comp", .entry = (char *)"main",
                     .workgroups = {1, 1, 1}, .spec = (plan_value *)spec, .nspec = nspec,
                     .buffers = bufs, .nbuffers = 1, .min_efficiency = -1};
    report r;
    report_init(&r);
    kernel_report *kr = report_add_kernel(&r, "k");
    alarm(GUARD_SECONDS);
    spirv_static_path(&k, m, &prof, kr);
    alarm(0);
    size_t n = 0;
    for (size_t i = 0; i < kr->nfindings; i++)
        if (kr->findings[i].sev == SEV_ERROR &&
            (!id || strcmp(kr->findings[i].id, id) == 0))
            n++;
    report_free(&r);
    return n;
}

static void glsl(const char *src, shader_module *m)
{
    cw_error err;
    cw_error_clear(&err);
    if (shader_compile_glsl("k.comp", src, strlen(src), m, &err))
        fail_msg("glsl: %s", err.text);
}

static plan_value sv(const char *key, int64_t v)
{
    plan_value p = {.key = (char *)key, .value = (double)v, .is_integer = 1, .ivalue = v};
    return p;
}

static const char *LOCAL_IDS =
    "#version 450\n"
    "layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;\n"
    "layout(set = 0, binding = 0) buffer B { float v[]; };\n"
    "void main() { v[gl_GlobalInvocationID.x % 1024u] = 1.0; }\n";

static void test_local_size_product_wraps(void **state)
{
    (void)state;
    shader_module m;
    glsl(LOCAL_IDS, &m);
    plan_value spec[3] = {sv("0", 2147483648LL), sv("1", 2147483648LL), sv("2", 4)};
    assert_true(run(&m, spec, 3, "workgroup-size-limit") >= 1);
    plan_value zero[3] = {sv("0", 0), sv("1", 1), sv("2", 1)};
    assert_int_equal(run(&m, zero, 3, "workgroup-size-limit"), 1);
    shader_free(&m);
}

static void test_workgroup_size_builtin(void **state)
{
    (void)state;
    static const char *text =
        "OpCapability Shader\n"
        "OpMemoryModel Logical GLSL450\n"
        "OpEntryPoint GLCompute %main \"main\"\n"
        "OpExecutionMode %main LocalSize 1 1 1\n"
        "OpDecorate %wgs BuiltIn WorkgroupSize\n"
        "%void = OpTypeVoid\n%fn = OpTypeFunction %void\n"
        "%uint = OpTypeInt 32 0\n%v3uint = OpTypeVector %uint 3\n"
        "%u64 = OpConstant %uint 64\n%big = OpConstant %uint 2147483648\n"
        "%wgs = OpConstantComposite %v3uint %u64 %big %big\n"
        "%main = OpFunction %void None %fn\n%e = OpLabel\nOpReturn\nOpFunctionEnd\n";
    spv_context ctx = spvContextCreate(SPV_ENV_VULKAN_1_1);
    spv_binary bin = NULL;
    spv_diagnostic diag = NULL;
    assert_int_equal(spvTextToBinary(ctx, text, strlen(text), &bin, &diag), SPV_SUCCESS);
    shader_module m;
    cw_error err;
    cw_error_clear(&err);
    assert_int_equal(shader_from_spirv("wgs.spv", bin->code, bin->wordCount * 4, &m, &err), 0);
    spvBinaryDestroy(bin);
    spvDiagnosticDestroy(diag);
    spvContextDestroy(ctx);
    assert_true(run(&m, NULL, 0, "workgroup-size-limit") >= 1);
    shader_free(&m);
}

static void test_zero_length_shared(void **state)
{
    (void)state;
    shader_module m;
    glsl("#version 450\n"
         "layout(local_size_x = 64) in;\n"
         "layout(constant_id = 0) const uint N = 16;\n"
         "shared float t[N];\n"
         "layout(set = 0, binding = 0) buffer B { float v[]; };\n"
         "void main() { if (gl_LocalInvocationID.x < N) t[gl_LocalInvocationID.x] = 1.0;\n"
         "              barrier();\n"
         "              v[gl_GlobalInvocationID.x] = t[0]; }\n", &m);
    plan_value spec[1] = {sv("0", 0)};
    assert_int_equal(run(&m, spec, 1, "array-length-invalid"), 1);
    plan_value ok[1] = {sv("0", 16)};
    assert_int_equal(run(&m, ok, 1, NULL), 0);
    shader_free(&m);
}

static void test_huge_private(void **state)
{
    (void)state;
    shader_module m;
    glsl("#version 450\n"
         "layout(local_size_x = 64) in;\n"
         "layout(constant_id = 0) const uint N = 16;\n"
         "layout(set = 0, binding = 0) buffer B { float v[]; };\n"
         "void main() { float p[N]; p[gl_LocalInvocationID.x % N] = 1.0;\n"
         "              v[gl_GlobalInvocationID.x] = p[3]; }\n", &m);
    plan_value spec[1] = {sv("0", 4294967295LL)};
    assert_int_equal(run(&m, spec, 1, "private-memory-limit"), 1);
    plan_value ok[1] = {sv("0", 16)};
    assert_int_equal(run(&m, ok, 1, NULL), 0);
    shader_free(&m);

    /* nested: (2^31)^3 floats overflow 64 bits */
    glsl("#version 450\n"
         "layout(local_size_x = 1) in;\n"
         "layout(constant_id = 0) const uint N = 2;\n"
         "layout(set = 0, binding = 0) buffer B { float v[]; };\n"
         "void main() { float p[N][N][N]; p[0][0][gl_LocalInvocationID.x % N] = 1.0;\n"
         "              v[0] = p[0][0][1]; }\n", &m);
    plan_value big[1] = {sv("0", 2147483648LL)};
    assert_int_equal(run(&m, big, 1, "private-memory-limit"), 1);
    shader_free(&m);

    /* 1 GiB loaded by value */
    glsl("#version 450\n"
         "layout(local_size_x = 1) in;\n"
         "layout(set = 0, binding = 0) buffer B { float v[]; };\n"
         "float p[268435456];\n"
         "void main() { float q[268435456] = p; v[0] = q[5]; }\n", &m);
    assert_int_equal(run(&m, NULL, 0, "private-memory-limit"), 1);
    shader_free(&m);
}

/* A valid 50,000-deep call chain: SPIRV-Tools' validation is superlinear
 * on it (minutes): the budget turns that into a clear error in seconds. */
static void test_deep_call_chain(void **state)
{
    (void)state;
    const int depth = 50000;
    cw_strbuf b = {0};
    cw_sb_printf(&b, "OpCapability Shader\nOpMemoryModel Logical GLSL450\n"
                     "OpEntryPoint GLCompute %%main \"main\"\n"
                     "OpExecutionMode %%main LocalSize 1 1 1\n"
                     "%%void = OpTypeVoid\n%%fn = OpTypeFunction %%void\n"
                     "%%main = OpFunction %%void None %%fn\n%%e = OpLabel\n"
                     "%%c = OpFunctionCall %%void %%f0\nOpReturn\nOpFunctionEnd\n");
    for (int i = 0; i < depth; i++) {
        cw_sb_printf(&b, "%%f%d = OpFunction %%void None %%fn\n%%l%d = OpLabel\n", i, i);
        if (i + 1 < depth)
            cw_sb_printf(&b, "%%r%d = OpFunctionCall %%void %%f%d\n", i, i + 1);
        cw_sb_printf(&b, "OpReturn\nOpFunctionEnd\n");
    }
    shader_module m;
    cw_assemble(b.s, b.n, SPV_ENV_VULKAN_1_1, "calls.spv", &m);
    free(b.s);
    setenv("CW_VALIDATE_BUDGET_S", "2", 1);
    /* either SPIRV-Tools got through in time (no error) or the budget
       error says so; never minutes */
    size_t any = run(&m, NULL, 0, NULL), budget = run(&m, NULL, 0, "validation-budget");
    assert_true(any == budget);
    unsetenv("CW_VALIDATE_BUDGET_S");
    shader_free(&m);
}

/* 300,000 buffers in one plan kernel load in linear time; a repeated
 * binding is still found and named. */
static void test_many_buffers_plan(void **state)
{
    (void)state;
    const int nb = 300000;
    cw_strbuf b = {0};
    cw_sb_printf(&b, "{\"kernels\": [{\"name\": \"k\", \"shader\": "
                     "\"examples/kernels/saxpy.comp\", \"workgroups\": [1, 1, 1], "
                     "\"buffers\": [");
    for (int i = 0; i < nb; i++)
        cw_sb_printf(&b, "%s{\"binding\": %d, \"elements\": 1}", i ? ",\n" : "",
                     i == nb - 1 ? 17 : i);
    cw_sb_printf(&b, "]}]}");
    char *json = b.s;
    size_t n = b.n;
    char path[512];
    snprintf(path, sizeof path, "%s/test.json", cw_test_root());
    plan p;
    cw_error err;
    cw_error_clear(&err);
    alarm(GUARD_SECONDS);
    int rc = plan_load_text(path, json, n, &p, &err);
    alarm(0);
    assert_int_not_equal(rc, 0);
    assert_non_null(strstr(err.text, "binding 17 is given twice (first at line 18)"));
    assert_int_equal(err.line, nb);
    /* without the repeat it loads */
    char *last = strstr(json + n - 60, "\"binding\": 17");
    assert_non_null(last);
    b.n = (size_t)(last - json); /* rewrite the last buffer */
    cw_sb_printf(&b, "\"binding\": %d, \"elements\": 1}]}]}", nb);
    json = b.s;
    n = b.n;
    cw_error_clear(&err);
    alarm(GUARD_SECONDS);
    rc = plan_load_text(path, json, n, &p, &err);
    alarm(0);
    if (rc)
        fail_msg("plan: %s", err.text);
    assert_int_equal(p.kernels[0].nbuffers, nb);
    plan_free(&p);
    free(json);
}

static void test_rss(void **state)
{
    (void)state;
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    if (ru.ru_maxrss > RSS_BUDGET_KIB)
        fail_msg("peak RSS %ld KiB above %ld KiB", ru.ru_maxrss, RSS_BUDGET_KIB);
}

int main(void)
{
    signal(SIGALRM, on_alarm);
#if !defined(__SANITIZE_ADDRESS__) && !defined(__has_feature)
    struct rlimit rl = {(rlim_t)4 << 30, (rlim_t)4 << 30};
    setrlimit(RLIMIT_AS, &rl);
#endif
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_local_size_product_wraps),
        cmocka_unit_test(test_workgroup_size_builtin),
        cmocka_unit_test(test_zero_length_shared),
        cmocka_unit_test(test_huge_private),
        cmocka_unit_test(test_deep_call_chain),
        cmocka_unit_test(test_many_buffers_plan),
        cmocka_unit_test(test_rss),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
