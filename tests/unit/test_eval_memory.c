/* test_eval_memory.c - the memory analysis (eval_memory.c): the access
 * observer (one event per executed access with its workgroup, subgroup,
 * invocation, binding, byte offset, size and kind), byte-range sets. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "eval_fixture.h"
#include "plan.h"

static const char *COPY =
    "#version 450\n"
    "layout(local_size_x = 16) in;\n"
    "layout(set = 0, binding = 0) readonly buffer X { float x[]; };\n"
    "layout(set = 0, binding = 1) buffer Y { float y[]; };\n"
    "layout(set = 0, binding = 2) buffer C { uint cnt; };\n"
    "layout(push_constant) uniform P { uint n; };\n"
    "shared float t[16];\n"
    "void main() {\n"
    "    uint i = gl_GlobalInvocationID.x, l = gl_LocalInvocationID.x;\n"
    "    if (i >= n) return;\n"
    "    t[l] = x[i];\n"
    "    atomicAdd(cnt, 1u);\n"
    "    y[i + 1u] = t[l];\n"
    "}\n";

typedef struct tally {
    size_t loads[5], stores[5], atomics[5]; /* by binding; [3] push, [4] shared */
    uint64_t last_seq;
    int seq_ok, offsets_ok, groups_ok;
    uint32_t max_inv, max_sub;
} tally;

static void on_access(void *user, const eval_access *a)
{
    tally *t = user;
    if (a->seq != 0 && a->seq <= t->last_seq && !(a->seq == 0))
        t->seq_ok = 0;
    if (a->seq == 0 && t->last_seq != 0)
        t->last_seq = 0; /* a new workgroup starts over */
    else
        t->last_seq = a->seq;
    size_t slot = a->storage_class == SpvStorageClassWorkgroup ? 4
                  : a->storage_class == SpvStorageClassPushConstant ? 3
                  : a->binding;
    if (slot > 4)
        slot = 4;
    if (a->kind == EVAL_ACCESS_LOAD) t->loads[slot]++;
    else if (a->kind == EVAL_ACCESS_STORE) t->stores[slot]++;
    else t->atomics[slot]++;
    uint32_t gi = a->workgroup[0] * 16 + a->invocation;
    if (a->storage_class == SpvStorageClassStorageBuffer && a->binding == 0 &&
        (a->offset != (int64_t)gi * 4 || a->size != 4 || a->offset_hi != a->offset))
        t->offsets_ok = 0;
    if (a->storage_class == SpvStorageClassWorkgroup &&
        a->offset != (int64_t)a->invocation * 4)
        t->offsets_ok = 0;
    if (a->subgroup != a->invocation / 8)
        t->groups_ok = 0;
    if (a->invocation > t->max_inv) t->max_inv = a->invocation;
    if (a->subgroup > t->max_sub) t->max_sub = a->subgroup;
}

static void test_observer(void **state)
{
    (void)state;
    plan p;
    plan_kernel *k = efix_plan(&p, "\"workgroups\": [2, 1, 1], \"push\": {\"n\": 28}, "
                                   "\"buffers\": [{\"binding\": 0, \"elements\": 32}, "
                                   "{\"binding\": 1, \"elements\": 33}, {\"binding\": 2, \"elements\": 1}]");
    tally t;
    memset(&t, 0, sizeof t);
    t.seq_ok = t.offsets_ok = t.groups_ok = 1;
    eval_options o;
    eval_default_options(&o);
    o.on_access = on_access;
    o.on_access_user = &t;
    kernel_counts kc;
    report rep;
    kernel_report *kr;
    assert_int_equal(efix_eval(COPY, k, &o, &kc, &rep, &kr), 0);
    /* 2 groups x 16 invocations read n; 28 pass the guard */
    assert_int_equal(t.loads[3], 32);
    assert_int_equal(t.loads[0], 28);
    assert_int_equal(t.stores[1], 28);
    assert_int_equal(t.atomics[2], 28);
    assert_int_equal(t.loads[2] + t.stores[2], 0); /* one atomic, one event */
    assert_int_equal(t.stores[4], 28);
    assert_int_equal(t.loads[4], 28);
    assert_true(t.seq_ok);
    assert_true(t.offsets_ok);
    assert_true(t.groups_ok);
    assert_int_equal(t.max_inv, 15);
    assert_int_equal(t.max_sub, 1);
    eval_counts_free(&kc);
    report_free(&rep);
    plan_free(&p);
}

static void test_runs(void **state)
{
    (void)state;
    ev_runs r;
    memset(&r, 0, sizeof r);
    ev_runs_add(&r, 100, 104);
    ev_runs_add(&r, 0, 4);
    ev_runs_add(&r, 4, 8);     /* joins [0, 4) */
    ev_runs_add(&r, 50, 50);   /* empty: ignored */
    ev_runs_add(&r, 102, 110);
    ev_runs_normalize(&r);
    assert_int_equal(r.n, 2);
    assert_true(r.r[0].lo == 0 && r.r[0].hi == 8);
    assert_true(r.r[1].lo == 100 && r.r[1].hi == 110);
    assert_false(r.inexact);
    free(r.r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_observer),
        cmocka_unit_test(test_runs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
