/* exitcode.c - see exitcode.h. */
#include "exitcode.h"

int app_exit_for_error(const cw_error *err)
{
    if (err && err->kind == CW_ERR_ENV)
        return CW_EXIT_ENV;
    return CW_EXIT_USAGE;
}
