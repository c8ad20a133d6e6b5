/* exitcode.h - the one place where a status becomes a process exit code
 * (ARCHITECTURE §2).  Library layers return a cw_status (core/error.h) or
 * 0 / -1 with a cw_error whose kind says whose fault it was; the program
 * maps them here.  Nothing below app/ knows these numbers
 * (tests/integration/layering.sh fails on a CW_EXIT_ outside app/). */
#ifndef CW_EXITCODE_H
#define CW_EXITCODE_H

#include "error.h"

/* Exit codes of the command-line contract (ARCHITECTURE §2). */
enum {
    CW_EXIT_OK = 0,
    CW_EXIT_FINDINGS = 1,   /* a finding of severity error */
    CW_EXIT_USAGE = 2,      /* usage or input error */
    CW_EXIT_DIVERGENCE = 3, /* run: divergence; diff: regression */
    CW_EXIT_ENV = 4,        /* no device, device lost, OOM, hang */
};

/* Exit code of a status (an unknown value is a usage error). */
int app_exit_code(int status);
/* Worst exit code of two, in the contract's precedence 2 > 4 > 1 > 3 > 0
 * (a code outside the contract, read from a report, ranks with 0). */
int app_exit_worst(int a, int b);
/* Exit code of a failure described by err (CW_EXIT_USAGE when the kind was
 * not set: a library that says nothing is treated as bad input). */
int app_exit_for_error(const cw_error *err);

#endif
