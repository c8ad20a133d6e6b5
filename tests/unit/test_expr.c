/* test_expr.c - table-driven tests of the work-expression evaluator. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "unit.h"

#include "expr.h"

static const expr_var vars[] = {
    {"n", 512}, {"m", 3}, {"k_2", -7}, {"big", INT64_MAX}, {"zero", 0},
    {"min", INT64_MIN},
};
#define NVARS (sizeof vars / sizeof vars[0])

typedef struct ok_case {
    int line;
    const char *text;
    int64_t want;
} ok_case;

static const ok_case ok_cases[] = {
    {__LINE__, "0", 0},
    {__LINE__, "42", 42},
    {__LINE__, "  7  ", 7},
    {__LINE__, "2*n*n*n", 268435456},
    {__LINE__, "3*4*n*n", 3145728},
    {__LINE__, "1+2*3", 7},
    {__LINE__, "(1+2)*3", 9},
    {__LINE__, "10-4-3", 3},          /* left associative */
    {__LINE__, "100/10/5", 2},        /* left associative */
    {__LINE__, "7/2", 3},             /* truncates */
    {__LINE__, "-7/2", -3},           /* toward zero */
    {__LINE__, "-m", -3},
    {__LINE__, "--m", 3},
    {__LINE__, "2*-m", -6},
    {__LINE__, "-(n+1)", -513},
    {__LINE__, "k_2*k_2", 49},
    {__LINE__, "((((n))))", 512},
    {__LINE__, "big", INT64_MAX},
    {__LINE__, "big-big", 0},
    {__LINE__, "-big-1", INT64_MIN},
    {__LINE__, "9223372036854775807", INT64_MAX},
    {__LINE__, "zero*big", 0},
    {__LINE__, "min/1", INT64_MIN},
    {__LINE__, "n\t*\nm", 1536},
};

typedef struct err_case {
    int line;
    const char *text;
    int pos;               /* expected 1-based position */
    const char *contains;  /* expected substring of the message */
} err_case;

static const err_case err_cases[] = {
    {__LINE__, "", 1, "expected a number"},
    {__LINE__, "   ", 4, "end of the expression"},
    {__LINE__, "2*", 3, "expected a number"},
    {__LINE__, "2**3", 3, "found '*'"},
    {__LINE__, "n+x", 3, "unknown argument 'x'"},
    {__LINE__, "nn", 1, "arguments: n, m"},
    {__LINE__, "(n+1", 5, "expected ')'"},
    {__LINE__, "n+1)", 4, "unmatched ')'"},
    {__LINE__, "n 2", 3, "unexpected '2'"},
    {__LINE__, "n/0", 2, "division by zero"},
    {__LINE__, "n/(m-3)", 2, "division by zero"},
    {__LINE__, "n/zero", 2, "division by zero"},
    {__LINE__, "big+1", 4, "addition overflows"},
    {__LINE__, "min-1", 4, "subtraction overflows"},
    {__LINE__, "big*2", 4, "multiplication overflows"},
    {__LINE__, "min/-1", 4, "division overflows"},
    {__LINE__, "-min", 1, "negation overflows"},
    {__LINE__, "9223372036854775808", 1, "does not fit"},
    {__LINE__, "1.5*n", 2, "only integers"},
    {__LINE__, "2n", 2, "only integers"},
    {__LINE__, "n^2", 2, "unexpected '^'"},
    {__LINE__, "+n", 1, "found '+'"},
    {__LINE__, "n*(m", 5, "the '(' at 3"},
    {__LINE__, "2*n*n*n*n*n*n*n", 14, "multiplication overflows"},
};

/* Evaluates text; ok: it must give want, else fail at pos with a message
 * containing contains and leave the result alone. */
static void check_expr(int line, const char *text, int ok, int64_t want, int pos,
                       const char *contains)
{
    expr_error e;
    memset(&e, 0, sizeof e);
    const int64_t untouched = 777;
    int64_t v = untouched;
    int rc = expr_eval(text, vars, NVARS, &v, &e);
    int good = ok ? rc == 0 && v == want
                  : rc != 0 && e.pos == pos && strstr(e.text, contains) && v == untouched;
    if (!good) {
        print_error("line %d: \"%s\": rc %d value %lld pos %d msg \"%s\"; want %s %lld "
                    "pos %d msg \"%s\"\n", line, text, rc, (long long)v, e.pos,
                    rc ? e.text : "", ok ? "value" : "error", (long long)want, pos,
                    ok ? "" : contains);
        fail();
    }
}

static void test_ok_table(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof ok_cases / sizeof ok_cases[0]; i++)
        check_expr(ok_cases[i].line, ok_cases[i].text, 1, ok_cases[i].want, 0, NULL);
}

static void test_err_table(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof err_cases / sizeof err_cases[0]; i++)
        check_expr(err_cases[i].line, err_cases[i].text, 0, 0, err_cases[i].pos,
                   err_cases[i].contains);
}

static void test_deep_nesting_is_an_error(void **state)
{
    (void)state;
    char buf[4096];
    size_t n = 0;
    for (int i = 0; i < 1000; i++)
        buf[n++] = '(';
    buf[n++] = '1';
    for (int i = 0; i < 1000; i++)
        buf[n++] = ')';
    buf[n] = '\0';
    expr_error e;
    int64_t v;
    assert_int_equal(expr_eval(buf, vars, NVARS, &v, &e), -1);
    assert_non_null(strstr(e.text, "nested deeper"));
    assert_true(e.pos > 1 && e.pos <= 1000);

    memset(buf, '-', 1000);
    strcpy(buf + 1000, "1");
    assert_int_equal(expr_eval(buf, vars, NVARS, &v, &e), -1);
    assert_non_null(strstr(e.text, "nested deeper"));
}

static void test_no_vars_and_null_err(void **state)
{
    (void)state;
    int64_t v = 0;
    assert_int_equal(expr_eval("6*7", NULL, 0, &v, NULL), 0);
    assert_int_equal(v, 42);
    expr_error e;
    assert_int_equal(expr_eval("n", NULL, 0, &v, &e), -1);
    assert_non_null(strstr(e.text, "no arguments"));
    assert_int_equal(expr_eval("1/0", NULL, 0, &v, NULL), -1);
}

CW_UNIT_MAIN(NULL, NULL,
             cmocka_unit_test(test_ok_table),
             cmocka_unit_test(test_err_table),
             cmocka_unit_test(test_deep_nesting_is_an_error),
             cmocka_unit_test(test_no_vars_and_null_err))
