/* backend_null.c - stands in when no backend of a role opened: measures
 * nothing and says why (unavailable with the reason, never a number). */
#include "backend.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int null_open(const backend_config *cfg, void **state, cw_error *err)
{
    (void)err;
    *state = cw_strdup(cfg && cfg->reason && cfg->reason[0]
                           ? cfg->reason : "no device");
    return 0;
}

static void null_describe(void *state, backend_desc *d)
{
    (void)state;
    if (d->dev && !d->dev->name)
        cw_set_str(&d->dev->name, "no device");
}

static int null_measure(void *state, const plan_kernel *k,
                        const backend_kernel *bk, const run_options *ro,
                        measurement *m)
{
    (void)k, (void)bk, (void)ro;
    char msg[1200];
    snprintf(msg, sizeof msg, "unavailable: %s", (const char *)state);
    cw_set_str(&m->error, msg);
    return CW_STATUS_ENV;
}

static void null_close(void *state)
{
    free(state);
}

const backend backend_null = {
    .name = "null", .role = BACKEND_ROLE_ANY,
    .open = null_open, .describe = null_describe, .measure = null_measure, .close = null_close,
};
