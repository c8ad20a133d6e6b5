/* report.h - the report (ARCHITECTURE §4, schema 1) as C data, and its I/O.
 *
 * Contract: every stage fills its part of a kernel_report: the verifier adds
 * findings and the prediction, collectors the measurement, the verdict the
 * divergence.  All strings and arrays are owned by the report (heap, freed by
 * report_free).  Use the report_* helpers to add items; they copy.
 *
 * Unknown or unavailable values: a field whose "valid"/"has_" flag is 0 is
 * written as null (or omitted), never as 0.
 *
 * Writing: report_write_file() writes to "PATH.tmp.XXXXXX" then fsync +
 * rename(), so an interrupted or failed write never leaves a half-written
 * report nor destroys the previous one.  "-" means stdout.
 * Reading: report_read_file() accepts what report_write_json() writes and
 * reports malformed input with file:line:column.
 */
#ifndef CW_REPORT_H
#define CW_REPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "alloc.h"
#include "error.h"
#include "findings.h"
#include "output.h"
#include "units.h"

typedef struct finding {
    char *id;       /* stable finding id, ARCHITECTURE §5 */
    severity sev;
    char *message;
    char *hint;     /* how to fix it; may be NULL */
    char *file;     /* GLSL (or plan / SPIR-V) file; may be NULL */
    int line;       /* 0 when unknown */
    struct json_t *detail; /* check-specific detail: a jansson object owned
                              by the finding (finding_detail_*); NULL */
} finding;

typedef enum { CONF_EXACT = 0, CONF_ESTIMATED, CONF_UNKNOWN } confidence;

/* One ceiling's time for the kernel as written (DRAM, L2, shared, fp32...). */
typedef struct pred_term {
    char *name;    /* "dram", "l2", "shared", "fp32", "fp64", "fp16", "int",
                      "issue", "atomic", "latency", "launch" */
    double time_us;
} pred_term;

typedef struct prediction {
    int valid;
    double time_us;
    double ideal_time_us;
    /* An estimated prediction's range: the time under the best and the
     * worst case of what the model had to guess (addresses or atomics
     * that depend on buffer contents).  0 = no range (JSON null). */
    double time_low_us, time_high_us;
    char *bound;
    double flops;       /* all precisions */
    double bytes;       /* compulsory DRAM bytes */
    uint64_t invocations;
    confidence conf;
    uint32_t registers_per_invocation; /* reported by the driver; 0 = not
                                          reported (JSON null) */
    char **assumptions;
    size_t nassumptions;
    pred_term *terms;
    size_t nterms;
} prediction;

typedef struct counter_value {
    char *name;
    int available;     /* 0: value is null and reason says why */
    double value;
    int scaled;        /* multiplexed: value scaled by enabled/running */
    char *reason;      /* why unavailable; NULL when available */
} counter_value;

/* How much of the machine others took while a kernel was measured
 * (collectors/load.h measures it; core/verdict_load.h judges with it). */
typedef struct machine_load {
    int valid;          /* measured (Linux /proc/stat) */
    int busy;           /* others took enough CPU to matter */
    unsigned cpus;      /* online CPUs */
    double wall_s;      /* the measurement window */
    double self_cpus;   /* this process's CPU time / wall: its threads,
                           a CPU device's (lavapipe's) worker threads too */
    double others_cpus; /* every other process's busy CPU time / wall */
    double steal_cpus;  /* time the hypervisor gave to other guests / wall */
    double loadavg1;    /* 1-minute load average at the end */
} machine_load;

/* The GPU clock check (collectors/vk_clock.h): one invocation's dependent
 * FMA chain timed after the warm-up, against its time at the profile's
 * clock.  Absent (ran = 0, unavailable NULL) where no check was asked for. */
typedef struct clock_reading {
    int ran;                /* at least one probe was timed */
    double expected_us;     /* the chain's time at the profile's clock */
    double first_probe_us;  /* the first probe's time (right after the
                               warm-up: how low the clock was) */
    double probe_us;        /* the last probe's time */
    double ratio;           /* expected / probe: the fraction of the
                               profile's clock the device ran at */
    unsigned probes;        /* probes timed */
    double extra_warmup_s;  /* busy time added while the clock read low */
    int settled;            /* the last probe read at least
                               CLOCK_SETTLED_RATIO of the clock */
    char *unavailable;      /* why no probe could be timed, or NULL */
} clock_reading;

