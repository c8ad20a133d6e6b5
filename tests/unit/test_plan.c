/* Plan loader: every error kind gives exit 2 and names file, line, column
 * and the problem; valid plans load with the right values. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "unit.h"
#include <string.h>

#include "plan.h"

/* Plans live "in" examples/ so that kernels/saxpy.comp exists. */
#define PLAN_PATH "examples/test.json"

/* A bad plan is an input error (-1) and leaves no kernels. */
static int load_bad_plan(const cw_bad_text *c, const char *path, cw_error *err)
{
    plan p;
    int rc = plan_load_text(path, c->text, c->len, &p, err);
    if (rc != -1 || err->kind != CW_ERR_INPUT)
        fail_msg("%s:%d: rc %d, error kind %d: not an input error", c->file, c->line, rc,
                 (int)err->kind);
    assert_int_equal(p.nkernels, 0);
    return rc;
}

static void test_bad_plans(void **state)
{
    (void)state;
    cw_check_refusals("bad_plans.txt", 33, PLAN_PATH, load_bad_plan);
}

static void test_valid_plan(void **state)
{
    (void)state;
    const char *text =
        "{\"kernels\": [{\"name\": \"saxpy\", \"shader\": \"kernels/saxpy.comp\","
        " \"workgroups\": [4096, 2], \"push\": {\"n\": 1000000, \"alpha\": 2.5},"
        " \"spec\": {\"0\": 64}, \"buffers\": [{\"binding\": 0, \"elements\": 1000000},"
        " {\"set\": 1, \"binding\": 3, \"bytes\": 4000000, \"init\": \"zero\"},"
        " {\"binding\": 4, \"elements\": 3, \"init\": 1.5}]},"
        " {\"shader\": \"kernels/reduce.comp\", \"workgroups\": [1]}]}";
    plan p;
    cw_error err;
    assert_int_equal(plan_load_text(PLAN_PATH, text, strlen(text), &p, &err), 0);
    assert_int_equal(p.nkernels, 2);
    const plan_kernel *k = &p.kernels[0];
    assert_string_equal(k->name, "saxpy");
    assert_string_equal(k->shader_path, "examples/kernels/saxpy.comp");
    assert_string_equal(k->entry, "main");
    assert_int_equal(k->workgroups[0], 4096);
    assert_int_equal(k->workgroups[1], 2);
    assert_int_equal(k->workgroups[2], 1);
    const plan_value *n = plan_kernel_push(k, "n");
    assert_non_null(n);
    assert_true(n->is_integer);
    assert_int_equal(n->ivalue, 1000000);
    const plan_value *alpha = plan_kernel_push(k, "alpha");
    assert_non_null(alpha);
    assert_false(alpha->is_integer);
    assert_true(alpha->value == 2.5);
    assert_int_equal(k->nspec, 1);
    assert_string_equal(k->spec[0].key, "0");
    const plan_buffer *b = plan_kernel_buffer(k, 1, 3);
    assert_non_null(b);
    assert_true(b->has_bytes);
    assert_int_equal(b->bytes, 4000000);
    assert_int_equal(b->init, PLAN_INIT_ZERO);
    b = plan_kernel_buffer(k, 0, 0);
    assert_int_equal(b->init, PLAN_INIT_RANDOM);
    b = plan_kernel_buffer(k, 0, 4);
    assert_int_equal(b->init, PLAN_INIT_CONST);
    assert_true(b->init_value == 1.5);
    assert_null(plan_kernel_buffer(k, 0, 9));
    /* a kernel without a name takes the shader's base name */
    assert_string_equal(p.kernels[1].name, "reduce");
    assert_true(p.kernels[0].min_efficiency < 0);
    plan_free(&p);
}

static void test_load_file_errors(void **state)
{
    (void)state;
    plan p;
    cw_error err;
    assert_int_equal(plan_load("tests/data/does-not-exist.json", &p, &err), -1);
    assert_int_equal(err.kind, CW_ERR_INPUT);
    assert_non_null(strstr(err.text, "cannot open"));
    assert_string_equal(err.file, "tests/data/does-not-exist.json");
    assert_int_equal(plan_load("examples", &p, &err), -1);
    assert_non_null(strstr(err.text, "not a regular file"));
    assert_int_equal(plan_load("examples/plan.json", &p, &err), 0);
    assert_true(p.nkernels >= 6);
    plan_free(&p);
}

/* Found by fuzzing: jansson stops at a NUL byte and accepted what came
 * before it, after which the position index looped.  A plan is text. */
static void test_nul_byte(void **state)
{
    (void)state;
    static const char text[] = "{\"kernels\": [{\"workgroups\": [16, 1\0],}]}";
    plan p;
    cw_error err;
    assert_int_equal(plan_load_text(PLAN_PATH, text, sizeof text - 1, &p, &err), -1);
    assert_non_null(strstr(err.text, "NUL byte"));
    assert_int_equal(err.line, 1);
    assert_int_equal(err.column, 35);
}

static void test_suggest(void **state)
{
    (void)state;
    static const char *const words[] = {"workgroups", "buffers", "push", "spec"};
    assert_string_equal(plan_suggest("workgroup", words, 4), "workgroups");
    assert_string_equal(plan_suggest("bufers", words, 4), "buffers");
    assert_string_equal(plan_suggest("puhs", words, 4), "push");
    assert_null(plan_suggest("zzzzzzzz", words, 4));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bad_plans),
        cmocka_unit_test(test_valid_plan),
        cmocka_unit_test(test_load_file_errors),
        cmocka_unit_test(test_nul_byte),
        cmocka_unit_test(test_suggest),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
