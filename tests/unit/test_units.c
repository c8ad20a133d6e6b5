/* test_units.c - core/units, table-driven (each row names its line):
 * binary memory sizes, decimal rates spelled X/s, times without exponents,
 * counters in their event's unit, exact integers for CSV. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "units.h"

typedef struct row {
    int line;
    char kind;        /* t time, c compact time, b bytes, r rate, n count,
                         k counter, x exact */
    double v;
    const char *unit; /* rate unit or counter event */
    const char *want;
} row;

static const row rows[] = {
    {__LINE__, 't', 0.012, NULL, "12 ns"},
    {__LINE__, 't', 0.9996, NULL, "1 µs"},
    {__LINE__, 't', 245.4, NULL, "245 µs"},
    {__LINE__, 't', 1775.58, NULL, "1.78 ms"},
    {__LINE__, 't', 8.07, NULL, "8.07 µs"},
    {__LINE__, 't', 3.2e6, NULL, "3.2 s"},
    {__LINE__, 't', 5.12e9, NULL, "5120 s"},
    {__LINE__, 't', -1, NULL, "-"},
    {__LINE__, 't', NAN, NULL, "-"},
    {__LINE__, 'c', 2.449, NULL, "2.45µs"},
    {__LINE__, 'c', 12.04, NULL, "12.0µs"},
    {__LINE__, 'c', 178300, NULL, "178ms"},
    {__LINE__, 'c', 3.2e6, NULL, "3.20s"},
    {__LINE__, 'c', 5e8, NULL, "500s"},
    {__LINE__, 'b', 512, NULL, "512 B"},
    {__LINE__, 'b', 49152, NULL, "48 KiB"},
    {__LINE__, 'b', 1572864, NULL, "1.50 MiB"},
    {__LINE__, 'b', 402653184, NULL, "384 MiB"},
    {__LINE__, 'b', 4294967296.0, NULL, "4 GiB"},
    {__LINE__, 'b', 4000000, NULL, "3.81 MiB"},
    {__LINE__, 'b', 1023, NULL, "1023 B"},
    {__LINE__, 'r', 3.28e12, "B", "3.28 TB/s"},
    {__LINE__, 'r', 5.3914e13, "FLOP", "53.9 TFLOP/s"},
    {__LINE__, 'r', 2e11, "FLOP", "200 GFLOP/s"},
    {__LINE__, 'r', 30, "B", "30 B/s"},
    {__LINE__, 'n', 812, NULL, "812"},
    {__LINE__, 'n', 35.8e6, NULL, "35.8 M"},
    {__LINE__, 'n', 1e6, NULL, "1.00 M"},
    {__LINE__, 'n', 0.5, NULL, "0.50"},
    {__LINE__, 'k', 35.8e6, "task-clock", "35.8 ms"},
    {__LINE__, 'k', 1.5e6, "cpu-clock", "1.5 ms"},
    {__LINE__, 'k', 1.23e9, "instructions", "1.23 G"},
    {__LINE__, 'x', 12582912, NULL, "12582912"},
    {__LINE__, 'x', 1099511627776.0, NULL, "1099511627776"},
    {__LINE__, 'x', 1775.584879123, NULL, "1775.584879"},
    {__LINE__, 'x', INFINITY, NULL, ""},
};

static void test_rows(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
        const row *r = &rows[i];
        char b[64];
        switch (r->kind) {
        case 't': units_time_us(b, sizeof b, r->v); break;
        case 'c': units_time_compact(b, sizeof b, r->v); break;
        case 'b': units_bytes(b, sizeof b, r->v); break;
        case 'r': units_rate(b, sizeof b, r->v, r->unit); break;
        case 'n': units_count(b, sizeof b, r->v); break;
        case 'k': units_counter(b, sizeof b, r->unit, r->v); break;
        default: units_exact(b, sizeof b, r->v); break;
        }
        if (strcmp(b, r->want) != 0)
            fail_msg("row at line %d: got '%s', want '%s'", r->line, b, r->want);
        if (strchr(b, 'e') && strchr(b, '+'))
            fail_msg("row at line %d: exponent in '%s'", r->line, b);
    }
}

/* the compact form fits table columns of 7 */
static void test_compact_width(void **state)
{
    (void)state;
    for (double us = 1e-3; us < 1e9; us *= 1.37) {
        char b[32];
        units_time_compact(b, sizeof b, us);
        int cols = 0;
        for (const char *c = b; *c; c++)
            cols += ((unsigned char)*c & 0xC0) != 0x80;
        if (cols > 7)
            fail_msg("%g µs: '%s' is %d columns", us, b, cols);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rows),
        cmocka_unit_test(test_compact_width),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
