/* test_eval_prepass.c - the static prepasses (eval_prepass.c): static
 * accesses, costs, dependence of branch conditions, control and affinity
 * facts, the scheduling order. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "eval_fixture.h"

static const char *SRC =
    "#version 450\n"
    "layout(local_size_x = 64) in;\n"
    "layout(set = 0, binding = 0) buffer B { float v[]; };\n"
    "layout(push_constant) uniform P { uint n; };\n"
    "shared float t[64];\n"
    "void main() {\n"
    "    uint l = gl_LocalInvocationID.x;\n"
    "    t[l] = v[l];\n"
    "    barrier();\n"
    "    if (l < n) {\n"                       /* LID and push */
    "        for (uint s = 32u; s > 0u; s >>= 1) {\n"  /* non-affine step */
    "            if (v[s] > 0.0)\n"            /* buffer contents */
    "                t[l] += t[(l + s) % 64u];\n"
    "        }\n"
    "    }\n"
    "    v[l] = fma(t[l], 2.0, 1.0);\n"
    "}\n";

/* Conditions of the conditional branches in program order. */
static size_t conds(efix *f, uint32_t *out, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < f->m.ninsts && n < max; i++)
        if (f->m.insts[i].opcode == SpvOpBranchConditional)
            out[n++] = f->m.insts[i].ops[0];
    return n;
}

static void test_dependence(void **state)
{
    (void)state;
    efix f;
    efix_open(&f, SRC, NULL, NULL);
    uint32_t c[8] = {0};
    size_t n = conds(&f, c, 8);
    assert_true(n >= 3);
    uint8_t d0 = ev_dep_of(f.c, c[0]);
    assert_true(d0 & DEP_LID);
    assert_true(d0 & DEP_PUSH);
    assert_false(d0 & DEP_DATA);
    int saw_data = 0;
    for (size_t i = 1; i < n; i++)
        saw_data |= (ev_dep_of(f.c, c[i]) & DEP_DATA) != 0;
    assert_true(saw_data);
    efix_close(&f);
}

static void test_accesses_and_costs(void **state)
{
    (void)state;
    efix f;
    efix_open(&f, SRC, NULL, NULL);
    ev_info *I = ev_ctx_info(f.c);
    size_t buf = 0, shm = 0, push = 0;
    for (size_t a = 0; a < I->nacc; a++) {
        int cls = I->vars[I->acc[a].var].cls;
        buf += cls == EVM_STORAGE;
        shm += cls == EVM_SHARED;
        push += cls == EVM_PUSH;
        if (cls == EVM_STORAGE)
            assert_int_equal(I->acc[a].bytes, 4);
    }
    assert_int_equal(buf, 3);
    assert_true(shm >= 4);
    assert_int_equal(push, 1);
    double fma = 0;
    for (size_t i = 0; i < f.m.ninsts; i++)
        if (f.m.insts[i].opcode == SpvOpExtInst)
            fma += I->flops32[i];
    assert_true(fma == 2.0);
    efix_close(&f);
}

static void test_nonaffine(void **state)
{
    (void)state;
    efix f;
    efix_open(&f, SRC, NULL, NULL);
    /* (l + s) % 64 of the loop's s: non-affine; the modulo's operands not */
    int saw = 0;
    for (size_t i = 0; i < f.m.ninsts; i++) {
        const spv_inst *in = &f.m.insts[i];
        if (in->opcode == SpvOpUMod) {
            assert_true(f.c->na[in->result_id]);
            assert_true(f.c->ctrl[in->result_id]); /* it is an address */
            saw = 1;
        }
    }
    assert_true(saw);
    efix_close(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dependence),
        cmocka_unit_test(test_accesses_and_costs),
        cmocka_unit_test(test_nonaffine),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
