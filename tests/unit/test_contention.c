/* test_contention.c - atomics serialise per address: combining within a
 * subgroup only when the hardware does, scaling the busiest address from
 * sampled workgroups to the dispatch, the contention term. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>

#include <cmocka.h>

#include "contention.h"

static void lanes_at(uint64_t *a, uint32_t n, uint64_t base, uint64_t mod)
{
    for (uint32_t l = 0; l < n; l++)
        a[l] = base + (l % mod) * 4;
}

/* Every lane of 8 subgroups in each of 10 sampled groups adds to one
 * counter.  Combined: one request per subgroup instruction, 80 in the
 * sample, every sampled group shares the address -> 8 per group over all
 * 1000 groups = 8000 requests in a row.  Not combined: 32x that. */
static void test_one_address(void **state)
{
    (void)state;
    for (int combine = 1; combine >= 0; combine--) {
        ct_table *t = ct_new();
        uint64_t a[32];
        lanes_at(a, 32, 4096, 1);
        for (uint32_t g = 0; g < 10; g++)
            for (int sg = 0; sg < 8; sg++)
                ct_request(t, g, a, 32, combine, 1);
        ct_busiest b = ct_get(t);
        double per = combine ? 1 : 32;
        assert_true(b.addr == 4096);
        assert_true(b.requests == 80 * per);
        assert_int_equal(b.groups, 10);
        assert_true(b.addresses == 1);
        assert_true(ct_dispatch_busiest(&b, 10, 1000) == 8000 * per);
        ct_free(t);
    }
}

/* Each workgroup has its own counter: the busiest address is one group's
 * and does not grow with the dispatch. */
static void test_per_group_counters(void **state)
{
    (void)state;
    ct_table *t = ct_new();
    uint64_t a[32];
    for (uint32_t g = 0; g < 6; g++) {
        lanes_at(a, 32, (uint64_t)g * 4, 1);
        for (int sg = 0; sg < 4; sg++)
            ct_request(t, g, a, 32, 1, 1);
    }
    ct_busiest b = ct_get(t);
    assert_true(b.requests == 4);
    assert_int_equal(b.groups, 1);
    assert_true(ct_dispatch_busiest(&b, 6, 100000) == 4);
    assert_true(b.addresses == 6);
    ct_free(t);
}

/* Hashed bins: lanes spread over 4 addresses.  Combined, an instruction
 * makes 4 requests, one per address; not combined each address gets 8. */
static void test_few_addresses(void **state)
{
    (void)state;
    ct_table *t = ct_new();
    ct_table *u = ct_new();
    uint64_t a[32];
    lanes_at(a, 32, 0, 4);
    for (uint32_t g = 0; g < 4; g++) {
        ct_request(t, g, a, 32, 1, 1);
        ct_request(u, g, a, 32, 0, 1);
    }
    ct_busiest b = ct_get(t), c = ct_get(u);
    assert_true(b.total_requests == 16);
    assert_true(b.requests == 4);
    assert_true(c.total_requests == 128);
    assert_true(c.requests == 32);
    assert_true(ct_dispatch_busiest(&c, 4, 400) == 3200);
    ct_free(t);
    ct_free(u);
}

/* Many addresses: the table grows and keeps every count. */
static void test_growth(void **state)
{
    (void)state;
    ct_table *t = ct_new();
    uint64_t a[32];
    for (uint32_t i = 0; i < 1000; i++) {
        lanes_at(a, 32, (uint64_t)i * 128, 32);
        ct_request(t, 0, a, 32, 1, 1);
    }
    ct_busiest b = ct_get(t);
    assert_true(b.addresses == 32000);
    assert_true(b.total_requests == 32000);
    assert_true(b.requests == 1);
    ct_free(t);
}


/* Serialised per 128-byte block (the L2 line): 32 lanes on 32 distinct
 * words of one line are 32 operations on that line, one after another.
 * 8 groups x 4 subgroups on words 0..31: 1024 operations on line 0, shared
 * by every sampled group, so 80 groups make 10240.  Per address instead:
 * 32 addresses of 32 operations each. */
static void test_line_granule(void **state)
{
    (void)state;
    ct_table *t = ct_new();
    uint64_t a[32];
    lanes_at(a, 32, 0, 32); /* words 0..31 = bytes 0..127: one line */
    for (uint32_t g = 0; g < 8; g++)
        for (int sg = 0; sg < 4; sg++)
            ct_request(t, g, a, 32, 1, 128);
    ct_busiest b = ct_get(t);
    assert_true(b.addresses == 1);
    assert_true(b.requests == 8 * 4 * 32);
    assert_true(ct_dispatch_busiest(&b, 8, 80) == 10240);
    ct_free(t);
    /* the same lanes per address: 32 addresses, 32 ops each */
    t = ct_new();
    for (uint32_t g = 0; g < 8; g++)
        for (int sg = 0; sg < 4; sg++)
            ct_request(t, g, a, 32, 1, 1);
    b = ct_get(t);
    assert_true(b.addresses == 32);
    assert_true(b.requests == 32);
    ct_free(t);
}

/* The term: spread requests at the distinct-address rate, the busiest
 * address one request after another. */
static void test_time(void **state)
{
    (void)state;
    /* 1e6 requests at 500 Gop/s = 2 µs; 1000 on one address x 10 ns = 10 µs */
    assert_true(fabs(ct_time_us(1e6, 1000, 10, 500) - 10) < 1e-12);
    /* 1e9 spread: 2000 µs beats 10 µs of serial */
    assert_true(fabs(ct_time_us(1e9, 1000, 10, 500) - 2000) < 1e-9);
    assert_true(ct_time_us(0, 0, 10, 500) == 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_address),
        cmocka_unit_test(test_per_group_counters),
        cmocka_unit_test(test_few_addresses),
        cmocka_unit_test(test_growth),
        cmocka_unit_test(test_line_granule),
        cmocka_unit_test(test_time),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
