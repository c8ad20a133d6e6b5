/* test_model_dram.c - the DRAM transfer time of a read/write mix: reads and
 * writes at their own streaming rates, the bus turnaround the copy probe
 * shows beyond them, page openings from the random-access costs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>

#include <cmocka.h>

#include "model_dram.h"
#include "unit.h"

static int near(double a, double b) { return fabs(a - b) <= 1e-9 * fabs(b) + 1e-12; }

/* reads 5000 GB/s, writes 4000 GB/s, a 50/50 copy 4000 GB/s (bytes/µs:
 * 5e6, 4e6, 4e6): turnaround = 2/4e6 - 1/5e6 - 1/4e6 = 5e-8 µs per byte */
static void rates(device_profile *p)
{
    profile_init(p);
    p->dram_gbs = 4000;
    p->dram_read_gbs = 5000;
    p->dram_write_gbs = 4000;
}

/* The rates of p with copy_gbs as the copy probe's figure. */
static dram_rates resolved(device_profile *p, double copy_gbs)
{
    p->dram_gbs = copy_gbs;
    dram_rates r;
    dram_rates_resolve(&r, p, copy_gbs * 1e3, 32, 128);
    return r;
}

static void test_mix(void **state)
{
    (void)state;
    device_profile p;
    rates(&p);
    dram_rates r = resolved(&p, 4000);
    assert_true(near(r.turn_us_per_byte, 5e-8));
    /* a 50/50 copy of 8e6 bytes moves at the copy rate: 2 µs */
    assert_true(near(dram_transfer_us(&r, 4e6, 4e6, 0, 0), 2.0));
    /* reads alone at the read rate: 1e7 B / 5e6 = 2 µs (the copy rate
     * would say 2.5) */
    assert_true(near(dram_transfer_us(&r, 1e7, 0, 0, 0), 2.0));
    /* 8e6 read + 1e6 written: 1.6 + 0.25 + 1e6 x 5e-8 = 1.9 µs */
    assert_true(near(dram_transfer_us(&r, 8e6, 1e6, 0, 0), 1.9));
}

/* Without the per-direction rates every byte goes at the copy rate; a
 * copy probe faster than its two halves would make the turnaround negative:
 * it is clamped to 0, never a discount. */
static void test_no_turnaround(void **state)
{
    (void)state;
    static const struct {
        int directions;
        double copy_gbs, rd, wr, us;
    } cases[] = {
        {0, 4000, 1e7, 0, 2.5}, /* 1e7 B at 4e6 B/µs */
        {0, 4000, 3e6, 1e6, 1.0},
        {1, 6000, 5e6, 4e6, 2.0}, /* 5e6 / 5e6 + 4e6 / 4e6 */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        device_profile p;
        if (cases[i].directions)
            rates(&p);
        else
            profile_init(&p);
        dram_rates r = resolved(&p, cases[i].copy_gbs);
        assert_true(r.turn_us_per_byte == 0);
        assert_true(near(dram_transfer_us(&r, cases[i].rd, cases[i].wr, 0, 0),
                         cases[i].us));
    }
}

/* Page openings: a random 4-byte read costing 112 B at the read rate is a
 * sector (32 B) plus 80 B of opening: 80 / 5e6 = 1.6e-5 µs; a random store
 * of 256 B at the copy rate is two sectors, the read's opening and a
 * write opening of 256 - 64 - 80 = 112 B: 112 / 4e6 = 2.8e-5 µs. */
static void test_pages(void **state)
{
    (void)state;
    device_profile p;
    rates(&p);
    p.dram_random_read_bytes = 112;
    p.dram_random_write_bytes = 256;
    dram_rates r = resolved(&p, 4000);
    assert_true(near(r.page_read_us, 1.6e-5));
    assert_true(near(r.page_write_us, 2.8e-5));
    assert_true(near(dram_transfer_us(&r, 0, 0, 1e5, 1e5), 1.6 + 2.8));
    /* the older per-page time when the random costs are unknown */
    p.dram_random_read_bytes = -1;
    p.dram_page_ns = 10;
    r = resolved(&p, 4000);
    assert_true(near(r.page_read_us, 0.01) && near(r.page_write_us, 0.01));
}

/* The fetch block a page opening is measured beyond is bounded by the
 * line the model resolved, not a constant: 64-B sectors in 256-B lines
 * (a profile without line_bytes, the model's four sectors) with
 * l2_fetch_bytes 256: a random read of 300 B is the 256-B block plus 44 B
 * of opening, 44 / 5e6 = 8.8e-6 µs.  In 128-B lines the 256-B block is
 * not a fetch the line allows: the sector, 236 B of opening. */
static void test_pages_fetch_in_resolved_line(void **state)
{
    (void)state;
    device_profile p;
    rates(&p);
    p.line_bytes = 0;
    p.sector_bytes = 64;
    p.l2_fetch_bytes = 256;
    p.dram_random_read_bytes = 300;
    dram_rates r;
    dram_rates_resolve(&r, &p, 4e6, 64, 256);
    assert_true(near(r.page_read_us, 44 / 5e6));
    dram_rates_resolve(&r, &p, 4e6, 64, 128);
    assert_true(near(r.page_read_us, 236 / 5e6));
}

CW_UNIT_MAIN(NULL, NULL, cmocka_unit_test(test_mix),
             cmocka_unit_test(test_no_turnaround),
             cmocka_unit_test(test_pages),
             cmocka_unit_test(test_pages_fetch_in_resolved_line))
