/* backend.c - the backend table and opening by role (see backend.h). */
#include "backend.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const backend backend_vulkan;
extern const backend backend_cpu;
extern const backend backend_pfm;
extern const backend backend_null;

/* Presence and order in one place: the session tries them top down. */
const backend *const backend_table[] = {
    &backend_vulkan,
    &backend_cpu,
    &backend_pfm,
    &backend_null,
    NULL,
};

int backend_forced_off(const char *name)
{
    const char *off = getenv("CW_BACKENDS_OFF");
    size_t n = strlen(name);
    for (const char *p = off; p && *p;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len == n && strncmp(p, name, n) == 0)
            return 1;
        p = end ? end + 1 : p + len;
    }
    return 0;
}

const backend *backend_for_role(backend_role role, cw_error *why)
{
    for (size_t i = 0; backend_table[i]; i++) {
        const backend *b = backend_table[i];
        if (b->role != role)
            continue;
        if (!backend_forced_off(b->name))
            return b;
        if (why)
            cw_error_set(why, NULL, 0, 0, "the %s backend is disabled "
                         "(CW_BACKENDS_OFF)", b->name);
    }
    return NULL;
}

void backend_open_null(const char *reason, backend_slot *slot)
{
    memset(slot, 0, sizeof *slot);
    backend_config nc = {.reason = reason};
    cw_error ignored;
    for (size_t i = 0; backend_table[i]; i++)
        if (backend_table[i]->role == BACKEND_ROLE_ANY &&
            backend_table[i]->open(&nc, &slot->state, &ignored) == 0) {
            slot->b = backend_table[i];
            return;
        }
}

int backend_open_role(backend_role role, const backend_config *cfg,
                      backend_slot *slot, cw_error *err)
{
    memset(slot, 0, sizeof *slot);
    cw_error_clear(err);
    int rc = CW_STATUS_ENV;
    int tried = 0;
    const char *absent = "nothing can measure it";
    for (size_t i = 0; backend_table[i]; i++) {
        const backend *b = backend_table[i];
        if (b->role != role)
            continue;
        tried = 1;
        if (b->absent)
            absent = b->absent;
        if (backend_forced_off(b->name)) {
            cw_error_set(err, NULL, 0, 0, "the %s backend is disabled "
                         "(CW_BACKENDS_OFF)", b->name);
            rc = CW_STATUS_ENV;
            continue;
        }
        rc = b->open(cfg, &slot->state, err);
        if (rc == 0) {
            slot->b = b;
            slot->available = 1;
            return 0;
        }
        if (rc == CW_STATUS_INPUT)
            return rc;
    }
    if (!tried)
        cw_error_set(err, NULL, 0, 0, "no backend measures this kind of "
                     "kernel");
    char msg[1600], reason[1800];
    cw_error_format(err, msg, sizeof msg);
    snprintf(reason, sizeof reason, "%s: %s", absent, msg);
    backend_open_null(reason, slot);
    return rc ? rc : CW_STATUS_ENV;
}

int backend_slot_measure(backend_slot *s, const plan_kernel *k,
                         const backend_kernel *bk, const run_options *ro,
                         measurement *m)
{
    if (!s->b || !s->b->measure) {
        cw_set_str(&m->error, "unavailable: no backend measures this kind "
                   "of kernel");
        return CW_STATUS_ENV;
    }
    return s->b->measure(s->state, k, bk, ro, m);
}

void backend_slot_close(backend_slot *s)
{
    if (s->b && s->b->close)
        s->b->close(s->state);
    memset(s, 0, sizeof *s);
}

int backend_counters_open(const char *events, int inherit, backend_slot *slot, cw_error *err)
{
    backend_config cfg = {.events = events, .inherit = inherit};
    int rc = backend_open_role(BACKEND_ROLE_COUNTERS, &cfg, slot, err);
    return rc == CW_STATUS_INPUT ? rc : 0;
}

void backend_counters_start(backend_slot *s)
{
    if (s->b && s->b->start)
        s->b->start(s->state);
}

void backend_counters_stop(backend_slot *s)
{
    if (s->b && s->b->stop)
        s->b->stop(s->state);
}

void backend_counters_reset(backend_slot *s)
{
    if (s->b && s->b->reset)
        s->b->reset(s->state);
}

void backend_counters_read(backend_slot *s, measurement *m)
{
    if (s->b && s->b->read)
        s->b->read(s->state, m);
}
