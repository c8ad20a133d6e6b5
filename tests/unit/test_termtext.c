/* test_termtext.c - the one escaper of text bound for a terminal
 * (core/termtext.h): controls become \xNN / \u00NN, valid UTF-8 passes,
 * invalid bytes are escaped, newlines (and tabs when asked) stay. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "unit.h"

#include "termtext.h"

static void expect(const char *in, size_t len, int keep_tab, const char *want)
{
    char *got = cw_term_escape(in, len, keep_tab);
    assert_string_equal(got, want);
    free(got);
}

static void test_controls(void **state)
{
    (void)state;
    expect("a\x1b]0;T\x07z", 8, 0, "a\\x1b]0;T\\x07z");
    expect("x\ry", 3, 0, "x\\x0dy");
    expect("del\x7f", 4, 0, "del\\x7f");
    expect("tab\tnl\n", 7, 0, "tab\\x09nl\n");
    expect("tab\tnl\n", 7, 1, "tab\tnl\n");
    expect("nul\0x", 5, 0, "nul\\x00x");
}

static void test_utf8(void **state)
{
    (void)state;
    expect("µs ×2 ±1", strlen("µs ×2 ±1"), 0, "µs ×2 ±1");
    expect("\xc2\x9b" "31m", 5, 0, "\\u009b31m");       /* C1 CSI */
    expect("\x9b" "31m", 4, 0, "\\x9b31m");              /* a lone 8-bit CSI */
    expect("\xe2\x82", 2, 0, "\\xe2\\x82");              /* truncated sequence */
    expect("\xed\xa0\x80", 3, 0, "\\xed\\xa0\\x80");     /* a surrogate */
    expect("\xc0\xaf", 2, 0, "\\xc0\\xaf");              /* overlong '/' */
    expect("back\\slash", 10, 0, "back\\slash");
}

static void test_null_and_empty(void **state)
{
    (void)state;
    expect(NULL, 5, 0, "");
    expect("", 0, 0, "");
}

CW_UNIT_MAIN(NULL, NULL,
             cmocka_unit_test(test_controls),
             cmocka_unit_test(test_utf8),
             cmocka_unit_test(test_null_and_empty))
