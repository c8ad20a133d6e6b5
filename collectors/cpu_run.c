/* cpu_run.c - run and time a native CPU kernel (see cpu_run.h).  The
 * kernel itself runs in a child process (cpu_isolate.h). */
#include "cpu_run.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "alloc.h"
#include "backend.h"
#include "bufinit.h"
#include "cpu_isa.h"
#include "cpu_isolate.h"
#include "pfm.h"
#include "profile.h"
#include "stats.h"

double cpu_now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- counters, buffers ---- */

/* Events around each call: the defaults plus the FP-width counters of the
 * CPU's vendor (scalar vs packed), unavailable where the PMU lacks them. */
static char *cpu_events(void)
{
    char vendor[64];
    profile_cpuinfo_field("vendor_id", vendor, sizeof vendor);
    const char *fp;
    if (strcmp(vendor, "GenuineIntel") == 0)
        fp = "FP_ARITH_INST_RETIRED:SCALAR_SINGLE,"
             "FP_ARITH_INST_RETIRED:128B_PACKED_SINGLE,"
             "FP_ARITH_INST_RETIRED:256B_PACKED_SINGLE,"
             "FP_ARITH_INST_RETIRED:512B_PACKED_SINGLE";
    else if (strcmp(vendor, "AuthenticAMD") == 0)
        fp = "RETIRED_FP_OPS_BY_WIDTH:SCALAR_UOPS_RETIRED,"
             "RETIRED_FP_OPS_BY_WIDTH:PACK128_UOPS_RETIRED,"
             "RETIRED_FP_OPS_BY_WIDTH:PACK256_UOPS_RETIRED,"
             "RETIRED_FP_OPS_BY_WIDTH:PACK512_UOPS_RETIRED";
    else
        fp = NULL;
    size_t len = 64 + (fp ? strlen(fp) : 0);
    for (size_t i = 0; pfm_default_events[i]; i++)
        len += strlen(pfm_default_events[i]) + 1;
    char *s = xmalloc(len);
    s[0] = 0;
    for (size_t i = 0; pfm_default_events[i]; i++) {
        if (i)
            strcat(s, ",");
        strcat(s, pfm_default_events[i]);
    }
    if (fp) {
        strcat(s, ",");
        strcat(s, fp);
    }
    return s;
}


