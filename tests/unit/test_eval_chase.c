/* test_eval_chase.c - which accesses chase a pointer (verifier/eval_chase.h),
 * on GLSL kernels compiled as the product compiles them (locals in
 * Function variables): a gather at a loaded column, through a local and
 * through a function call; a pointer walk (its own source); affine
 * accesses and a value loaded but not used in an address (no source). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "kernel_fixture.h"

#include "eval_chase.h"

#include <spirv/unified1/spirv.h>

/* The buffer loads and stores of the module in order, their instruction
 * indices in at[], and for each the first source's position in at[] (or
 * -1) in src_pos[]. */
static size_t sources(const char *glsl, uint32_t *at, int *src_pos, size_t cap)
{
    kmod x;
    kmod_glsl(&x, "k.comp", glsl);
    size_t n = 0;
    for (size_t i = 0; i < x.m.ninsts && n < cap; i++) {
        const spv_inst *in = &x.m.insts[i];
        if ((in->opcode != SpvOpLoad && in->opcode != SpvOpStore) || !in->nops)
            continue;
        /* buffer accesses: a chain rooted at a StorageBuffer variable */
        const spv_inst *p = spv_def(&x.m, in->ops[0]);
        if (!p || p->opcode != SpvOpAccessChain)
            continue;
        const spv_var *v = spv_var_of(&x.m, p->ops[0]);
        if (!v || v->storage != SpvStorageClassStorageBuffer)
            continue;
        at[n++] = (uint32_t)i;
    }
    ev_chase ch;
    assert_int_equal(ev_chase_init(&ch, &x.m), 0);
    for (size_t a = 0; a < n; a++) {
        uint32_t src[4];
        size_t k = ev_chase_sources(&ch, &x.m, at[a], src, 4);
        src_pos[a] = -1;
        for (size_t b = 0; k && b < n; b++)
            if (at[b] == src[0])
                src_pos[a] = (int)b;
    }
    ev_chase_free(&ch);
    kmod_close(&x);
    return n;
}

#define HEAD                                                                  \
    "#version 450\n"                                                           \
    "layout(local_size_x = 64) in;\n"                                          \
    "layout(set = 0, binding = 0) readonly buffer C { uint col[]; };\n"        \
    "layout(set = 0, binding = 1) readonly buffer X { float x[]; };\n"         \
    "layout(set = 0, binding = 2) writeonly buffer O { float o[]; };\n"

/* o[i] = x[col[i]]: the col load (0) has no source, the x load (1) is col,
 * the store (2) none. */
static void test_gather_at_loaded_column(void **state)
{
    (void)state;
    uint32_t at[8];
    int src[8];
    size_t n = sources(HEAD "void main() { uint i = gl_GlobalInvocationID.x;\n"
                            "  o[i] = x[col[i]]; }\n", at, src, 8);
    assert_int_equal(n, 3);
    assert_int_equal(src[0], -1);
    assert_int_equal(src[1], 0);
    assert_int_equal(src[2], -1);
}

/* Through a local and a function: uint c = col[i]; x[h(c)]. */
static void test_through_local_and_call(void **state)
{
    (void)state;
    uint32_t at[8];
    int src[8];
    size_t n = sources(HEAD "uint h(uint v) { return (v * 2654435761u) >> 8; }\n"
                            "void main() { uint i = gl_GlobalInvocationID.x;\n"
                            "  uint c = col[i];\n"
                            "  o[i] = x[h(c) & 1023u]; }\n", at, src, 8);
    assert_int_equal(n, 3);
    assert_int_equal(src[1], 0);
}

/* Affine: o[i] = x[i] + float(col[i]): the value is loaded but no address
 * uses it. */
static void test_affine_no_source(void **state)
{
    (void)state;
    uint32_t at[8];
    int src[8];
    size_t n = sources(HEAD "void main() { uint i = gl_GlobalInvocationID.x;\n"
                            "  o[i] = x[i] + float(col[i]); }\n", at, src, 8);
    assert_int_equal(n, 3);
    for (size_t a = 0; a < n; a++)
        assert_int_equal(src[a], -1);
}

/* p = col[p] eight times: the walk's load is its own source. */
static void test_pointer_walk(void **state)
{
    (void)state;
    uint32_t at[8];
    int src[8];
    size_t n = sources(HEAD "void main() { uint p = gl_GlobalInvocationID.x;\n"
                            "  for (int k = 0; k < 8; k++) p = col[p];\n"
                            "  o[gl_GlobalInvocationID.x] = float(p); }\n", at, src, 8);
    assert_int_equal(n, 2);
    assert_int_equal(src[0], 0);
    assert_int_equal(src[1], -1);
}

CW_UNIT_MAIN(NULL, NULL,
             cmocka_unit_test(test_gather_at_loaded_column),
             cmocka_unit_test(test_through_local_and_call),
             cmocka_unit_test(test_affine_no_source),
             cmocka_unit_test(test_pointer_walk))
