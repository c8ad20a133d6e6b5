/* session.h - how a command is set up: device, profile, run options,
 * tolerance, exit code.  The CLI (main.c) and the TUI worker (tui/worker.c)
 * both go through it, so batch and live runs make the same choices.
 *
 * Contract:
 *   session_open()            once per command, from the parsed options and
 *                             the kinds of kernel the plans hold.  It is the
 *                             only code that opens a measuring backend
 *                             (collectors/backend.h), chooses the profile
 *                             and its fallback, and sets the run options,
 *                             sampling defaults and the tolerance.
 *   session_check_kernel()    the static stage of one kernel (pipeline.h),
 *                             or its two parts: session_analyse_kernel()
 *                             and session_predict_kernel()
 *   session_measure_kernel()  its live stage and verdict
 *   session_exit_code()       the one rule from results to exit codes
 *                             (ARCHITECTURE §2: 2 > 4 > 1 > 3 > 0)
 *   session_calibrate()       `clockwork calibrate`: opens the device through
 *                             its backend, measures its profile, closes it
 *   session_list_devices()    `clockwork devices`: the GPU backend's list
 *   session_close()           releases the device (left alone after a hang:
 *                             see session_wedged()).
 * Profile choice, GPU kernels: --profile (file or built-in key), else the
 * calibrated cache of the device, else a built-in the device's name
 * carries, else the device's limits only; no device at all: this CPU
 * through lavapipe.  Native CPU kernels: this CPU's calibrated profile,
 * else the detected one.  The options stay the caller's and must outlive
 * the session; everything else in it is the session's.
 */
#ifndef CW_SESSION_H
#define CW_SESSION_H

#include "backend.h"
#include "pipeline.h"
#include "profile.h"
#include "report.h"

/* What the user asked for (command line, or the TUI's defaults). */
typedef struct cw_options {
    const char *device;      /* --device selector; NULL = default order */
    const char *profile;     /* --profile FILE or built-in key; NULL = auto */
    const char *format;      /* table|json|csv|sarif */
    const char *output;      /* -o; NULL = stdout */
    unsigned samples;        /* minimum warm samples */
    unsigned warmup;
    double tolerance;        /* verdict band (VERDICT_DEFAULT_TOLERANCE) */
    double timeout_s;        /* hang guard */
    double budget_s;         /* sampling budget per kernel */
    const char *dump_dir;
    const char *events;      /* --events, comma-separated libpfm4 names */
    const char *clock_check; /* --clock-check auto|on|off; NULL = auto */
    const char *theme;
    int no_color;
    int quiet;
} cw_options;

void cw_options_default(cw_options *o);

typedef struct session {
    const cw_options *opt;
    int measure;              /* 1: kernels are run */
    backend_slot gpu;         /* measures GPU kernels (null when none) */
    backend_slot cpu;         /* measures native CPU kernels */
    device_profile prof;      /* for GPU kernels */
    device_profile cpu_prof;  /* for native CPU kernels */
    run_options ro;           /* samples, warm-up, budget, timeout, dump */
    double tolerance;
    int device_is_cpu;        /* the report names this CPU (no GPU kernels) */
} session;

/* What a plan set holds. */
typedef struct session_kinds {
    int gpu, cpu;             /* number of GPU / native CPU kernels */
} session_kinds;

session_kinds session_count_kinds(const plan *plans, size_t nplans);

/* Fills s and rd (the report's device block: the GPU's when the plans hold
 * GPU kernels, else this CPU).  Returns 0; CW_STATUS_ENV when measuring and
 * the device could not be opened (err says why; the session still works:
 * static results come out, measuring a GPU kernel reports the reason);
 * CW_STATUS_INPUT on a bad --profile, --device or --events (err; the session
 * is closed). */
int session_open(session *s, const cw_options *o, int measure,
                 session_kinds kinds, report_device *rd, cw_error *err);
/* The same, except that the GPU is not opened here even when measuring:
 * its kernels are measured in a child process (devchild.h), and the GPU
 * profile is chosen as check chooses it (the device read in a probe
 * process).  Native CPU kernels are measured here (they run isolated). */
int session_open_gpu_elsewhere(session *s, const cw_options *o, int measure,
                               session_kinds kinds, report_device *rd, cw_error *err);

/* The profile of the device the report names. */
const device_profile *session_device_profile(const session *s);

void session_check_kernel(session *s, const plan_kernel *k,
                          kernel_report *kr, kernel_artifacts *art);
/* The same in two parts (pipeline_analyse_kernel, pipeline_predict_kernel),
 * with the session's profile and device of the kernel's kind. */
void session_analyse_kernel(session *s, const plan_kernel *k,
                            kernel_report *kr, kernel_artifacts *art);
void session_predict_kernel(session *s, const plan_kernel *k,
                            kernel_report *kr, kernel_artifacts *art);

/* Live progress for the TUI: per sample, and a flag that stops sampling. */
typedef struct session_live {
    void (*on_sample)(void *user, double sample_us);
    void *user;
    volatile int *cancel;
    const char *dump_dir;     /* this kernel's --dump folder; NULL: none */
} session_live;

/* Runs the kernel (not when it has error findings), judges it; live may be
 * NULL.  0, or CW_STATUS_ENV (kr->measurement.error says why). */
int session_measure_kernel(session *s, const plan_kernel *k,
                           kernel_artifacts *art, const session_live *live,
                           kernel_report *kr);

/* The counters the measuring backends would read, each with its
 * availability (TUI device view).  0, or non-zero with err. */
int session_probe_counters(const session *s, measurement *out, cw_error *err);

/* Non-zero after a hang: the driver may still run the kernel, so
 * session_close() leaves the device alone and the caller should leave the
 * process with _exit once its report is out. */
int session_wedged(const session *s);
void session_close(session *s);

/* `clockwork calibrate [--cpu]`: opens the backend of the GPU role (the
 * --device of o, no counters) or, with cpu, of the native CPU role, and
 * measures that device's profile into out; progress to log (may be NULL).
 * 0, or a status with err (the device could not be opened, or the backend
 * cannot calibrate).  Saving the profile is the caller's. */
int session_calibrate(const cw_options *o, int cpu, double budget_s, device_profile *out,
                      FILE *log, cw_error *err);

/* `clockwork devices`: the devices the GPU backend can open, as "table" or
 * "json" text (*text malloc'd).  0; CW_STATUS_ENV when they cannot be
 * listed; CW_STATUS_INPUT for another format (err). */
int session_list_devices(const char *format, char **text, cw_error *err);

/* The exit code of one kernel's results, and of a whole report
 * (measured: measurement failures count). */
int session_kernel_exit_code(const kernel_report *k, int measured);
int session_exit_code(const report *r, int measured);

#endif