/* A probe at or above this fraction of the profile's clock: settled. */
#define CLOCK_SETTLED_RATIO 0.9

/* Records one probe of probe_us; returns 1 when it reads settled. */
int clock_reading_note(clock_reading *c, double probe_us);

typedef struct measurement {
    int valid;
    uint32_t samples;
    double median_us, mad_us, min_us, max_us, p90_us;
    int has_cold;
    double cold_us;         /* first (cold) sample, reported apart */
    int has_invocations;
    uint64_t invocations;   /* pipeline statistics */
    double *sample_us;      /* all warm samples, in order */
    size_t nsample_us;
    char *counters_scope;   /* "kernel" (CPU device) or "host" (GPU) */
    counter_value *counters;
    size_t ncounters;
    char *error;            /* run failed: why (NULL when it ran) */
    machine_load load;      /* the machine while it was measured */
    /* Native CPU kernels: time the kernel's threads were runnable but
     * waited for a CPU held by another process.  Read by the verdict, not
     * written to the JSON report. */
    int has_wait;
    double wait_median_us;  /* per call, median over the samples */
    double own_median_us;   /* median of each call's time less its wait */
    double best_own_us;     /* the best call with its wait discounted */
    double counted_span_us; /* mean span the counters covered per call;
                               0 when unknown */
    clock_reading clock;    /* GPUs: was the clock up when sampled */
} measurement;

typedef enum { DIV_UNKNOWN = 0, DIV_OK, DIV_SLOWER, DIV_FASTER } div_status;

typedef struct divergence {
    int valid;
    double ratio;       /* measured / predicted; valid only when status != unknown */
    div_status status;
    char *explanation;
} divergence;

typedef struct kernel_report {
    char *name;
    char *kind;         /* "gpu" or "cpu" */
    char *shader;
    char *entry;
    uint32_t workgroups[3];
    uint32_t local_size[3];
    finding *findings;
    size_t nfindings;
    prediction prediction;
    measurement measurement;
    divergence divergence;
    int input_error;    /* shader unreadable/invalid: counts as exit 2 */
    /* identity (identity.h): the plan this kernel came from (normalised
     * path as given) and its position in that plan; NULL / -1 in reports
     * written before these keys existed */
    char *plan;
    long plan_index;
    long source;        /* merged reports: index into report.sources; -1 */
    int env_error;      /* the static stage failed for the environment (out
                           of memory compiling): exit 4, measurement.error
                           says why */
} kernel_report;

typedef struct report_device {
    char *name, *vendor, *driver, *api, *type;
    char *profile;      /* "calibrated" | "builtin" | "limits-only" */
    char *profile_path; /* file the profile came from, or NULL */
    char *uuid;         /* Vulkan deviceUUID (hex), NULL when no device */
    char *selected_by;  /* --device auto: why this device, else NULL */
} report_device;

/* The device block's fields (all text), in report order, with their JSON
 * keys: freeing, copying, writing and reading a device go through this one
 * list.  NULL-terminated. */
typedef struct report_device_field {
    const char *key;
    size_t offset;     /* of the char * in report_device */
    int omit_null;     /* written only when set (else null) */
} report_device_field;
extern const report_device_field report_device_fields[];
#define REPORT_DEVICE_FIELD(d, f) (*(char **)((char *)(d) + (f)->offset))

/* Where a report came from (docs/report.md "provenance"): launcher job and
 * rank, the shard this process took, the set of plans the shard is part
 * of.  Merging reads these, never the file names. */
typedef struct report_provenance {
    int valid;
    char *host;          /* gethostname() */
    char *node;          /* SLURMD_NODENAME when set, else NULL */
    char *job;           /* job id from the launcher, NULL when none */
    long rank;           /* launcher rank, -1 when none */
    uint32_t shard_index, shard_count; /* 0 / 1 when not sharded */
    char *shard_source;  /* "SLURM_PROCID", "--shard 1/4", "none", ... */
    uint64_t kernels_total; /* kernels in the whole set, over every shard */
    char *set_id;        /* hash of every kernel identity in the set */
    char **plans;        /* the plans of the set, in command-line order */
    size_t nplans;
    int has_exit_code;
    int exit_code;       /* the exit status of the process that wrote it */
} report_provenance;

/* One input of a merged report (merge.h). */
typedef struct report_source {
    char *file;          /* the report file it was read from */
    report_provenance prov;
    report_device device;
    int exit_code;
} report_source;

