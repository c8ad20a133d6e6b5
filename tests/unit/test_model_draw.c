/* test_model_draw.c - addresses drawn from an index's range
 * (verifier/model_draw.h): within the range and the buffer, aligned,
 * reproducible, uniform, the two fields of one record together, a new
 * place at each execution, and nothing drawn where it must not be. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "unit.h"

#include "model_draw.h"

static eval_access access(uint32_t lane, int64_t lo, int64_t hi, uint32_t size)
{
    eval_access a;
    memset(&a, 0, sizeof a);
    a.invocation = lane;
    a.binding = 1;
    a.offset = lo;
    a.offset_hi = hi;
    a.size = size;
    return a;
}

/* 256 lanes x 100 executions over 256 counters (h % 256, 4-byte words):
 * every offset a word of [0, 1020]; each counter near 100 draws (the
 * binomial's standard deviation is 10: within 50..150 whatever the seed). */
static void test_uniform_in_range(void **state)
{
    (void)state;
    draw_state d;
    assert_int_equal(draw_init(&d, 2, 256, 1), 0);
    draw_window(&d);
    unsigned hits[256] = {0};
    for (int e = 0; e < 100; e++)
        for (uint32_t l = 0; l < 256; l++) {
            eval_access a = access(l, 0, 1020, 4);
            int64_t off = -1;
            assert_int_equal(draw_offset(&d, &a, 0, 0, 1024, 0, &off), 1);
            assert_true(off >= 0 && off <= 1020 && off % 4 == 0);
            hits[off / 4]++;
        }
    for (int b = 0; b < 256; b++)
        if (hits[b] < 50 || hits[b] > 150)
            fail_msg("counter %d drawn %u times of 25600 (100 expected)", b, hits[b]);
    draw_free(&d);
}

/* The buffer bounds the draw (an index the evaluator could not bound at
 * all), the access's size aligns it from the range's start; without a
 * buffer size only spans up to 1 MiB are drawn; unknown starts and exact
 * addresses are not drawn. */
static void test_bounds(void **state)
{
    (void)state;
    draw_state d;
    assert_int_equal(draw_init(&d, 1, 64, 1), 0);
    for (uint32_t l = 0; l < 64; l++) {
        eval_access a = access(l, 8, (int64_t)1 << 34, 8);
        int64_t off = -1;
        assert_int_equal(draw_offset(&d, &a, 0, 0, 4096, 0, &off), 1);
        assert_true(off >= 8 && off <= 4096 - 8 && (off - 8) % 8 == 0);
        a = access(l, 4, 4 + 12 * 100, 12); /* vec3 records */
        assert_int_equal(draw_offset(&d, &a, 0, 0, 0, 0, &off), 1);
        assert_true(off >= 4 && off <= 1204 && (off - 4) % 12 == 0);
    }
    eval_access wide = access(0, 0, (int64_t)1 << 21, 4);
    int64_t off = -1;
    assert_int_equal(draw_offset(&d, &wide, 0, 0, 0, 0, &off), 0);
    eval_access unknown = access(0, -1, 100, 4);
    assert_int_equal(draw_offset(&d, &unknown, 0, 0, 4096, 0, &off), 0);
    eval_access exact = access(0, 64, 64, 4);
    assert_int_equal(draw_offset(&d, &exact, 0, 0, 4096, 0, &off), 0);
    eval_access past = access(0, 5000, 6000, 4);
    assert_int_equal(draw_offset(&d, &past, 0, 0, 4096, 0, &off), 0);
    draw_free(&d);
}

/* table[h].x and table[h].y (16-byte records, fields 4 bytes apart): the
 * same execution of one lane lands them 4 bytes apart; the lane's next
 * execution lands elsewhere; a new window starts the count again, so the
 * draws repeat. */
static void test_record_together(void **state)
{
    (void)state;
    draw_state d;
    assert_int_equal(draw_init(&d, 2, 32, 2), 0);
    int64_t first[2][32];
    for (int w = 0; w < 2; w++) {
        draw_window(&d);
        int moved = 0;
        for (int e = 0; e < 2; e++)
            for (uint32_t l = 0; l < 32; l++) {
                eval_access x = access(l, 0, 16 * 4095, 4);
                eval_access y = access(l, 4, 4 + 16 * 4095, 4);
                int64_t ox, oy;
                assert_int_equal(draw_offset(&d, &x, 0, 1, 0, 0, &ox), 1);
                assert_int_equal(draw_offset(&d, &y, 1, 1, 0, 0, &oy), 1);
                assert_int_equal(oy - ox, 4);
                if (e == 0 && w == 0)
                    first[0][l] = ox;
                if (e == 1 && w == 0)
                    moved += ox != first[0][l];
                if (e == 0 && w == 1)
                    assert_int_equal(ox, first[0][l]);
            }
        if (w == 0)
            assert_true(moved >= 30);
    }
    draw_free(&d);
}

CW_UNIT_MAIN(NULL, NULL,
             cmocka_unit_test(test_uniform_in_range),
             cmocka_unit_test(test_bounds),
             cmocka_unit_test(test_record_together))
