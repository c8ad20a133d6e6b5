/* error.h - one error struct for every module that reads user input.
 *
 * Contract: a function that can fail on user input returns a status (0 ok,
 * non-zero failure) and fills a cw_error with the file, line and column it
 * was reading (0 when unknown) and one sentence that says what is wrong and,
 * where it helps, what to do.  Modelled on jansson's json_error_t.
 * cw_error is plain data: no ownership, copy freely.
 */
#ifndef CW_ERROR_H
#define CW_ERROR_H

#include <stdarg.h>

typedef struct cw_error {
    char file[512];
    int line;   /* 1-based; 0 when not applicable */
    int column; /* 1-based; 0 when not applicable */
    char text[1024];
} cw_error;

/* Exit codes of the command-line contract (ARCHITECTURE §2). */
enum {
    CW_EXIT_OK = 0,
    CW_EXIT_FINDINGS = 1,   /* a finding of severity error */
    CW_EXIT_USAGE = 2,      /* usage or input error */
    CW_EXIT_DIVERGENCE = 3, /* run: divergence; diff: regression */
    CW_EXIT_ENV = 4,        /* no device, device lost, OOM, hang */
};

void cw_error_clear(cw_error *err);
void cw_error_set(cw_error *err, const char *file, int line, int column,
                  const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* "file:line:column: text" (parts omitted when absent) into buf. */
void cw_error_format(const cw_error *err, char *buf, unsigned long size);

/* Worst exit code of two, in the contract's precedence 2 > 4 > 1 > 3 > 0. */
int cw_exit_worst(int a, int b);

#endif
