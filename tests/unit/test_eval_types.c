/* test_eval_types.c - type flattening (eval_types.c): component counts,
 * scalar kinds, member offsets, layout decoding, type names. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "eval_fixture.h"

static const char *SRC =
    "#version 450\n"
    "layout(local_size_x = 4) in;\n"
    "struct S { vec3 a; float b[4]; uint c; };\n"
    "shared S s_tile[2];\n"
    "shared uvec2 s_pair;\n"
    "layout(push_constant) uniform P { uint n; float alpha; uvec2 wh; };\n"
    "layout(set = 0, binding = 0) buffer B { float y[]; };\n"
    "void main() {\n"
    "    s_tile[gl_LocalInvocationID.x & 1u].b[1] = alpha;\n"
    "    s_pair = wh;\n"
    "    barrier();\n"
    "    y[gl_LocalInvocationID.x] = s_tile[0].b[1] + float(s_pair.x + n);\n"
    "}\n";

static void test_flatten(void **state)
{
    (void)state;
    efix f;
    efix_open(&f, SRC, NULL, NULL);
    ev_info *I = ev_ctx_info(f.c);
    uint32_t t = efix_var(&f, "s_tile"), p = efix_var(&f, "s_pair");
    assert_int_not_equal(t, EV_NONE);
    assert_int_not_equal(p, EV_NONE);
    /* S = vec3 (3) + float[4] (4) + uint (1) = 8; two of them */
    assert_int_equal(I->vars[t].nflat, 16);
    const ev_type *pt = ev_tinfo(f.c, I->vars[p].pointee);
    assert_int_equal(pt->flat, 2);
    assert_int_equal(pt->kind, EVK_INT);
    assert_int_equal(pt->width, 32);
    assert_true(pt->is_vec);
    /* member offsets inside S */
    const spv_type *arr = spv_type_of(&f.m, I->vars[t].pointee);
    assert_non_null(arr);
    const spv_type *st = spv_type_of(&f.m, arr->elem);
    assert_int_equal(st->kind, SPV_T_STRUCT);
    assert_int_equal(ev_flat_member_offset(f.c, st, 1), 3);
    assert_int_equal(ev_flat_member_offset(f.c, st, 2), 7);
    /* a literal path: S[1].b[2] */
    uint32_t idx[3] = {1, 1, 2}, et = 0;
    assert_int_equal(ev_flat_path(f.c, I->vars[t].pointee, idx, 3, &et), 8 + 3 + 2);
    assert_int_equal(ev_flat_path(f.c, I->vars[t].pointee, (uint32_t[]){2}, 1, &et),
                     EV_NONE); /* past the array */
    assert_string_equal(ev_type_name(&f.m, I->vars[p].pointee), "uvec2");
    efix_close(&f);
}

static void test_decode_layout(void **state)
{
    (void)state;
    efix f;
    efix_open(&f, SRC, NULL, NULL);
    ev_info *I = ev_ctx_info(f.c);
    uint32_t pc = EV_NONE;
    for (size_t i = 0; i < I->nvars; i++)
        if (I->vars[i].cls == EVM_PUSH)
            pc = (uint32_t)i;
    assert_int_not_equal(pc, EV_NONE);
    uint8_t bytes[16];
    uint32_t n = 77, w = 640, h = 480;
    float a = 1.5f;
    memcpy(bytes, &n, 4);
    memcpy(bytes + 4, &a, 4);
    memcpy(bytes + 8, &w, 4);
    memcpy(bytes + 12, &h, 4);
    ev_val out[4];
    uint32_t pos = 0;
    ev_decode_layout(f.c, I->vars[pc].pointee, bytes, sizeof bytes, 0, out, &pos, 4, 0);
    assert_int_equal(pos, 4);
    assert_true(known(&out[0]) && out[0].lo == 77);
    assert_true(known(&out[2]) && out[2].lo == 640 && out[3].lo == 480);
    /* only 12 bytes given: the last component is unknown */
    pos = 0;
    ev_decode_layout(f.c, I->vars[pc].pointee, bytes, 12, 0, out, &pos, 4, 0);
    assert_false(known(&out[3]));
    efix_close(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_flatten),
        cmocka_unit_test(test_decode_layout),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
