/* test_eval_runsort.c - the footprint sort (verifier/eval_runsort.c): on
 * every input shape it meets (empty, one range, sorted, reversed, a sorted
 * prefix with an unsorted tail, interleaved strided sequences, many equal
 * keys, random) the output is ordered by lo and holds the same ranges as
 * the input (compared with qsort's order: sorted (lo, hi) pairs equal). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "eval_runsort.h"

static int by_lo_hi(const void *a, const void *b)
{
    const ev_run *x = a, *y = b;
    if (x->lo != y->lo)
        return x->lo < y->lo ? -1 : 1;
    return x->hi < y->hi ? -1 : x->hi > y->hi;
}

/* Sorts a copy with ev_run_sort and checks it against qsort. */
static void check_sorts(const ev_run *in, size_t n)
{
    ev_run *a = malloc((n + 1) * sizeof *a), *ref = malloc((n + 1) * sizeof *a);
    assert_non_null(a);
    assert_non_null(ref);
    if (n) {
        memcpy(a, in, n * sizeof *a);
        memcpy(ref, in, n * sizeof *a);
    }
    ev_run_sort(a, n);
    for (size_t i = 1; i < n; i++)
        assert_true(a[i - 1].lo <= a[i].lo);
    /* the same multiset: equal lo may come in any order, so order those
     * by hi too before comparing */
    qsort(a, n, sizeof *a, by_lo_hi);
    qsort(ref, n, sizeof *ref, by_lo_hi);
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(a[i].lo, ref[i].lo);
        assert_int_equal(a[i].hi, ref[i].hi);
    }
    free(a);
    free(ref);
}

static uint64_t rng = 88172645463325252ull;
static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static void test_small_and_edge(void **state)
{
    (void)state;
    ev_run one = {5, 9};
    check_sorts(&one, 0);
    check_sorts(&one, 1);
    ev_run two[2] = {{7, 8}, {-3, 1}};
    check_sorts(two, 2);
    ev_run ext[3] = {{INT64_MAX - 1, INT64_MAX}, {INT64_MIN, 0}, {0, 1}};
    check_sorts(ext, 3);
}

static void test_shapes(void **state)
{
    (void)state;
    size_t sizes[] = {31, 32, 33, 64, 65, 1000, 4097, 100000};
    for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++) {
        size_t n = sizes[si];
        ev_run *a = malloc(n * sizeof *a);
        assert_non_null(a);
        for (int shape = 0; shape < 7; shape++) {
            for (size_t i = 0; i < n; i++) {
                int64_t lo;
                switch (shape) {
                case 0: lo = (int64_t)i * 4; break;                 /* sorted */
                case 1: lo = (int64_t)(n - i) * 4; break;           /* reversed */
                case 2: lo = i < n / 2 ? (int64_t)i * 8             /* sorted prefix, */
                                       : (int64_t)(next() % (n * 8)); break; /* random tail */
                case 3: lo = (int64_t)(i % 3) * 1000000 + (int64_t)(i / 3) * 64; break; /* interleaved */
                case 4: lo = (int64_t)(next() % 4); break;          /* equal keys */
                case 5: lo = (int64_t)(next() >> 1) - INT64_MAX / 2; break; /* random, signed */
                default: lo = i % 2 ? (int64_t)i : -(int64_t)i; break; /* zigzag */
                }
                a[i].lo = lo;
                a[i].hi = lo + 1 + (int64_t)(next() % 16);
            }
            check_sorts(a, n);
        }
        free(a);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_small_and_edge),
        cmocka_unit_test(test_shapes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