static void set_error(measurement *m, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void set_error(measurement *m, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    cw_set_str(&m->error, buf);
}

/* Per-call averages of the counters' totals (nc calls were bracketed). */
static void copy_counters(backend_slot *s, measurement *m, size_t nc)
{
    measurement tmp;
    memset(&tmp, 0, sizeof tmp);
    backend_counters_read(s, &tmp);
    for (size_t i = 0; i < tmp.ncounters; i++) {
        counter_value *src = &tmp.counters[i];
        counter_value *c = measurement_add_counter(m, src->name);
        c->available = src->available;
        c->scaled = src->scaled;
        c->value = src->available && nc ? src->value / (double)nc : 0;
        cw_set_str(&c->reason, src->reason);
    }
    for (size_t i = 0; i < tmp.ncounters; i++) {
        free(tmp.counters[i].name);
        free(tmp.counters[i].reason);
    }
    free(tmp.counters);
}

static void dump_buffers(const plan_kernel *k, const char *dir, void **bufs,
                         const uint64_t *sizes, measurement *m)
{
    mkdir(dir, 0777);
    for (size_t i = 0; i < k->nbuffers; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s.buffer%zu.bin", dir, k->name, i);
        cw_error err;
        if (cw_write_file_atomic_as(path, bufs[i], sizes[i], "the dump", &err) != 0) {
            char msg[1200];
            cw_error_format(&err, msg, sizeof msg);
            set_error(m, "cannot dump buffer %zu: %s", i, msg);
        }
    }
}

static int64_t *kernel_args(const plan_kernel *k, char *why, size_t n)
{
    int64_t *a = xcalloc(k->nargs ? k->nargs : 1, sizeof *a);
    for (size_t i = 0; i < k->nargs; i++) {
        if (!k->args[i].is_integer) {
            snprintf(why, n, "argument '%s' = %g is not an integer (CPU "
                     "kernel args are int64)", k->args[i].key,
                     k->args[i].value);
            free(a);
            return NULL;
        }
        a[i] = k->args[i].ivalue;
    }
    return a;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The CPU wait of the calls (samples[i] wall us, waits[i] us or < 0
 * unknown): the median per call, the median of each call's time less its
 * wait, and the best call so discounted -- time spent waiting for a CPU
 * held by another process is not the kernel's.  The verdict reads them. */
static void record_wait(const double *samples, const double *waits, size_t n,
                        measurement *m)
{
    double best = m->min_us > 0 ? m->min_us : m->median_us;
    double *dl = xcalloc(n ? n : 1, sizeof *dl);
    double *own = xcalloc(n ? n : 1, sizeof *own);
    size_t nw = 0;
    for (size_t i = 0; i < n; i++) {
        if (waits[i] < 0)
            continue;
        dl[nw] = waits[i];
        own[nw++] = samples[i] - waits[i];
        if (samples[i] - waits[i] > 0 && samples[i] - waits[i] < best)
            best = samples[i] - waits[i];
    }
    if (nw) {
        qsort(dl, nw, sizeof *dl, cmp_double);
        qsort(own, nw, sizeof *own, cmp_double);
        m->has_wait = 1;
        m->wait_median_us = dl[nw / 2];
        m->own_median_us = own[nw / 2];
        m->best_own_us = best;
    }
    free(dl);
    free(own);
}

/* Buffer sizes in bytes: `bytes`, or `elements` floats. */
static int buffer_sizes(const plan_kernel *k, uint64_t *sizes, measurement *m)
{
    for (size_t i = 0; i < k->nbuffers; i++) {
        const plan_buffer *b = &k->buffers[i];
        if (b->has_bytes)
            sizes[i] = b->bytes;
        else if (__builtin_mul_overflow(b->elements, (uint64_t)4, &sizes[i])) {
            set_error(m, "buffer %zu: %llu elements overflow", i,
                      (unsigned long long)b->elements);
            return -1;
        }
    }
    return 0;
}

/* Warm-up and sampled calls into the kernel's process (cpu_isolate.h);
 * 0, or CW_STATUS_ENV with m->error set. */
static int sample_calls(const plan_kernel *k, const run_options *ro,
                        cpu_child *child, backend_slot *counters, measurement *m,
                        double **samples, double **delays, size_t *nsamples,
                        double *bracket_total_s)
{
    unsigned warmup = ro ? ro->warmup : 2;
    unsigned min_samples = ro && ro->samples ? ro->samples : 10;
    double budget = ro && ro->budget_s > 0 ? ro->budget_s : 2.0;
    char why[1200];
    unsigned call = 0;
    for (unsigned i = 0; i < warmup; i++) {
        int rc;
        double us, dl;
        if (cpu_isolate_call(child, ++call, &rc, &us, &dl, why, sizeof why)) {
            if (!cpu_isolate_cancelled(child))
                set_error(m, "%s", why);
            return cpu_isolate_cancelled(child) ? 0 : CW_STATUS_ENV;
        }
        if (rc != 0) {
            set_error(m, "kernel '%s' (%s in %s) returned %d on warm-up call "
                      "%u", k->name, k->symbol, k->library_path, rc, i + 1);
            return CW_STATUS_ENV;
        }
        if (i == 0) {
            m->has_cold = 1;
            m->cold_us = us;
        }
    }
    stats_policy pol;
    stats_policy_default(&pol, min_samples, budget);
    double t_start = cpu_now_s();
    size_t cap = 0;
    while (stats_should_continue(*samples, *nsamples, &pol,
                                 cpu_now_s() - t_start)) {
        if (ro && ro->cancel && *ro->cancel)
            break;
        int rc;
        double us, dl;
        backend_counters_start(counters);
        double b0 = cpu_now_s();
        int r = cpu_isolate_call(child, ++call, &rc, &us, &dl, why, sizeof why);
        *bracket_total_s += cpu_now_s() - b0;
        backend_counters_stop(counters);
        if (r) {
            if (cpu_isolate_cancelled(child))
                break;
            set_error(m, "%s", why);
            return CW_STATUS_ENV;
        }
        if (rc != 0) {
            set_error(m, "kernel '%s' (%s in %s) returned %d on call %u",
                      k->name, k->symbol, k->library_path, rc, call);
            return CW_STATUS_ENV;
        }
        if (*nsamples == cap) {
            cap = cap ? 2 * cap : 64;
            *samples = xreallocarray(*samples, cap, sizeof **samples);
            *delays = xreallocarray(*delays, cap, sizeof **delays);
        }
        (*delays)[*nsamples] = dl;
        (*samples)[(*nsamples)++] = us;
        if (ro && ro->on_sample)
            ro->on_sample(ro->user, us);
    }
    return 0;
}

int cpu_measure_kernel(const plan_kernel *k, const run_options *ro,
                       measurement *m)
{
    cw_set_str(&m->counters_scope, "kernel");
    char why[1200];
    int64_t *args = kernel_args(k, why, sizeof why);
    if (!args) {
        set_error(m, "kernel '%s': %s", k->name, why);
        return CW_STATUS_ENV;
    }
    uint64_t seed = ro ? ro->seed : 0;
    uint64_t *sizes = xcalloc(k->nbuffers ? k->nbuffers : 1, sizeof *sizes);
    if (buffer_sizes(k, sizes, m)) {
        free(sizes);
        free(args);
        return CW_STATUS_ENV;
    }
    cpu_isolate_buffers bufs;
    if (cpu_isolate_buffers_alloc(&bufs, sizes, k->nbuffers, why, sizeof why)) {
        set_error(m, "kernel '%s': %s", k->name, why);
        free(sizes);
        free(args);
        return CW_STATUS_ENV;
    }
    /* native kernels take float buffers (include/clockwork.h) */
    const bufinit_elem f32 = {4, 1, 0, 0};
    for (size_t i = 0; i < k->nbuffers; i++) {
        cw_error ferr;
        cw_error_clear(&ferr);
        if (bufinit_fill(bufs.ptr[i], sizes[i], f32, &k->buffers[i], seed, &ferr)) {
            set_error(m, "kernel '%s': %s: %s", k->name, ferr.file, ferr.text);
            cpu_isolate_buffers_free(&bufs);
            free(sizes);
            free(args);
            return CW_STATUS_INPUT;
        }
    }

    /* Counters first, with inherit: the kernel's process, and the threads
     * its library starts when loaded (a BLAS pool), are counted. */
    backend_slot counters;
    char *events = cpu_events();
    cw_error perr;
    if (backend_counters_open(events, 1, &counters, &perr) != 0)
        memset(&counters, 0, sizeof counters); /* none: the list is ours */
    free(events);

    cpu_isolate_spec spec = {
        .kernel = k->name, .library = k->library_path, .symbol = k->symbol,
        .args = args, .threads = cpu_isa_kernel_threads(k),
        .timeout_s = ro && ro->timeout_s > 0 ? ro->timeout_s : 10.0,
        .cancel = ro ? ro->cancel : NULL,
    };
    double *samples = NULL, *delays = NULL, bracket_total_s = 0;
    size_t nsamples = 0;
    int ret = 0;
    cpu_child *child = NULL;
    if (cpu_isolate_start(&spec, &bufs, &child, why, sizeof why)) {
        set_error(m, "%s", why);
        ret = CW_STATUS_ENV;
    } else {
        ret = sample_calls(k, ro, child, &counters, m, &samples, &delays, &nsamples,
                           &bracket_total_s);
        cpu_isolate_stop(child);
    }
    if (ret == 0 && nsamples == 0) {
        /* cancelled before the first sample: nothing to report or judge */
        set_error(m, "kernel '%s': cancelled before any sample", k->name);
    } else if (ret == 0) {
        stats_fill_measurement(m, samples, nsamples);
        copy_counters(&counters, m, nsamples);
        if (ro && ro->dump_dir)
            dump_buffers(k, ro->dump_dir, bufs.ptr, sizes, m);
        record_wait(samples, delays, nsamples, m);
        m->counted_span_us = bracket_total_s * 1e6 / (double)nsamples;
    }
    cpu_isolate_buffers_free(&bufs);
    free(sizes);
    free(args);
    free(samples);
    free(delays);
    backend_slot_close(&counters);
    return ret;
}
