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

/* The L2 atomic unit (ct_slice_request) with the H200 constants:
 * 128-byte lines queue per 1 KiB block in 2 queues (line parity), 0.16 ns
 * per line request, a 32-byte sector pass 8 x 0.0781 = 0.625 ns, lanes
 * all on one word combined. */
static const ct_unit_costs h200_unit = {128, 1024, 32, 2, 0.16, 0.625, 1};

static int close_to(double a, double b) { return fabs(a - b) < 1e-9; }

/* Lane addresses of the slice-unit cases below: instruction k, lane l. */
static uint64_t one_word(uint32_t k, uint32_t l) { (void)k; (void)l; return 4096 + 8; }
static uint64_t packed_word(uint32_t k, uint32_t l) { return (8 * l + k) * 4; }
static uint64_t line_apart(uint32_t k, uint32_t l) { return (8 * l + k) * 128; }
static uint64_t line_in_turn(uint32_t k, uint32_t l) { return (32 * k + l) * 4; }
static uint64_t even_line(uint32_t k, uint32_t l) { return (64 * (k % 4) + l) * 4; }

/* The L2 atomic unit's work (ct_slice_request) on hand-built streams, at
 * h200_unit's costs (0.16 ns a line request, 0.625 a sector pass):
 *   - all 32 lanes on one word, 1000 instructions: combined, one line and
 *     one pass each, 0.16 + 0.625 = 0.785 ns -> 785 ns on the word's
 *     block; not combined, 32 passes: 0.16 + 32 x 0.625 = 20.16 ns each;
 *   - 256 words packed in 8 lines (1 KiB), instruction k putting lane l on
 *     word 8l + k: each lane has a sector of its own, 32 passes over 8
 *     lines, 16 on each of 2 queues: 8 x 0.16 + 16 x 0.625 = 11.28 ns, all
 *     on block 0; 8 instructions cover the 256 words (90.24 ns); with one
 *     queue the 32 passes go in a row, 8 x 0.16 + 32 x 0.625 = 21.28 ns an
 *     instruction (170.24);
 *   - the same words a line apart (stride 128 B, 32 KiB): word 8l + k is on
 *     line 8l + k, block l: one line and one pass per block, on queue
 *     k mod 2; 8 instructions -> 8 x 0.16 + 4 x 0.625 = 3.78 ns on each of
 *     32 blocks.  The busiest block is 1/32 of the work: spreading the
 *     words over blocks is what makes the kernel faster (atomic_w256_s32
 *     419.4 us against 5209.5 packed; the queues side by side price it
 *     low, 337.5 us: docs/model.md section 4.3);
 *   - whole lines in turn (a histogram's flush: instruction k adds lane l
 *     to word 32k + l, lines 0..7 of block 0): one line and 4 passes an
 *     instruction, on queue k mod 2.  The queues drain side by side across
 *     instructions: front 8 x 0.16 = 1.28 ns, each queue 4 lines x 4
 *     passes x 0.625 = 10 ns, 11.28 ns for the 8 (priced an instruction at
 *     a time, 8 x (0.16 + 2.5) = 21.28: la_flush predicted 177.9 us,
 *     measured 80.8); with one queue 1.28 + 32 x 0.625 = 21.28;
 *   - 8 whole-line instructions on the even lines 0, 2, 4, 6 only: all on
 *     queue 0, 21.28 ns with two queues as with one. */
