/* exitcode.c - see exitcode.h. */
#include "exitcode.h"

/* indexed by cw_status */
static const int exit_of_status[] = {
    [CW_STATUS_OK] = CW_EXIT_OK,
    [CW_STATUS_DIVERGENCE] = CW_EXIT_DIVERGENCE,
    [CW_STATUS_FINDINGS] = CW_EXIT_FINDINGS,
    [CW_STATUS_ENV] = CW_EXIT_ENV,
    [CW_STATUS_INPUT] = CW_EXIT_USAGE,
};

int app_exit_code(int status)
{
    if (status < 0 || status >= (int)(sizeof exit_of_status / sizeof *exit_of_status))
        return CW_EXIT_USAGE;
    return exit_of_status[status];
}

/* an exit code outside the contract (recorded in a report) ranks as 0 and
 * is kept as it is */
static int exit_rank(int code)
{
    for (int s = CW_STATUS_OK; s <= CW_STATUS_INPUT; s++)
        if (exit_of_status[s] == code)
            return s;
    return CW_STATUS_OK;
}

int app_exit_worst(int a, int b)
{
    return exit_rank(a) >= exit_rank(b) ? a : b;
}

int app_exit_for_error(const cw_error *err)
{
    return app_exit_code(cw_status_of_error(err));
}
