/* test_csim_pages.c - the DRAM page tracker of the cache model: which
 * transfers open a page, the stack distances of a group's re-touches of
 * its own pages, and the window's page sharing, on hand-made sequences. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "csim_pages.h"

/* Group 0 walks 4 pages round robin, A B C D A B C D A B C D: the first
 * four open, each of the 8 re-touches has the other 3 pages touched since
 * (d = 3): all 8 reopen when the device keeps 2 of the sample's openings,
 * none when it keeps 3.  Tag 1 made none of them. */
static void test_round_robin_distance(void **state)
{
    (void)state;
    csim_pages *p = csim_pages_new(2);
    assert_non_null(p);
    int opened = 0;
    for (int k = 0; k < 12; k++)
        opened += csim_pages_touch(p, (uint64_t)(k % 4) * 7, 0, 0);
    assert_int_equal(opened, 4);
    assert_true(csim_pages_reopened(p, 0, 2) == 8);
    assert_true(csim_pages_reopened(p, 0, 3) == 0);
    assert_true(csim_pages_reopened(p, 0, 0) == 8);
    assert_true(csim_pages_reopened(p, 1, 0) == 0);
    /* one group, its own pages: sharing 1 */
    assert_true(csim_pages_sharing(p) == 1);
    csim_pages_free(p);
}

/* A page whose last touch was another group's (a neighbour reading it at
 * the same time) or an eviction's is not the group's own re-touch; the
 * group's touch after that one is again (d counts the pages touched
 * since: here 1, page B). */
static void test_other_requesters(void **state)
{
    (void)state;
    csim_pages *p = csim_pages_new(1);
    assert_int_equal(csim_pages_touch(p, 10, 0, 0), 1);  /* A by group 0 */
    assert_int_equal(csim_pages_touch(p, 10, 1, 0), 0);  /* A by group 1 */
    assert_true(csim_pages_reopened(p, 0, 0) == 0);
    assert_int_equal(csim_pages_touch(p, 11, 1, 0), 1);  /* B by group 1 */
    assert_int_equal(csim_pages_touch(p, 10, 1, 0), 0);  /* A again: d = 1 */
    assert_true(csim_pages_reopened(p, 0, 0) == 1);
    assert_true(csim_pages_reopened(p, 0, 1) == 0);
    /* an eviction's touch, then group 1's: not its own */
    assert_int_equal(csim_pages_touch(p, 11, CSIM_PAGES_EVICTION, 0), 0);
    assert_int_equal(csim_pages_touch(p, 11, 1, 0), 0);
    assert_true(csim_pages_reopened(p, 0, 0) == 1);
    /* sharing over the demand reads: A by groups 0 and 1, B by group 1:
     * 3 (page, group) pairs over 2 pages */
    assert_true(csim_pages_sharing(p) == 1.5);
    csim_pages_free(p);
}

/* Pages stay open for CSIM_OPEN_PAGES openings: 65 distinct pages, then
 * the first again opens it (it left the window), the last does not. */
static void test_open_window(void **state)
{
    (void)state;
    csim_pages *p = csim_pages_new(1);
    for (uint64_t k = 0; k <= CSIM_OPEN_PAGES; k++)
        assert_int_equal(csim_pages_touch(p, k, 0, 0), 1);
    assert_int_equal(csim_pages_touch(p, CSIM_OPEN_PAGES, 0, 0), 0);
    assert_int_equal(csim_pages_touch(p, 0, 0, 0), 1);
    csim_pages_free(p);
}

/* forget: the records start again and the open pages count as others'
 * (warming neighbours), so the next touch of each is not a re-touch. */
static void test_forget(void **state)
{
    (void)state;
    csim_pages *p = csim_pages_new(1);
    csim_pages_touch(p, 1, 0, 0);
    csim_pages_touch(p, 2, 0, 0);
    csim_pages_touch(p, 1, 0, 0);
    assert_true(csim_pages_reopened(p, 0, 0) == 1);
    csim_pages_forget(p);
    assert_true(csim_pages_reopened(p, 0, 0) == 0);
    assert_true(csim_pages_sharing(p) == 1);
    assert_int_equal(csim_pages_touch(p, 2, 0, 0), 0);
    assert_int_equal(csim_pages_touch(p, 1, 0, 0), 0);
    assert_true(csim_pages_reopened(p, 0, 0) == 0);
    /* now group 0's own, page 1 touched since: d = 1 */
    assert_int_equal(csim_pages_touch(p, 2, 0, 0), 0);
    assert_true(csim_pages_reopened(p, 0, 0) == 1);
    csim_pages_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_robin_distance),
        cmocka_unit_test(test_other_requesters),
        cmocka_unit_test(test_open_window),
        cmocka_unit_test(test_forget),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
