/* expr.h - integer arithmetic expressions over named arguments.
 *
 * Used for a CPU kernel's "work" in a plan ("flops": "2*n*n*n"), evaluated
 * against the kernel's integer args.  Grammar:
 *
 *     expr    := term (('+' | '-') term)*
 *     term    := unary (('*' | '/') unary)*
 *     unary   := '-' unary | primary
 *     primary := INTEGER | NAME | '(' expr ')'
 *
 * NAME is [A-Za-z_][A-Za-z0-9_]*; blanks are ignored.  Arithmetic is
 * 64-bit signed and checked: overflow, division by zero and a literal
 * that does not fit are errors, never wrapped values.  Division truncates
 * toward zero (C semantics).
 *
 * Contract: expr_eval() is pure (no allocation, no globals).  On success it
 * returns 0 and stores the value; on failure it returns -1 and fills err
 * with the 1-based position in text of the offending character (or of the
 * operator that overflowed) and one sentence saying what is wrong.
 */
#ifndef CW_EXPR_H
#define CW_EXPR_H

#include <stddef.h>
#include <stdint.h>

typedef struct expr_var {
    const char *name;
    int64_t value;
} expr_var;

typedef struct expr_error {
    int pos;        /* 1-based position in the expression; 0 if none */
    char text[256];
} expr_error;

int expr_eval(const char *text, const expr_var *vars, size_t nvars,
              int64_t *out, expr_error *err);

#endif
