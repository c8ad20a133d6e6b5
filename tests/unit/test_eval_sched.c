/* test_eval_sched.c - the scheduler (eval.c): one workgroup in lock-step,
 * barrier completion and divergence records, reconvergence, calls. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "unit.h"

#include "eval_fixture.h"

static const char *BARRIERS =
    "#version 450\n"
    "layout(local_size_x = 32) in;\n"
    "shared uint t[32];\n"
    "layout(set = 0, binding = 0) buffer B { uint v[]; };\n"
    "uint twice(uint x) { return x * 2u; }\n"
    "void main() {\n"
    "    uint l = gl_LocalInvocationID.x;\n"
    "    t[l] = twice(l);\n"
    "    barrier();\n"
    "    if (l < 16u) {\n"
    "        t[l] += t[l + 16u];\n"
    "        barrier();\n"                      /* half the group: divergence */
    "    }\n"
    "    v[l] = t[l];\n"
    "}\n";

static void test_group(void **state)
{
    (void)state;
    efix f;
    ev_info *I = efix_open_group0(&f, BARRIERS);
    assert_true(f.g.barriers == 2.0);
    assert_int_equal(I->nbars, 1);
    assert_int_equal(I->bars[0].reached, 16);
    assert_int_equal(I->bars[0].missing, 16);
    assert_true(I->bars[0].certain);
    assert_int_equal(I->nraces, 0);
    assert_true(f.g.active == 32.0);
    /* the call ran for every lane: its multiply executed 32 times */
    for (size_t i = 0; i < f.m.ninsts; i++)
        if (f.m.insts[i].opcode == SpvOpIMul)
            assert_true(f.g.icount[i] == 32.0);
    /* the guarded add ran for 16 lanes */
    int saw = 0;
    for (size_t i = 0; i < f.m.ninsts; i++)
        if (f.m.insts[i].opcode == SpvOpIAdd && f.m.insts[i].line == 11) {
            assert_true(f.g.icount[i] == 16.0);
            saw = 1;
        }
    assert_true(saw);
    efix_close(&f);
}

CW_UNIT_MAIN(NULL, NULL,
             cmocka_unit_test(test_group))
