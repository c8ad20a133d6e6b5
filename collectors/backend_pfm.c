/* backend_pfm.c - the counters backend: libpfm4 + perf_event_open (pfm.h).
 * It runs no kernel: the kernel backends open one of their own
 * (backend_counters_open) and bracket their calls with it; the session
 * opens one to tell which counters exist and why the others do not (the
 * TUI's device view). */
#include "backend.h"

#include "pfm.h"

static int pfmb_open(const backend_config *cfg, void **state, cw_error *err)
{
    pfm_session *s = NULL;
    if (pfm_session_open(cfg->events, cfg->inherit, &s, err) != 0)
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

static void pfmb_start(void *state)
{
    pfm_session_start(state);
}

static void pfmb_stop(void *state)
{
    pfm_session_stop(state);
}

static void pfmb_reset(void *state)
{
    pfm_session_reset(state);
}

static void pfmb_read(void *state, measurement *m)
{
    pfm_session_read(state, m);
}

const backend backend_pfm = {
    .name = "pfm", .role = BACKEND_ROLE_COUNTERS,
    .absent = "no hardware counters",
    .open = pfmb_open, .describe = pfmb_describe, .close = pfmb_close,
    .start = pfmb_start, .stop = pfmb_stop, .reset = pfmb_reset, .read = pfmb_read,
};