typedef struct report {
    int schema;         /* 1 */
    char *tool_version;
    report_device device;
    kernel_report *kernels;
    size_t nkernels;
    report_provenance provenance;
    report_source *sources; /* merged reports only */
    size_t nsources;
    char *fleet_json;       /* merged reports: the "fleet" object as JSON
                               text (fleet.h), else NULL */
} report;

/* Building */
void report_init(report *r);
kernel_report *report_add_kernel(report *r, const char *name);
/* A finding of a registered kind (core/findings.def). */
finding *report_add_finding(kernel_report *k, finding_kind kind, severity sev,
                            const char *file, int line, const char *hint,
                            const char *fmt, ...)
    __attribute__((format(printf, 7, 8)));
/* A finding by id text, for reports read back from disk, whose ids may not
 * be registered in this build. */
finding *report_add_finding_id(kernel_report *k, const char *id, severity sev,
                               const char *file, int line, const char *hint,
                               const char *message);
/* Check-specific detail (ARCHITECTURE §4), one typed key at a time; the
 * object is created on first use.  f may be NULL (nothing happens), so a
 * check can set detail on the result of report_add_finding unconditionally.
 * Non-finite reals and NULL strings are written as null. */
void finding_detail_str(finding *f, const char *key, const char *value);
void finding_detail_int(finding *f, const char *key, long long value);
void finding_detail_uint(finding *f, const char *key, unsigned long long value);
void finding_detail_real(finding *f, const char *key, double value);
void finding_detail_bool(finding *f, const char *key, int value);
void finding_detail_u32x3(finding *f, const char *key, const uint32_t v[3]);
void finding_detail_int_pair(finding *f, const char *key, long long a, long long b);
/* The detail value under key, or NULL (for tests and readers). */
struct json_t *finding_detail_get(const finding *f, const char *key);
void prediction_add_assumption(prediction *p, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void prediction_add_term(prediction *p, const char *name, double time_us);
counter_value *measurement_add_counter(measurement *m, const char *name);
/* Frees what one measurement owns and zeroes it. */
void measurement_free(measurement *m);
void report_free(report *r);
void report_device_free(report_device *d);
void report_device_copy(report_device *dst, const report_device *src);
void report_provenance_free(report_provenance *p);
void report_provenance_copy(report_provenance *dst, const report_provenance *src);
/* Deep copy of one kernel (merge); dst is overwritten. */
void kernel_report_copy(kernel_report *dst, const kernel_report *src);
void kernel_report_free(kernel_report *k);

const char *severity_name(severity s);
const char *confidence_name(confidence c);
const char *div_status_name(div_status s);
size_t kernel_report_count(const kernel_report *k, severity s);

/* The one rule from results to a status (core/error.h; ARCHITECTURE §2:
 * input error > run failure > error findings > divergence > ok), for one
 * kernel and for a whole report.  The program turns it into the exit code
 * through session_exit_code() (app/session.h), the CLI and the TUI alike,
 * and merge_exit_codes() (app/merge_cmd.h) for reports that carry no exit
 * status of their own. */
cw_status report_kernel_status(const kernel_report *k, int measured);
cw_status report_status(const report *r, int measured);

/* Output */
int report_has_measurements(const report *r); /* any kernel ran or failed to */
char *report_to_json_text(const report *r); /* malloc'd, caller frees */
int report_write_file(const report *r, const char *path, const char *format,
                      cw_error *err);       /* format: json|table|csv|sarif */
/* The format asked for, else the one path's extension names (.sarif,
 * .csv, .json), else "table" (also for no path or "-", standard output). */
const char *report_format_for(const char *format, const char *path);
void report_write_table(const report *r, FILE *out, int measured);
void report_write_csv(const report *r, FILE *out);
char *report_to_sarif_text(const report *r);

/* Input */
int report_read_file(const char *path, report *out, cw_error *err);
int report_read_text(const char *path, const char *text, size_t len,
                     report *out, cw_error *err);
/* The same from text already parsed (jansson, JSON_REJECT_DUPLICATES: what
 * report_read_text parses with) into root, which stays the caller's; text
 * is still needed for the positions in error messages. */
struct json_t;
int report_read_json(const char *path, const char *text, size_t len,
                     struct json_t *root, report *out, cw_error *err);



#endif
