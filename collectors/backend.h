/* backend.h - the measuring backends behind one interface.
 *
 * A backend measures; it never judges (the verdict does, core/verdict.h).
 * Each is one file filling a `backend` with designated initializers, and
 * every backend is listed once, in backend_table[] (backend.c), in the
 * order the session tries them.  Adding one: a new file
 * collectors/backend_<name>.c and its line in that table; nothing else
 * (docs/architecture.md shows the steps).
 *
 * Lifecycle, driven only by the session layer (app/session.c):
 *   open(cfg, &state, err)  detect -> validate -> activate.  0, or
 *                           CW_STATUS_ENV (not here: err says why) or
 *                           CW_STATUS_INPUT (a bad selector or event list).
 *   inspect(cfg, desc, err) optional: describe the device cfg names
 *                           without opening it (static work, `check`).
 *   describe(state, desc)   the report's device block and the device's own
 *                           facts (name, uuid, driver, limits, shape, or
 *                           for counters the events and their availability)
 *   prepare(state, k, bk)   optional, per kernel before its prediction: ask
 *                           the device for compile-time facts (registers)
 *   measure(state, k, bk, ro, m)  run and time one kernel: fills m (samples,
 *                           counters); 0, or CW_STATUS_ENV with m->error
 *   wedged(state)           optional: non-zero when the device cannot be
 *                           torn down safely (a kernel hung)
 *   calibrate(state, cfg, budget_s, out, log, err)  optional: measure the
 *                           opened device's profile (`clockwork calibrate`);
 *                           0, or a status with err
 *   devices(format, text, err)  optional, without opening: the devices
 *                           this backend can open, as "table" or "json"
 *                           text (malloc'd); CW_STATUS_ENV when it cannot
 *                           list them, CW_STATUS_INPUT for another format
 *   close(state)            optional: releases it (leaves it alone when
 *                           wedged)
 * Counters backends also bracket regions of the kernel backends' work:
 *   start(state), stop(state)  count between them (brackets accumulate)
 *   reset(state)            forget the counts so far
 *   read(state, m)          append one counter_value per event to m: the
 *                           count, or available = 0 and the reason
 * A kernel backend opens counters of its own through the table
 * (backend_counters_open), before its device or the kernel's process, so
 * that with inherit the threads and processes they start are counted.
 * The null backend stands in when no backend of a role opens: its measure
 * reports "unavailable" with the reason, never a number.
 * Environment: CW_BACKENDS_OFF=vulkan,cpu (names, comma-separated) forces
 * those backends off, so a test can run without them.
 */
#ifndef CW_BACKEND_H
#define CW_BACKEND_H

#include <stddef.h>
#include <stdio.h>

#include "error.h"
#include "plan.h"
#include "profile.h"
#include "report.h"
#include "shader.h"
#include "verifier.h"
#include "vk.h" /* run_options */

typedef enum backend_role {
    BACKEND_ROLE_GPU,      /* runs GPU (SPIR-V) kernels */
    BACKEND_ROLE_CPU,      /* runs native CPU kernels */
    BACKEND_ROLE_COUNTERS, /* hardware counters around the others' calls */
    BACKEND_ROLE_ANY,      /* the null backend */
} backend_role;

typedef struct backend_config {
    const char *device;  /* --device selector; NULL = default order */
    const char *events;  /* --events; NULL = defaults, "" = none */
    const char *reason;  /* null backend: why nothing else opened */
    int inherit;         /* counters: also count the threads and processes
                            started after opening */
} backend_config;

/* What the static stage built for a kernel, for the runners. */
typedef struct backend_kernel {
    const shader_module *module; /* GPU kernels */
    const reflection *refl;      /* GPU kernels */
    kernel_counts *counts;       /* prepare() records driver facts here */
} backend_kernel;

typedef struct backend_desc {
    report_device *dev;          /* may be NULL */
    device_profile *prof;        /* the device's own facts; may be NULL */
    measurement *counters;       /* counters backends; may be NULL */
} backend_desc;

typedef struct backend {
    const char *name;
    backend_role role;
    const char *absent;  /* what it means when it does not open */
    int (*open)(const backend_config *cfg, void **state, cw_error *err);
    int (*inspect)(const backend_config *cfg, backend_desc *desc,
                   cw_error *err);
    void (*describe)(void *state, backend_desc *desc);
    void (*prepare)(void *state, const plan_kernel *k, backend_kernel *bk);
    int (*measure)(void *state, const plan_kernel *k,
                   const backend_kernel *bk, const run_options *ro,
                   measurement *m);
    int (*wedged)(void *state);
    int (*calibrate)(void *state, const backend_config *cfg, double budget_s,
                     device_profile *out, FILE *log, cw_error *err);
    int (*devices)(const char *format, char **text, cw_error *err);
    void (*close)(void *state);
    /* counters backends (see above) */
    void (*start)(void *state);
    void (*stop)(void *state);
    void (*reset)(void *state);
    void (*read)(void *state, measurement *m);
} backend;

/* Every backend, in the order they are tried; NULL-terminated. */
extern const backend *const backend_table[];

/* An opened backend of one role (the null backend when none opened). */
typedef struct backend_slot {
    const backend *b;
    void *state;
    int available;       /* 0: the null backend stands in */
} backend_slot;

/* Opens the first backend of `role` in the table that opens.  Returns 0;
 * or the last failure (CW_STATUS_ENV, err says why) with the null backend
 * in the slot carrying that reason; or CW_STATUS_INPUT (err; slot empty).
 * A backend named in CW_BACKENDS_OFF is skipped as not available. */
int backend_open_role(backend_role role, const backend_config *cfg,
                      backend_slot *slot, cw_error *err);
/* The null backend in slot, measuring nothing because of `reason`. */
void backend_open_null(const char *reason, backend_slot *slot);
/* The first backend of `role` (for inspect); NULL when none or off. */
const backend *backend_for_role(backend_role role, cw_error *why);
/* Non-zero when `name` is listed in CW_BACKENDS_OFF. */
int backend_forced_off(const char *name);
int backend_slot_measure(backend_slot *s, const plan_kernel *k,
                         const backend_kernel *bk, const run_options *ro,
                         measurement *m);
void backend_slot_close(backend_slot *s);

/* A kernel backend's counters: the first counters backend in the table
 * that opens the events (NULL = defaults) with inherit, else the null
 * backend, which counts nothing and reads no counter.  0, or
 * CW_STATUS_INPUT on a malformed event list (err; slot empty).  The
 * others work on any slot, empty or null (then they do nothing). */
int backend_counters_open(const char *events, int inherit, backend_slot *slot, cw_error *err);
void backend_counters_start(backend_slot *s);
void backend_counters_stop(backend_slot *s);
void backend_counters_reset(backend_slot *s);
void backend_counters_read(backend_slot *s, measurement *m);

#endif
