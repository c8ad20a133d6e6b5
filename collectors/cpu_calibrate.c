/* cpu_calibrate.c - `clockwork calibrate --cpu`: this CPU's ceilings
 * (see cpu_calibrate.h).
 *
 * Two tables drive it, as calibrate_table.c drives the Vulkan calibration:
 * the FMA kernels by instruction set (the widest the CPU has is used) and
 * the measurements (FMA and triad, on one core and on all).  One loop
 * grows a measurement until it lasts long enough and keeps its best run. */
#include "cpu_calibrate.h"

#include <immintrin.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "alloc.h"
#include "bufinit.h"
#include "cpu_isa.h"
#include "cpu_profile.h"
#include "cpu_run.h"

#define FMA_CHAINS 16      /* independent accumulators: > latency x pipes */
#define FMA_CHAINS_AVX2 12 /* 16 ymm registers: leave room for a, b */

/* One FMA kernel per instruction set, from one body: iters x CHAINS
 * vector steps acc = acc * a + b, returning a value that depends on all
 * of them (so nothing is folded away).  The accumulators start from
 * distinct values and converge to a fixed point (a < 1), so they never
 * overflow or turn denormal. */
#define FMA_KERNEL(NAME, TARGET, VEC, LANES, CHAINS, SET1, STEP, ADD, STORE)  \
    __attribute__((target(TARGET))) static float NAME(uint64_t iters,       \
                                                      float seed)           \
    {                                                                       \
        VEC acc[CHAINS];                                                    \
        for (int c = 0; c < CHAINS; c++)                                    \
            acc[c] = SET1(seed + (float)c * 0.01f);                         \
        const VEC a = SET1(0.999999f), b = SET1(1e-6f);                     \
        for (uint64_t i = 0; i < iters; i++)                                \
            _Pragma("GCC unroll 16") for (int c = 0; c < CHAINS; c++)       \
                acc[c] = STEP(acc[c], a, b);                                \
        VEC s = acc[0];                                                     \
        for (int c = 1; c < CHAINS; c++)                                    \
            s = ADD(s, acc[c]);                                             \
        float out[LANES], r = 0;                                            \
        STORE(out, s);                                                      \
        for (int l = 0; l < LANES; l++)                                     \
            r += out[l];                                                    \
        return r;                                                           \
    }

/* no FMA instruction: a multiply and an add per lane per step (2 FLOPs) */
#define SSE_STEP(x, a, b) _mm_add_ps(_mm_mul_ps((x), (a)), (b))

FMA_KERNEL(fma_avx512, "avx512f", __m512, 16, FMA_CHAINS, _mm512_set1_ps,
           _mm512_fmadd_ps, _mm512_add_ps, _mm512_storeu_ps)
FMA_KERNEL(fma_avx2, "avx2,fma", __m256, 8, FMA_CHAINS_AVX2, _mm256_set1_ps,
           _mm256_fmadd_ps, _mm256_add_ps, _mm256_storeu_ps)
FMA_KERNEL(fma_sse, "sse2", __m128, 4, FMA_CHAINS_AVX2, _mm_set1_ps,
           SSE_STEP, _mm_add_ps, _mm_storeu_ps)

typedef struct fma_kind {
    const char *name;
    const char *need[2]; /* __builtin_cpu_supports features, NULL-ended */
    float (*fn)(uint64_t, float);
    double flops_per_iter;
} fma_kind;

/* the widest first */
static const fma_kind fma_kinds[] = {
    {"AVX-512 FMA (zmm)", {"avx512f", NULL}, fma_avx512,
     FMA_CHAINS * 16 * 2.0},
    {"AVX2 FMA (ymm)", {"avx2", "fma"}, fma_avx2, FMA_CHAINS_AVX2 * 8 * 2.0},
    {"SSE mul+add (xmm)", {NULL, NULL}, fma_sse, FMA_CHAINS_AVX2 * 4 * 2.0},
};

static int cpu_has(const char *feature)
{
    /* __builtin_cpu_supports wants a literal */
    if (!strcmp(feature, "avx512f"))
        return __builtin_cpu_supports("avx512f");
    if (!strcmp(feature, "avx2"))
        return __builtin_cpu_supports("avx2");
    if (!strcmp(feature, "fma"))
        return __builtin_cpu_supports("fma");
    return 0;
}

static const fma_kind *pick_fma(void)
{
    __builtin_cpu_init();
    size_t n = sizeof fma_kinds / sizeof fma_kinds[0];
    for (size_t k = 0; k + 1 < n; k++) {
        int ok = 1;
        for (int f = 0; f < 2 && fma_kinds[k].need[f]; f++)
            ok = ok && cpu_has(fma_kinds[k].need[f]);
        if (ok)
            return &fma_kinds[k];
    }
    return &fma_kinds[n - 1];
}

static volatile float cpu_sink; /* results are observable */

typedef enum { JOB_FMA = 0, JOB_TRIAD } job_mode;

