/* test_eval_values.c - the evaluator's value semantics (eval_values.c):
 * integer intervals, comparisons decided by intervals, conversions,
 * GLSL.std.450 on intervals and known values. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "eval_ctx.h"

#include <spirv/unified1/GLSL.std.450.h>
#include <spirv/unified1/spirv.h>

static ev_val iv(uint64_t lo, uint64_t hi) { ev_val v = {lo, hi}; return v; }

static void test_int_known(void **state)
{
    (void)state;
    ev_val r = ev_int_bin(SpvOpIAdd, kv(0xffffffffu), kv(2), 32);
    assert_true(known(&r) && r.lo == 1); /* wraps at the width */
    r = ev_int_bin(SpvOpSDiv, kv((uint32_t)-7), kv(2), 32);
    assert_true(known(&r) && (uint32_t)r.lo == (uint32_t)-3);
    r = ev_int_bin(SpvOpSMod, kv((uint32_t)-7), kv(3), 32);
    assert_true(known(&r) && r.lo == 2); /* sign of the divisor */
    r = ev_int_bin(SpvOpUDiv, kv(5), kv(0), 32);
    assert_false(known(&r));              /* undefined: unknown, no trap */
    r = ev_int_bin(SpvOpShiftLeftLogical, kv(1), kv(40), 32);
    assert_false(known(&r));
}

static void test_int_intervals(void **state)
{
    (void)state;
    ev_val any = iv(0, 0xffffffffu);
    ev_val r = ev_int_bin(SpvOpUMod, any, kv(64), 32);
    assert_true(r.lo == 0 && r.hi == 63);
    r = ev_int_bin(SpvOpBitwiseAnd, any, kv(255), 32);
    assert_true(r.lo == 0 && r.hi == 255);
    r = ev_int_bin(SpvOpIAdd, iv(10, 20), iv(1, 2), 32);
    assert_true(r.lo == 11 && r.hi == 22);
    r = ev_int_bin(SpvOpIAdd, iv(0, 0xfffffff0u), iv(0, 0x100), 32);
    assert_true(r.lo == 0 && r.hi == 0xffffffffu); /* may wrap: everything */
    r = ev_int_bin(SpvOpIMul, iv(2, 3), iv(4, 5), 32);
    assert_true(r.lo == 8 && r.hi == 15);
    r = ev_int_bin(SpvOpUDiv, iv(100, 200), iv(0, 4), 32);
    assert_true(r.lo == 0 && r.hi == 0xffffffffu); /* divisor may be 0 */
    r = ev_int_bin(SpvOpShiftRightLogical, iv(256, 1023), kv(4), 32);
    assert_true(r.lo == 16 && r.hi == 63);
}

static void test_compare(void **state)
{
    (void)state;
    ev_type u32 = {1, EVK_INT, 32, 0, 1}, i32 = {1, EVK_INT, 32, 1, 1};
    ev_val r = ev_compare(SpvOpULessThan, iv(0, 63), kv(64), &u32);
    assert_true(known(&r) && r.lo == 1);
    r = ev_compare(SpvOpULessThan, iv(0, 64), kv(64), &u32);
    assert_false(known(&r));
    r = ev_compare(SpvOpSLessThan, kv((uint32_t)-1), kv(0), &i32);
    assert_true(known(&r) && r.lo == 1);
    r = ev_compare(SpvOpIEqual, iv(0, 3), iv(5, 9), &u32);
    assert_true(known(&r) && r.lo == 0);
}

static void test_convert(void **state)
{
    (void)state;
    ev_type f32 = {1, EVK_FLOAT, 32, 0, 1}, u32 = {1, EVK_INT, 32, 0, 1},
            u16 = {1, EVK_INT, 16, 0, 1};
    float x = 7.75f;
    uint32_t b;
    memcpy(&b, &x, 4);
    ev_val r = ev_convert(SpvOpConvertFToU, kv(b), &f32, &u32);
    assert_true(known(&r) && r.lo == 7);
    x = -1.0f;
    memcpy(&b, &x, 4);
    r = ev_convert(SpvOpConvertFToU, kv(b), &f32, &u32);
    assert_false(known(&r)); /* out of range: undefined */
    r = ev_convert(SpvOpUConvert, iv(0, 100), &u32, &u16);
    assert_true(r.lo == 0 && r.hi == 100);
}

static void test_glsl(void **state)
{
    (void)state;
    ev_type u32 = {1, EVK_INT, 32, 0, 1}, f32 = {1, EVK_FLOAT, 32, 0, 1};
    ev_val a = iv(0, 0xffffffffu), b = kv(63), lo = kv(4);
    const ev_val *args[3] = {&a, &b, NULL};
    uint32_t argn[3] = {1, 1, 1};
    ev_val r = ev_glsl_comp(GLSLstd450UMin, args, 2, 0, &u32, argn);
    assert_true(r.lo == 0 && r.hi == 63);
    const ev_val *cargs[3] = {&a, &lo, &b};
    r = ev_glsl_comp(GLSLstd450UClamp, cargs, 3, 0, &u32, argn);
    assert_true(r.lo == 4 && r.hi == 63);
    float x = 2.0f, y = 3.0f, z = 1.0f;
    uint32_t bx, by, bz;
    memcpy(&bx, &x, 4); memcpy(&by, &y, 4); memcpy(&bz, &z, 4);
    ev_val fx = kv(bx), fy = kv(by), fz = kv(bz);
    const ev_val *fargs[3] = {&fx, &fy, &fz};
    r = ev_glsl_comp(GLSLstd450Fma, fargs, 3, 0, &f32, argn);
    float out;
    uint32_t ob = (uint32_t)r.lo;
    memcpy(&out, &ob, 4);
    assert_true(known(&r) && out == 7.0f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_int_known),
        cmocka_unit_test(test_int_intervals),
        cmocka_unit_test(test_compare),
        cmocka_unit_test(test_convert),
        cmocka_unit_test(test_glsl),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
