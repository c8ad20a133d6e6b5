/* expr.c - recursive-descent evaluator for work expressions (see expr.h). */
#include "expr.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Nesting bound: keeps "((((...))))" from exhausting the stack. */
#define EXPR_MAX_DEPTH 200

typedef struct parser {
    const char *s;
    size_t i;
    const expr_var *vars;
    size_t nvars;
    int depth;
    expr_error *err;
} parser;

static int fail(parser *p, size_t at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int fail(parser *p, size_t at, const char *fmt, ...)
{
    if (p->err) {
        va_list ap;
        p->err->pos = (int)at + 1;
        va_start(ap, fmt);
        vsnprintf(p->err->text, sizeof p->err->text, fmt, ap);
        va_end(ap);
    }
    return -1;
}

static void skip_blanks(parser *p)
{
    while (p->s[p->i] && isspace((unsigned char)p->s[p->i]))
        p->i++;
}

/* Describe the character at i for messages ("end of expression" or 'c'). */
static void describe(const parser *p, size_t i, char *buf, size_t n)
{
    unsigned char c = (unsigned char)p->s[i];
    if (!c)
        snprintf(buf, n, "the end of the expression");
    else if (isprint(c))
        snprintf(buf, n, "'%c'", c);
    else
        snprintf(buf, n, "byte 0x%02x", c);
}

static int parse_expr(parser *p, int64_t *out);

static int parse_primary(parser *p, int64_t *out)
{
    skip_blanks(p);
    size_t start = p->i;
    unsigned char c = (unsigned char)p->s[p->i];

    if (isdigit(c)) {
        int64_t v = 0;
        while (isdigit((unsigned char)p->s[p->i])) {
            int d = p->s[p->i] - '0';
            if (__builtin_mul_overflow(v, (int64_t)10, &v) ||
                __builtin_add_overflow(v, (int64_t)d, &v))
                return fail(p, start,
                            "integer literal does not fit in 64 bits");
            p->i++;
        }
        if (isalpha((unsigned char)p->s[p->i]) || p->s[p->i] == '_' ||
            p->s[p->i] == '.')
            return fail(p, p->i,
                        "unexpected '%c' in a number (only integers "
                        "are allowed)", p->s[p->i]);
        *out = v;
        return 0;
    }
    if (isalpha(c) || c == '_') {
        while (isalnum((unsigned char)p->s[p->i]) || p->s[p->i] == '_')
            p->i++;
        size_t len = p->i - start;
        for (size_t k = 0; k < p->nvars; k++) {
            const char *name = p->vars[k].name;
            if (name && strlen(name) == len &&
                memcmp(name, p->s + start, len) == 0) {
                *out = p->vars[k].value;
                return 0;
            }
        }
        char known[160] = "";
        size_t used = 0;
        for (size_t k = 0; k < p->nvars && used + 1 < sizeof known; k++) {
            int w = snprintf(known + used, sizeof known - used, "%s%s",
                             k ? ", " : "", p->vars[k].name);
            if (w < 0)
                break;
            used += (size_t)w;
        }
        if (used >= sizeof known)
            used = sizeof known - 1;
        return fail(p, start, "unknown argument '%.*s' (%s%s)", (int)len,
                    p->s + start, p->nvars ? "arguments: " : "no arguments",
                    known);
    }
    if (c == '(') {
        if (++p->depth > EXPR_MAX_DEPTH)
            return fail(p, start, "parentheses nested deeper than %d",
                        EXPR_MAX_DEPTH);
        p->i++;
        if (parse_expr(p, out))
            return -1;
        skip_blanks(p);
        if (p->s[p->i] != ')') {
            char what[32];
            describe(p, p->i, what, sizeof what);
            return fail(p, p->i, "expected ')' to close the '(' at %zu, "
                        "found %s", start + 1, what);
        }
        p->i++;
        p->depth--;
        return 0;
    }
    char what[32];
    describe(p, p->i, what, sizeof what);
    return fail(p, p->i, "expected a number, an argument name or '(', "
                "found %s", what);
}

static int parse_unary(parser *p, int64_t *out)
{
    skip_blanks(p);
    if (p->s[p->i] == '-') {
        size_t at = p->i++;
        if (++p->depth > EXPR_MAX_DEPTH)
            return fail(p, at, "unary minus nested deeper than %d",
                        EXPR_MAX_DEPTH);
        int64_t v;
        if (parse_unary(p, &v))
            return -1;
        p->depth--;
        if (__builtin_sub_overflow((int64_t)0, v, out))
            return fail(p, at, "negation overflows 64 bits");
        return 0;
    }
    return parse_primary(p, out);
}

/* acc op= rhs, checked: the error names the operation at `at`. */
static int apply(parser *p, size_t at, char op, int64_t *acc, int64_t rhs)
{
    switch (op) {
    case '+':
        if (__builtin_add_overflow(*acc, rhs, acc))
            return fail(p, at, "%s overflows 64 bits", "addition");
        return 0;
    case '-':
        if (__builtin_sub_overflow(*acc, rhs, acc))
            return fail(p, at, "%s overflows 64 bits", "subtraction");
        return 0;
    case '*':
        if (__builtin_mul_overflow(*acc, rhs, acc))
            return fail(p, at, "multiplication overflows 64 bits");
        return 0;
    default:
        if (rhs == 0)
            return fail(p, at, "division by zero");
        if (*acc == INT64_MIN && rhs == -1)
            return fail(p, at, "division overflows 64 bits");
        *acc /= rhs;
        return 0;
    }
}

/* A left-associative run of operands joined by the operators in ops (one
 * precedence level), each operand parsed by `operand`. */
static int parse_level(parser *p, int64_t *out, const char *ops,
                       int (*operand)(parser *, int64_t *))
{
    int64_t acc;
    if (operand(p, &acc))
        return -1;
    for (;;) {
        skip_blanks(p);
        char op = p->s[p->i];
        if (!op || !strchr(ops, op))
            break;
        size_t at = p->i++;
        int64_t rhs;
        if (operand(p, &rhs) || apply(p, at, op, &acc, rhs))
            return -1;
    }
    *out = acc;
    return 0;
}

static int parse_term(parser *p, int64_t *out)
{
    return parse_level(p, out, "*/", parse_unary);
}

static int parse_expr(parser *p, int64_t *out)
{
    return parse_level(p, out, "+-", parse_term);
}

int expr_eval(const char *text, const expr_var *vars, size_t nvars,
              int64_t *out, expr_error *err)
{
    parser p = {.s = text ? text : "", .vars = vars, .nvars = nvars,
                .err = err};
    if (err) {
        err->pos = 0;
        err->text[0] = '\0';
    }
    int64_t v;
    if (parse_expr(&p, &v))
        return -1;
    skip_blanks(&p);
    if (p.s[p.i]) {
        if (p.s[p.i] == ')')
            return fail(&p, p.i, "unmatched ')'");
        char what[32];
        describe(&p, p.i, what, sizeof what);
        return fail(&p, p.i, "unexpected %s after the expression (operators: "
                    "+ - * / and parentheses)", what);
    }
    if (out)
        *out = v;
    return 0;
}