typedef struct cal_job {
    pthread_barrier_t *bar;
    const fma_kind *fk;
    job_mode mode;
    uint64_t count;     /* FMA: iterations; triad: passes over the arrays */
    float *a, *b, *c;
    size_t lo, hi;
    float result;
    double cpu_s;       /* this thread's CPU time for the job */
} cal_job;

static double thread_cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void *cal_thread(void *arg)
{
    cal_job *j = arg;
    pthread_barrier_wait(j->bar);
    double c0 = thread_cpu_s();
    if (j->mode == JOB_FMA) {
        j->result = j->fk->fn(j->count, 1.0f + (float)j->lo);
    } else {
        for (uint64_t r = 0; r < j->count; r++)
            for (size_t i = j->lo; i < j->hi; i++)
                j->a[i] = j->b[i] + (0.5f + (float)r) * j->c[i];
        j->result = j->a[j->lo];
    }
    j->cpu_s = thread_cpu_s() - c0;
    pthread_barrier_wait(j->bar);
    return NULL;
}

/* One run of nt threads of proto; triad threads split n elements.
 * Returns the seconds between the start and end barriers; *share gets the
 * smallest fraction of that time a thread was on a CPU (below ~0.9 other
 * processes took the cores) and *slowest_cpu_s the largest thread CPU
 * time. */
static double run_jobs(unsigned nt, const cal_job *proto, size_t n,
                       double *share, double *slowest_cpu_s)
{
    pthread_barrier_t bar;
    pthread_barrier_init(&bar, NULL, nt + 1);
    cal_job *jobs = xcalloc(nt, sizeof *jobs);
    pthread_t *th = xcalloc(nt, sizeof *th);
    for (unsigned t = 0; t < nt; t++) {
        jobs[t] = *proto;
        jobs[t].bar = &bar;
        jobs[t].lo = proto->mode == JOB_FMA ? t : n * t / nt;
        jobs[t].hi = n * (t + 1) / nt;
        if (pthread_create(&th[t], NULL, cal_thread, &jobs[t]) != 0)
            abort(); /* a barrier sized for nt threads would never open */
    }
    pthread_barrier_wait(&bar);
    double t0 = cpu_now_s();
    pthread_barrier_wait(&bar);
    double secs = cpu_now_s() - t0;
    float sum = 0;
    double low = 1, slowest = 0;
    for (unsigned t = 0; t < nt; t++) {
        pthread_join(th[t], NULL);
        sum += jobs[t].result;
        if (secs > 0 && jobs[t].cpu_s / secs < low)
            low = jobs[t].cpu_s / secs;
        slowest = fmax(slowest, jobs[t].cpu_s);
    }
    *share = low;
    if (slowest_cpu_s)
        *slowest_cpu_s = slowest;
    cpu_sink = sum;
    pthread_barrier_destroy(&bar);
    free(jobs);
    free(th);
    return secs;
}

/* Grow proto->count until one run lasts min_s, then keep the best of
 * three runs; returns that run's seconds (proto->count is the count it
 * ran), *share its CPU share. */
static double measure_best(unsigned nt, double min_s, cal_job *proto,
                           size_t n, double *share)
{
    double secs, sh;
    while ((secs = run_jobs(nt, proto, n, &sh, NULL)) < min_s &&
           proto->count < (1ull << 40))
        proto->count *= secs > 0 ? (uint64_t)fmax(2.0, min_s / secs * 1.2) : 2;
    double best = secs;
    *share = sh;
    for (int r = 0; r < 2; r++) {
        secs = run_jobs(nt, proto, n, &sh, NULL);
        if (secs > 0 && secs < best) {
            best = secs;
            *share = sh;
        }
    }
    return best;
}

double cpu_triad_gbs(unsigned nt, float *a, float *b, float *c, size_t n,
                     double *by_cpu_gbs)
{
    cal_job j = {.mode = JOB_TRIAD, .a = a, .b = b, .c = c, .count = 2};
    double best = INFINITY, best_cpu = INFINITY, sh, slow;
    for (int run = 0; run < 6; run++) {
        double secs = run_jobs(nt, &j, n, &sh, &slow);
        if (run == 0)
            continue; /* the first run touches the pages */
        best = fmin(best, secs);
        best_cpu = fmin(best_cpu, slow);
    }
    double bytes = 3.0 * 4.0 * (double)n * (double)j.count;
    if (by_cpu_gbs)
        *by_cpu_gbs = bytes / best_cpu * 1e-9;
    return bytes / best * 1e-9;
}

/* The measurements, in order: what each runs, on how many threads. */
typedef struct cpu_meas {
    const char *label;
    job_mode mode;
    int all_cores; /* 0: one core; 1: every online CPU */
} cpu_meas;

static const cpu_meas meas_table[] = {
    {"FP32 FMA", JOB_FMA, 0},
    {"FP32 FMA", JOB_FMA, 1},
    {"triad", JOB_TRIAD, 0},
    {"triad", JOB_TRIAD, 1},
};
#define NMEAS (sizeof meas_table / sizeof meas_table[0])

typedef struct triad_arrays {
    float *a, *b, *c;
    size_t n;
    size_t bytes;
} triad_arrays;

