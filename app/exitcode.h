/* exitcode.h - the one place where a failure's kind becomes a process exit
 * code (ARCHITECTURE §2).  Library layers return 0 / -1 and fill a
 * cw_error whose kind says whose fault it was; the program maps it here:
 * an input error is exit 2, an environment failure exit 4. */
#ifndef CW_EXITCODE_H
#define CW_EXITCODE_H

#include "error.h"

/* Exit code of a failure described by err (CW_EXIT_USAGE when the kind was
 * not set: a library that says nothing is treated as bad input). */
int app_exit_for_error(const cw_error *err);

#endif
