/* backend_pfm.c - the counters backend: libpfm4 + perf_event_open (pfm.h).
 * It runs no kernel: the kernel backends bracket their calls with a pfm
 * session of their own; this one tells which counters exist and why the
 * others do not (the TUI's device view). */
#include "backend.h"

#include "pfm.h"

static int pfmb_open(const backend_config *cfg, void **state, cw_error *err)
{
    pfm_session *s = NULL;
    if (pfm_session_open(cfg->events, 0, &s, err) != 0)
        return CW_STATUS_INPUT; /* only a malformed event list fails */
    *state = s;
    return 0;
}

static void pfmb_describe(void *state, backend_desc *desc)
{
    if (state && desc->counters)
        pfm_session_describe(state, desc->counters);
}

static void pfmb_close(void *state)
{
    if (state)
        pfm_session_close(state);
}

const backend backend_pfm = {
    .name = "pfm", .role = BACKEND_ROLE_COUNTERS,
    .absent = "no hardware counters",
    .open = pfmb_open, .describe = pfmb_describe, .close = pfmb_close,
};
