/* test_eval_prepass.c - the static prepasses (eval_prepass.c): static
 * accesses, costs, dependence of branch conditions, control and affinity
 * facts, the scheduling order, and which workgroup axes the probes at
 * their ends do not speak for (eval_wgdep.c). */
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

/* ---- eval_wgdep.c ---- */

#define HEAD                                                              \
    "#version 450\n"                                                      \
    "layout(local_size_x = 16, local_size_y = 16) in;\n"                  \
    "layout(set = 0, binding = 0) buffer B { float v[]; };\n"             \
    "layout(push_constant) uniform P { uint w; uint h; };\n"              \
    "shared float t[256];\n"

/* wg_nm of a kernel body (inside main). */
static unsigned nm_of(const char *body)
{
    char src[4096];
    snprintf(src, sizeof src, HEAD "void main() {\n%s}\n", body);
    efix f;
    efix_open(&f, src, NULL, NULL);
    unsigned nm = ev_ctx_info(f.c)->wg_nm;
    efix_close(&f);
    return nm;
}

static void test_monotone_is_not_flagged(void **state)
{
    (void)state;
    /* guards, affine and monotone addresses, shifts, min, a 2D guard on a
       vector of the global id, local-id shared indices */
    assert_int_equal(nm_of("    uvec2 g = gl_GlobalInvocationID.xy;\n"
                           "    if (g.x >= w || g.y >= h) return;\n"
                           "    v[g.y * w + g.x] = v[min(g.x + 1u, w - 1u)];\n"
                           "    t[gl_LocalInvocationIndex] = v[(g.x >> 2) + g.y];\n"),
                     0);
    assert_int_equal(nm_of("    for (uint i = gl_GlobalInvocationID.x; i < w; i += 4096u)\n"
                           "        v[i] = 0.0;\n"),
                     0);
}

static void test_point_modulo_band_flag_their_axis(void **state)
{
    (void)state;
    /* an equality with a middle group: x only */
    assert_int_equal(nm_of("    if (gl_WorkGroupID.x == 37u) v[0] = 1.0;\n"), 1);
    /* a modulo in an address: y only */
    assert_int_equal(nm_of("    v[gl_GlobalInvocationID.y % 7u] = 1.0;\n"), 2);
    /* a band of groups: two monotone conditions on one axis */
    assert_int_equal(nm_of("    uint g = gl_WorkGroupID.x;\n"
                           "    if (g >= 3u && g < 5u) v[g] = 1.0;\n"),
                     1);
    /* a switch on the group id */
    assert_int_equal(nm_of("    switch (gl_WorkGroupID.y) { case 2u: v[0] = 1.0; break;\n"
                           "    default: break; }\n"),
                     2);
    /* a shared index that moves with the group, even affinely */
    assert_int_equal(nm_of("    t[(gl_LocalInvocationIndex + gl_WorkGroupID.x) & 255u] = 1.0;\n"
                           "    barrier();\n    v[0] = t[0];\n"),
                     1);
    /* through a function variable */
    assert_int_equal(nm_of("    uint k = gl_WorkGroupID.x * 3u;\n"
                           "    k = k & 15u;\n"
                           "    if (k == 2u) v[0] = 1.0;\n"),
                     1);
}

static void test_candidates(void **state)
{
    (void)state;
    plan_kernel k;
    memset(&k, 0, sizeof k);
    k.workgroups[0] = 4500;
    k.workgroups[1] = k.workgroups[2] = 1;
    efix f;
    efix_open(&f,
              HEAD "void main() {\n"
                   "    if ((gl_WorkGroupID.x % 1000u) == 999u) v[0] = 1.0;\n"
                   "    if (gl_WorkGroupID.x == 37u) v[1] = 1.0;\n}\n",
              &k, NULL);
    const ev_info *I = ev_ctx_info(f.c);
    assert_int_equal(I->wg_nm, 1);
    int saw[5] = {0};
    const uint32_t want[5] = {999, 1000, 3999, 4000, 37};
    for (int i = 0; i < I->wg_ncand[0]; i++)
        for (int j = 0; j < 5; j++)
            saw[j] |= I->wg_cand[0][i] == want[j];
    for (int j = 0; j < 5; j++)
        assert_true(saw[j]);
    for (int i = 0; i < I->wg_ncand[0]; i++)
        assert_true(I->wg_cand[0][i] < 4500);
    efix_close(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dependence),
        cmocka_unit_test(test_accesses_and_costs),
        cmocka_unit_test(test_nonaffine),
        cmocka_unit_test(test_monotone_is_not_flagged),
        cmocka_unit_test(test_point_modulo_band_flag_their_axis),
        cmocka_unit_test(test_candidates),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
