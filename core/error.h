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

/* What came of an operation, as library code says it: its status.  The
 * values run in the contract's precedence (ARCHITECTURE §2: usage > env >
 * findings > divergence > ok), so the worse of two is the larger.  Only
 * the program turns a status into a process exit code (app/exitcode.h). */
typedef enum cw_status {
    CW_STATUS_OK = 0,
    CW_STATUS_DIVERGENCE, /* run: a measurement diverged; diff: a regression */
    CW_STATUS_FINDINGS,   /* a finding of severity error */
    CW_STATUS_ENV,        /* the environment failed: no device, device lost, OOM, hang */
    CW_STATUS_INPUT,      /* usage or input error: the user can fix it */
} cw_status;

void cw_error_clear(cw_error *err);
/* An input error (kind CW_ERR_INPUT). */
void cw_error_set(cw_error *err, const char *file, int line, int column,
                  const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* An environment failure (kind CW_ERR_ENV). */
void cw_error_set_env(cw_error *err, const char *file, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* "file:line:column: text" (parts omitted when absent) into buf. */
void cw_error_format(const cw_error *err, char *buf, unsigned long size);

/* The worse of two statuses. */
int cw_status_worst(int a, int b);
/* The status of a failure described by err: CW_STATUS_ENV for an
 * environment failure, else CW_STATUS_INPUT (a library that set no kind is
 * treated as bad input). */
cw_status cw_status_of_error(const cw_error *err);

#endif