static void test_unit_streams(void **state)
{
    (void)state;
    static const struct {
        const char *what;
        uint64_t (*addr)(uint32_t k, uint32_t l);
        uint32_t instructions;
        int combine;
        uint32_t queues, passes; /* passes an instruction; 0: not checked */
        uint64_t busiest_addr;
        double addresses, busiest_ns, total_ns;
    } cases[] = {
        {"one word, combined", one_word, 1000, 1, 2, 0, 4096, 1, 785, 785},
        {"one word, not combined", one_word, 1000, 0, 2, 0, 4096, 1, 20160,
         20160},
        {"packed lines", packed_word, 8, 1, 2, 32, 0, 1, 8 * 11.28,
         8 * 11.28},
        {"packed lines, one queue", packed_word, 8, 1, 0, 32, 0, 1,
         8 * 21.28, 8 * 21.28},
        {"a line apart", line_apart, 8, 1, 2, 0, ~0ull, 32, 3.78, 32 * 3.78},
        {"whole lines in turn", line_in_turn, 8, 1, 2, 4, 0, 1, 11.28, 11.28},
        {"whole lines in turn, one queue", line_in_turn, 8, 1, 1, 4, 0, 1,
         21.28, 21.28},
        {"even lines only", even_line, 8, 1, 2, 4, 0, 1, 21.28, 21.28},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ct_unit_costs c = h200_unit;
        c.combine = cases[i].combine;
        c.queues = cases[i].queues;
        ct_table *t = ct_new();
        uint64_t a[32];
        for (uint32_t k = 0; k < cases[i].instructions; k++) {
            for (uint32_t l = 0; l < 32; l++)
                a[l] = cases[i].addr(k, l);
            uint32_t passes = ct_slice_request(t, 0, a, 32, &c);
            if (cases[i].passes && passes != cases[i].passes)
                fail_msg("%s: %u passes, want %u", cases[i].what, passes,
                         cases[i].passes);
        }
        ct_busiest b = ct_get(t);
        if (!close_to(b.addresses, cases[i].addresses) ||
            !close_to(b.requests, cases[i].busiest_ns) ||
            !close_to(b.total_requests, cases[i].total_ns) ||
            (cases[i].busiest_addr != ~0ull && b.addr != cases[i].busiest_addr))
            fail_msg("%s: %g blocks, busiest %g ns at %llu, total %g",
                     cases[i].what, b.addresses, b.requests,
                     (unsigned long long)b.addr, b.total_requests);
        ct_free(t);
    }
    /* the packed case at the probe's 16 Mi atomics (524288 instructions):
     * 5913.8 us; atomic_w256_s1 (the same counters, hashed) measured
     * 5209.5 us on the H200 (docs/h200/atomic-probe.json): within 20% */
    double probe_us = 11.28 * 524288 * 1e-3;
    assert_true(fabs(probe_us - 5209.5) / 5209.5 < 0.2);
}

/* Passes per sector are the most lanes on one of its words; the order of
 * the lanes does not matter (calibrate: `atomic line`, coalesced, 2.52 ns;
 * `atomic words 1 line`, permuted, 2.51; `atomic collide words`, 4 lanes
 * on each of 8 words of one sector, 2.355):
 *   - lane l on word l of one line: 4 sectors, 1 pass each: 0.16 + 4 x
 *     0.625 = 2.66 ns; lane l on word 7l mod 32, the same;
 *   - lane l on word l mod 8: one sector, 4 lanes a word: 4 passes, 2.66;
 *   - lane l on word 7l mod 24: lanes l and l + 24 share a word for l < 8,
 *     and each of the 3 sectors holds one such word: 6 passes, 3.91 ns. */
static void test_unit_passes(void **state)
{
    (void)state;
    static const struct {
        uint32_t mul, mod, passes;
        double ns;
    } cases[] = {
        {1, 32, 4, 2.66}, {7, 32, 4, 2.66}, {1, 8, 4, 2.66}, {7, 24, 6, 3.91},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint64_t a[32];
        for (uint32_t l = 0; l < 32; l++)
            a[l] = 4096 + (l * cases[i].mul % cases[i].mod) * 4;
        ct_table *t = ct_new();
        assert_int_equal(ct_slice_request(t, 0, a, 32, &h200_unit),
                         cases[i].passes);
        assert_true(close_to(ct_get(t).requests, cases[i].ns));
        ct_free(t);
    }
    /* no slice size: nothing counted */
    ct_unit_costs none = h200_unit;
    none.slice_bytes = 0;
    ct_table *u = ct_new();
    uint64_t a[32];
    lanes_at(a, 32, 2048, 32);
    ct_slice_request(u, 0, a, 32, &none);
    assert_true(ct_get(u).total_requests == 0);
    ct_free(u);
}

/* Bank passes: lane l on word l is conflict-free (1); lane l on word 32l
 * puts 32 distinct words in bank 0 (32); lanes 4 to a word over 8 words 32
 * apart: 8 distinct words, all in bank 0 (8); every lane on one word: 1. */
static void test_bank_passes(void **state)
{
    (void)state;
    uint64_t a[32];
    uint32_t d = 0;
    for (uint32_t l = 0; l < 32; l++)
        a[l] = 4 * l;
    assert_int_equal(ct_bank_passes(a, 32, 32, 4, &d), 1);
    assert_int_equal(d, 32);
    for (uint32_t l = 0; l < 32; l++)
        a[l] = 128 * l;
    assert_int_equal(ct_bank_passes(a, 32, 32, 4, &d), 32);
    for (uint32_t l = 0; l < 32; l++)
        a[l] = 128 * (l % 8);
    assert_int_equal(ct_bank_passes(a, 32, 32, 4, &d), 8);
    assert_int_equal(d, 8);
    lanes_at(a, 32, 64, 1);
    assert_int_equal(ct_bank_passes(a, 32, 32, 4, &d), 1);
    assert_int_equal(d, 1);
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
        cmocka_unit_test(test_unit_streams),
        cmocka_unit_test(test_unit_passes),
        cmocka_unit_test(test_bank_passes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
