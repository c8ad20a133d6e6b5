/* test_eval_coverage.c - walks the SPIR-V core grammar and the
 * GLSL.std.450 grammar (SPIRV-Headers) and lists every opcode and extended
 * instruction the evaluator does not model (eval_coverage.c); the list is
 * compared with tests/unit/eval_unmodelled.txt, so modelling one more (or
 * losing one) shows in the diff.  The ones real shaders use are asserted
 * to be modelled: the extended multiplies, bit-field operations, packing,
 * subgroup arithmetic, ballot and shuffle. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "eval_ctx.h"

#include <spirv/unified1/GLSL.std.450.h>
#include <spirv/unified1/spirv.h>

#define CORE "/usr/include/spirv/unified1/spirv.core.grammar.json"
#define GLSL "/usr/include/spirv/unified1/extinst.glsl.std.450.grammar.json"

static json_t *load(const char *path)
{
    json_error_t e;
    json_t *j = json_load_file(path, 0, &e);
    if (!j)
        fail_msg("%s: %s", path, e.text);
    return j;
}

/* Compute-relevant classes: graphics-only and kernel-only opcodes are not
 * listed (a GLCompute Vulkan module cannot use them). */
static int relevant(const char *cls, const char *name)
{
    static const char *skip[] = {"Image", "Device-Side_Enqueue", "Pipe", "Non-Uniform",
                                 "Reserved", "@exclude", "Primitive", "Geometry",
                                 "Derivative", "Ray", NULL};
    for (int i = 0; skip[i]; i++)
        if (cls && strcmp(cls, skip[i]) == 0)
            return strcmp(skip[i], "Non-Uniform") == 0; /* subgroup ops: relevant */
    return name && !strstr(name, "INTEL") && !strstr(name, "NV") && !strstr(name, "AMD") &&
           !strstr(name, "ARM") && !strstr(name, "QCOM") && !strstr(name, "EXT") &&
           !strstr(name, "KHR") && !strstr(name, "ALTERA");
}

static void test_walk(void **state)
{
    (void)state;
    json_t *core = load(CORE), *glsl = load(GLSL);
    char *list = calloc(1, 1 << 16);
    size_t len = 0, unmodelled = 0, modelled = 0;
    json_t *insts = json_object_get(core, "instructions");
    size_t i;
    json_t *in;
    json_array_foreach(insts, i, in) {
        const char *name = json_string_value(json_object_get(in, "opname"));
        const char *cls = json_string_value(json_object_get(in, "class"));
        uint32_t op = (uint32_t)json_integer_value(json_object_get(in, "opcode"));
        if (!relevant(cls, name))
            continue;
        if (ev_models_opcode(op)) {
            modelled++;
            continue;
        }
        unmodelled++;
        len += (size_t)snprintf(list + len, (1 << 16) - len, "%s\n", name);
    }
    insts = json_object_get(glsl, "instructions");
    json_array_foreach(insts, i, in) {
        const char *name = json_string_value(json_object_get(in, "opname"));
        uint32_t fn = (uint32_t)json_integer_value(json_object_get(in, "opcode"));
        if (ev_models_glsl(fn)) {
            modelled++;
            continue;
        }
        unmodelled++;
        len += (size_t)snprintf(list + len, (1 << 16) - len, "GLSL.std.450 %s\n", name);
    }
    print_message("%zu modelled, %zu not modelled:\n%s", modelled, unmodelled, list);
    /* compare with the checked-in list */
    char path[600];
    snprintf(path, sizeof path, "%s/tests/unit/eval_unmodelled.txt",
             getenv("CW_TEST_ROOT") ? getenv("CW_TEST_ROOT") : ".");
    if (getenv("CW_UPDATE_UNMODELLED")) {
        FILE *f = fopen(path, "w");
        assert_non_null(f);
        fputs(list, f);
        fclose(f);
    }
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char *want = calloc(1, 1 << 16);
    size_t n = fread(want, 1, (1 << 16) - 1, f);
    fclose(f);
    want[n] = 0;
    if (strcmp(want, list) != 0)
        fail_msg("the unmodelled list changed: update tests/unit/eval_unmodelled.txt "
                 "(CW_UPDATE_UNMODELLED=1) and docs/evaluator.md");
    free(want);
    free(list);
    json_decref(core);
    json_decref(glsl);
}

static void test_real_shader_ops(void **state)
{
    (void)state;
    static const uint32_t ops[] = {
        SpvOpUMulExtended, SpvOpSMulExtended, SpvOpIAddCarry, SpvOpISubBorrow,
        SpvOpBitFieldInsert, SpvOpBitFieldSExtract, SpvOpBitFieldUExtract, SpvOpBitReverse,
        SpvOpBitCount, SpvOpGroupNonUniformIAdd, SpvOpGroupNonUniformFAdd,
        SpvOpGroupNonUniformUMax, SpvOpGroupNonUniformFMax, SpvOpGroupNonUniformBallot,
        SpvOpGroupNonUniformBallotBitCount, SpvOpGroupNonUniformShuffle,
        SpvOpGroupNonUniformShuffleXor, SpvOpGroupNonUniformShuffleDown,
        SpvOpGroupNonUniformBroadcast, SpvOpGroupNonUniformElect};
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (!ev_models_opcode(ops[i]))
            fail_msg("opcode %u not modelled", ops[i]);
    static const uint32_t fns[] = {GLSLstd450PackHalf2x16, GLSLstd450UnpackHalf2x16,
                                   GLSLstd450PackUnorm4x8, GLSLstd450FindUMsb,
                                   GLSLstd450FindSMsb, GLSLstd450FindILsb};
    for (size_t i = 0; i < sizeof fns / sizeof fns[0]; i++)
        assert_true(ev_models_glsl(fns[i]));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_walk),
        cmocka_unit_test(test_real_shader_ops),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