/* Arrays well beyond the last-level cache so the triad streams DRAM;
 * NULL arrays when they cannot be allocated. */
static void triad_alloc(const device_profile *p, triad_arrays *t)
{
    size_t llc = p->l2_bytes ? p->l2_bytes : (32u << 20);
    size_t bytes = 4 * llc;
    if (bytes < (64u << 20))
        bytes = 64u << 20;
    if (bytes > (256u << 20)) /* sysconf may report the host's whole L3 */
        bytes = 256u << 20;
    t->bytes = bytes;
    t->n = bytes / sizeof(float);
    t->a = aligned_alloc(64, t->n * sizeof(float));
    t->b = aligned_alloc(64, t->n * sizeof(float));
    t->c = aligned_alloc(64, t->n * sizeof(float));
    if (!t->a || !t->b || !t->c) {
        free(t->a);
        free(t->b);
        free(t->c);
        t->a = t->b = t->c = NULL;
        return;
    }
    uint64_t seed = 42;
    for (size_t i = 0; i < t->n; i++) {
        t->a[i] = 0;
        t->b[i] = (float)(bufinit_rng(&seed) >> 40) / (float)(1 << 24);
        t->c[i] = (float)(bufinit_rng(&seed) >> 40) / (float)(1 << 24);
    }
}

/* One row of meas_table: GFLOP/s or GB/s, -1 when it cannot run. */
static double run_meas(const cpu_meas *m, unsigned nt, double min_s,
                       const fma_kind *fk, triad_arrays *ta, double *share)
{
    unsigned threads = m->all_cores ? nt : 1;
    cal_job j = {.fk = fk, .mode = m->mode};
    if (m->mode == JOB_FMA) {
        j.count = 1 << 16;
        double s = measure_best(threads, min_s, &j, threads, share);
        return (double)j.count * fk->flops_per_iter * threads / s / 1e9;
    }
    if (!ta->a)
        return -1;
    j.a = ta->a;
    j.b = ta->b;
    j.c = ta->c;
    j.count = 1;
    double s = measure_best(threads, min_s, &j, ta->n, share);
    return 3.0 * 4.0 * (double)ta->n * (double)j.count / s / 1e9;
}

int cpu_calibrate(double budget_s, device_profile *out, FILE *log,
                  cw_error *err)
{
    cw_error_clear(err);
    cpu_profile_detect(out);
    double scale = budget_s > 0 ? fmin(1.0, budget_s / 10.0) : 1.0;
    double min_s = 0.1 * scale > 0.02 ? 0.1 * scale : 0.02;
    unsigned nt = cpu_isa_online_cpus();
    const fma_kind *fk = pick_fma();
    if (log)
        fprintf(log, "calibrating %s: %u online CPUs, %s\n", out->name, nt,
                fk->name);
    triad_arrays ta;
    triad_alloc(out, &ta);
    if (!ta.a && log)
        fprintf(log, "  triad: cannot allocate 3 x %zu MiB; bandwidth left "
                "unknown\n", ta.bytes >> 20);
    double v[NMEAS], busy = 1; /* lowest CPU share any measurement got */
    for (size_t i = 0; i < NMEAS; i++) {
        const cpu_meas *m = &meas_table[i];
        double sh = 1;
        /* on one CPU the all-core row is the one-core row */
        v[i] = m->all_cores && nt == 1 ? v[i - 1]
                                       : run_meas(m, nt, min_s, fk, &ta, &sh);
        busy = fmin(busy, sh);
        if (log && v[i] >= 0)
            fprintf(log, "  %s, %u core%s: %10.1f %s\n", m->label,
                    m->all_cores ? nt : 1, m->all_cores && nt > 1 ? "s" : "",
                    v[i], m->mode == JOB_FMA ? "GFLOP/s" : "GB/s");
    }
    free(ta.a);
    free(ta.b);
    free(ta.c);
    double f1 = v[0], fn = v[1], b1 = v[2], bn = v[3];
    if (!(fn > 0)) {
        cw_error_set(err, NULL, 0, 0, "the FMA measurement failed");
        return CW_STATUS_ENV;
    }
    out->source = PROFILE_CALIBRATED;
    out->fp32_gflops = fn;
    out->fp64_gflops = -1; /* not measured */
    if (bn > 0)
        out->dram_gbs = bn; /* the model scales by threads */
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(out->date, sizeof out->date, "%Y-%m-%dT%H:%M:%SZ", &tm);
    if (busy < 0.9 && log)
        fprintf(log, "  warning: the measuring threads were on a CPU only "
                "%.0f%% of the time (other processes are busy): these "
                "ceilings are low; calibrate on a quiet machine\n",
                busy * 100);
    snprintf(out->command, sizeof out->command,
             "clockwork calibrate --cpu: %s; FMA %.1f GFLOP/s on 1 core, "
             "%.1f on %u; triad %.1f GB/s on 1 core, %.1f on %u%s",
             fk->name, f1, fn, nt, b1, bn, nt,
             busy < 0.9 ? "; machine busy while measuring" : "");
    return 0;
}
