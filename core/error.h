/* error.h - one error struct for every module that reads user input.
 *
 * Contract: a function that can fail on user input returns a status (0 ok,
 * -1 failure) and fills a cw_error with the file, line and column it was
 * reading (0 when unknown), one sentence that says what is wrong and, where
 * it helps, what to do, and the kind of failure: the input (the user's
 * file or option is wrong) or the environment (out of memory, a device, a
 * compiler that crashed).  Library code never returns process exit codes:
 * only the program (app/) turns kinds into them (app/exitcode.h).
 * Modelled on jansson's json_error_t.  cw_error is plain data: no
 * ownership, copy freely.
 */
#ifndef CW_ERROR_H
#define CW_ERROR_H

#include <stdarg.h>

typedef enum cw_error_kind {
    CW_ERR_NONE = 0,
    CW_ERR_INPUT,  /* the input or the options are wrong: the user can fix it */
    CW_ERR_ENV,    /* the environment failed: memory, device, compiler */
} cw_error_kind;

typedef struct cw_error {
    cw_error_kind kind;
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
/* An input error (kind CW_ERR_INPUT). */
void cw_error_set(cw_error *err, const char *file, int line, int column,
                  const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* An environment failure (kind CW_ERR_ENV). */
void cw_error_set_env(cw_error *err, const char *file, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* "file:line:column: text" (parts omitted when absent) into buf. */
void cw_error_format(const cw_error *err, char *buf, unsigned long size);

/* Worst exit code of two, in the contract's precedence 2 > 4 > 1 > 3 > 0. */
int cw_exit_worst(int a, int b);

#endif
