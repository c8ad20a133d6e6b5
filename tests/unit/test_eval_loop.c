/* test_eval_loop.c - loop acceleration (eval_loop.c): accelerated and
 * fully executed runs give the same counts, index ranges and findings;
 * acceleration really skips (fewer observed accesses). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "eval_fixture.h"
#include "plan.h"

static const char *ROWSUM =
    "#version 450\n"
    "layout(local_size_x = 8) in;\n"
    "layout(set = 0, binding = 0) readonly buffer X { float x[]; };\n"
    "layout(set = 0, binding = 1) buffer Y { float y[]; };\n"
    "layout(push_constant) uniform P { uint n; };\n"
    "void main() {\n"
    "    uint r = gl_GlobalInvocationID.x;\n"
    "    float s = 0.0;\n"
    "    for (uint k = 0u; k < n; k++)\n"
    "        s += x[r * n + k];\n"
    "    y[r] = s;\n"
    "}\n";

static void count(void *user, const eval_access *a)
{
    (void)a;
    ++*(size_t *)user;
}

static void run(const char *json, int every, kernel_counts *kc, size_t *events,
                size_t *errs)
{
    plan p;
    plan_kernel *k = efix_plan(&p, json);
    eval_options o;
    eval_default_options(&o);
    o.every_iteration = every;
    o.on_access = count;
    o.on_access_user = events;
    *events = 0;
    report rep;
    kernel_report *kr;
    assert_int_equal(efix_eval(ROWSUM, k, &o, kc, &rep, &kr), 0);
    *errs = kernel_report_count(kr, SEV_ERROR);
    report_free(&rep);
    plan_free(&p);
}

static void same_counts(const char *json, int want_errors)
{
    kernel_counts a, b;
    size_t ea, eb, erra, errb;
    run(json, 0, &a, &ea, &erra);
    run(json, 1, &b, &eb, &errb);
    assert_true(a.instructions == b.instructions);
    assert_true(a.flops_fp32 == b.flops_fp32);
    assert_true(a.storage_load_bytes == b.storage_load_bytes && a.compulsory_read_bytes == b.compulsory_read_bytes);
    assert_int_equal(erra, errb);
    assert_int_equal(erra > 0, want_errors);
    assert_int_equal(a.naccesses, b.naccesses);
    for (size_t i = 0; i < a.naccesses; i++) {
        assert_true(a.accesses[i].count == b.accesses[i].count);
        assert_int_equal(a.accesses[i].index_min, b.accesses[i].index_min);
        assert_int_equal(a.accesses[i].index_max, b.accesses[i].index_max);
    }
    assert_true(ea < eb / 4); /* the accelerated run skipped most iterations */
    eval_counts_free(&a);
    eval_counts_free(&b);
}

static void test_same_counts(void **state)
{
    (void)state;
    same_counts("\"workgroups\": [1, 1, 1], \"push\": {\"n\": 500}, "
                "\"buffers\": [{\"binding\": 0, \"elements\": 4000}, "
                "{\"binding\": 1, \"elements\": 8}]", 0);
}

static void test_same_oob(void **state)
{
    (void)state;
    /* x holds 3999 elements: the last iteration of the last row is out */
    same_counts("\"workgroups\": [1, 1, 1], \"push\": {\"n\": 500}, "
                "\"buffers\": [{\"binding\": 0, \"elements\": 3999}, "
                "{\"binding\": 1, \"elements\": 8}]", 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_counts),
        cmocka_unit_test(test_same_oob),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
