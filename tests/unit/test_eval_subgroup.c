/* test_eval_subgroup.c - subgroup operations (eval_subgroup.c) and the
 * extended integer arithmetic (eval_values.c): values computed over the
 * active invocations of each subgroup (subgroup size 8 here). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "eval_fixture.h"

static const char *SRC =
    "#version 450\n"
    "#extension GL_KHR_shader_subgroup_arithmetic : require\n"
    "#extension GL_KHR_shader_subgroup_ballot : require\n"
    "#extension GL_KHR_shader_subgroup_shuffle : require\n"
    "layout(local_size_x = 32) in;\n"
    "layout(set = 0, binding = 0) buffer B { uint v[]; };\n"
    "void main() {\n"
    "    uint l = gl_LocalInvocationID.x;\n"
    "    uint s = subgroupAdd(l);\n"                     /* line 9 */
    "    uint e = subgroupExclusiveAdd(1u);\n"
    "    uint x = subgroupShuffleXor(l, 1u);\n"
    "    uvec4 b = subgroupBallot((l & 1u) == 0u);\n"
    "    uint c = subgroupBallotBitCount(b);\n"
    "    uint m = subgroupMax(l);\n"
    "    uint hi, lo;\n"
    "    umulExtended(l + 0x80000000u, 4u, hi, lo);\n"
    "    if (l < 4u) {\n"
    "        uint part = subgroupAdd(1u);\n"              /* line 18: 4 active */
    "        v[l + 64u] = part;\n"
    "    }\n"
    "    v[l] = s + e + x + b.x + c + m + hi + lo;\n"
    "}\n";

/* The result id of the first instruction with opcode op at line. */
static uint32_t result_at(efix *f, uint32_t op, int line)
{
    for (size_t i = 0; i < f->m.ninsts; i++)
        if (f->m.insts[i].opcode == op && f->m.insts[i].line == line)
            return f->m.insts[i].result_id;
    fail_msg("no opcode %u at line %d", op, line);
    return 0;
}

static uint64_t value(efix *f, uint32_t id, uint32_t lane, uint32_t comp)
{
    const ev_val *v = V(f->c, id, lane);
    if (!known(&v[comp]))
        fail_msg("id %u lane %u component %u unknown", id, lane, comp);
    return v[comp].lo;
}

static void test_subgroup_values(void **state)
{
    (void)state;
    efix f;
    efix_open_group0(&f, SRC);
    uint32_t s = result_at(&f, SpvOpGroupNonUniformIAdd, 9);
    uint32_t e = result_at(&f, SpvOpGroupNonUniformIAdd, 10);
    uint32_t x = result_at(&f, SpvOpGroupNonUniformShuffleXor, 11);
    uint32_t b = result_at(&f, SpvOpGroupNonUniformBallot, 12);
    uint32_t c = result_at(&f, SpvOpGroupNonUniformBallotBitCount, 13);
    uint32_t m = result_at(&f, SpvOpGroupNonUniformUMax, 14);
    uint32_t um = result_at(&f, SpvOpUMulExtended, 16);
    uint32_t part = result_at(&f, SpvOpGroupNonUniformIAdd, 18);
    for (uint32_t l = 0; l < 32; l++) {
        uint32_t base = l / 8 * 8;
        assert_int_equal(value(&f, s, l, 0), 8 * base + 28);   /* sum of the subgroup */
        assert_int_equal(value(&f, e, l, 0), l % 8);           /* exclusive count */
        assert_int_equal(value(&f, x, l, 0), l ^ 1u);
        assert_int_equal(value(&f, b, l, 0), 0x55);            /* even lanes of 8 */
        assert_int_equal(value(&f, b, l, 1), 0);
        assert_int_equal(value(&f, c, l, 0), 4);
        assert_int_equal(value(&f, m, l, 0), base + 7);
        uint64_t p = ((uint64_t)l + 0x80000000u) * 4u;
        assert_int_equal(value(&f, um, l, 0), (uint32_t)p);     /* lsb */
        assert_int_equal(value(&f, um, l, 1), (uint32_t)(p >> 32)); /* msb */
        if (l < 4)
            assert_int_equal(value(&f, part, l, 0), 4); /* only the active ones */
    }
    efix_close(&f);
}

static void test_ext_intervals(void **state)
{
    (void)state;
    ev_val lo, hi;
    ev_val a = {0, 1000}, b = kv(0x01000000u);
    ev_int_ext(SpvOpUMulExtended, a, b, 32, &lo, &hi);
    assert_true(hi.lo == 0 && hi.hi == 1000 * 0x01000000ull >> 32);
    ev_int_ext(SpvOpIAddCarry, kv(0xffffffffu), kv(2), 32, &lo, &hi);
    assert_true(known(&lo) && lo.lo == 1 && known(&hi) && hi.lo == 1);
    ev_int_ext(SpvOpISubBorrow, kv(1), kv(2), 32, &lo, &hi);
    assert_true(known(&lo) && lo.lo == 0xffffffffu && hi.lo == 1);
    ev_val r = ev_bitfield(SpvOpBitFieldUExtract, (ev_val){0, ~0ull}, kv(0), kv(4), kv(5), 32, 32);
    assert_true(r.lo == 0 && r.hi == 31);
    r = ev_bitfield(SpvOpBitFieldSExtract, kv(0xf0), kv(0), kv(4), kv(4), 32, 32);
    assert_true(known(&r) && r.lo == 0xffffffffu);
    r = ev_bitfield(SpvOpBitReverse, kv(1), kv(0), kv(0), kv(0), 32, 32);
    assert_true(known(&r) && r.lo == 0x80000000u);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_subgroup_values),
        cmocka_unit_test(test_ext_intervals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
