/* test_units.c - core/units, table-driven (tests/unit/units_rows.txt):
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

#include "unit.h"

#include "units.h"

/* One row of tests/unit/units_rows.txt through the formatter of its kind;
 * the text must be want and carry no exponent. */
static void check_row(const char *where, char kind, double v, const char *unit,
                      const char *want)
{
    char b[64];
    switch (kind) {
    case 't': units_time_us(b, sizeof b, v); break;
    case 'c': units_time_compact(b, sizeof b, v); break;
    case 'b': units_bytes(b, sizeof b, v); break;
    case 'r': units_rate(b, sizeof b, v, unit); break;
    case 'n': units_count(b, sizeof b, v); break;
    case 'k': units_counter(b, sizeof b, unit, v); break;
    case 'x': units_exact(b, sizeof b, v); break;
    default: fail_msg("%s: unknown kind '%c'", where, kind);
    }
    if (strcmp(b, want) != 0)
        fail_msg("%s: got '%s', want '%s'", where, b, want);
    if (strchr(b, 'e') && strchr(b, '+'))
        fail_msg("%s: exponent in '%s'", where, b);
}

static void test_rows(void **state)
{
    (void)state;
    const char *path = cw_root_file("tests/unit/units_rows.txt");
    FILE *f = fopen(path, "r");
    if (!f)
        fail_msg("cannot open %s", path);
    char line[256], where[64];
    int lineno = 0, rows = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        line[strcspn(line, "\n")] = 0;
        if (line[0] == '#' || line[0] == 0)
            continue;
        snprintf(where, sizeof where, "units_rows.txt:%d", lineno);
        char *kind = strtok(line, "\t"), *value = strtok(NULL, "\t");
        char *unit = strtok(NULL, "\t"), *want = strtok(NULL, "");
        if (!kind || !value || !unit || strlen(kind) != 1)
            fail_msg("%s: not KIND<TAB>VALUE<TAB>UNIT<TAB>WANT", where);
        check_row(where, kind[0], strtod(value, NULL), strcmp(unit, "-") ? unit : NULL,
                  want ? want : "");
        rows++;
    }
    fclose(f);
    assert_true(rows >= 36); /* the file was read to its end */
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
