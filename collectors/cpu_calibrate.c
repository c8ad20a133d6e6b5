/* cpu_calibrate.c - `clockwork calibrate --cpu`: this CPU's ceilings
 * (see cpu_calibrate.h). */
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


#define FMA_CHAINS 16 /* independent accumulators: > latency x FMA pipes */

/* Each function runs iters x FMA_CHAINS vector FMAs and returns a value
 * that depends on all of them (so nothing is folded away).  The
 * accumulators start from distinct values and converge to a fixed point
 * (a < 1), so they never overflow or turn denormal. */
__attribute__((target("avx512f"))) static float fma_avx512(uint64_t iters,
                                                           float seed)
{
    __m512 acc[FMA_CHAINS];
    for (int c = 0; c < FMA_CHAINS; c++)
        acc[c] = _mm512_set1_ps(seed + (float)c * 0.01f);
    const __m512 a = _mm512_set1_ps(0.999999f), b = _mm512_set1_ps(1e-6f);
    for (uint64_t i = 0; i < iters; i++)
#pragma GCC unroll 16
        for (int c = 0; c < FMA_CHAINS; c++)
            acc[c] = _mm512_fmadd_ps(acc[c], a, b);
    __m512 s = acc[0];
    for (int c = 1; c < FMA_CHAINS; c++)
        s = _mm512_add_ps(s, acc[c]);
    return _mm512_reduce_add_ps(s);
}

#define FMA_CHAINS_AVX2 12 /* 16 ymm registers: leave room for a, b */

__attribute__((target("avx2,fma"))) static float fma_avx2(uint64_t iters,
                                                          float seed)
{
    __m256 acc[FMA_CHAINS_AVX2];
    for (int c = 0; c < FMA_CHAINS_AVX2; c++)
        acc[c] = _mm256_set1_ps(seed + (float)c * 0.01f);
    const __m256 a = _mm256_set1_ps(0.999999f), b = _mm256_set1_ps(1e-6f);
    for (uint64_t i = 0; i < iters; i++)
#pragma GCC unroll 16
        for (int c = 0; c < FMA_CHAINS_AVX2; c++)
            acc[c] = _mm256_fmadd_ps(acc[c], a, b);
    __m256 s = acc[0];
    for (int c = 1; c < FMA_CHAINS_AVX2; c++)
        s = _mm256_add_ps(s, acc[c]);
    float out[8];
    _mm256_storeu_ps(out, s);
    return out[0] + out[1] + out[2] + out[3] + out[4] + out[5] + out[6] +
           out[7];
}

/* No FMA: a multiply and an add per lane per step (2 FLOPs, 2 ops). */
static float fma_sse(uint64_t iters, float seed)
{
    __m128 acc[FMA_CHAINS_AVX2];
    for (int c = 0; c < FMA_CHAINS_AVX2; c++)
        acc[c] = _mm_set1_ps(seed + (float)c * 0.01f);
    const __m128 a = _mm_set1_ps(0.999999f), b = _mm_set1_ps(1e-6f);
    for (uint64_t i = 0; i < iters; i++)
#pragma GCC unroll 16
        for (int c = 0; c < FMA_CHAINS_AVX2; c++)
            acc[c] = _mm_add_ps(_mm_mul_ps(acc[c], a), b);
    __m128 s = acc[0];
    for (int c = 1; c < FMA_CHAINS_AVX2; c++)
        s = _mm_add_ps(s, acc[c]);
    float out[4];
    _mm_storeu_ps(out, s);
    return out[0] + out[1] + out[2] + out[3];
}

typedef struct fma_kind {
    const char *name;
    float (*fn)(uint64_t, float);
    double flops_per_iter;
} fma_kind;

static fma_kind pick_fma(void)
{
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f"))
        return (fma_kind){"AVX-512 FMA (zmm)", fma_avx512,
                          FMA_CHAINS * 16 * 2.0};
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
        return (fma_kind){"AVX2 FMA (ymm)", fma_avx2,
                          FMA_CHAINS_AVX2 * 8 * 2.0};
    return (fma_kind){"SSE mul+add (xmm)", fma_sse,
                      FMA_CHAINS_AVX2 * 4 * 2.0};
}

static volatile float cpu_sink; /* results are observable */

typedef struct cal_job {
    pthread_barrier_t *bar;
    fma_kind fk;
    uint64_t iters;
    int mode;           /* 0 FMA, 1 triad */
    float *a, *b, *c;
    size_t lo, hi;
    int reps;
    float result;
    double cpu_s;       /* this thread's CPU time for the job */
} cal_job;

static double thread_cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void triad(float *a, const float *b, const float *c, size_t lo,
                  size_t hi, float s)
{
    for (size_t i = lo; i < hi; i++)
        a[i] = b[i] + s * c[i];
}

static void *cal_thread(void *arg)
{
    cal_job *j = arg;
    pthread_barrier_wait(j->bar);
    double c0 = thread_cpu_s();
    if (j->mode == 0) {
        j->result = j->fk.fn(j->iters, 1.0f + (float)j->lo);
    } else {
        for (int r = 0; r < j->reps; r++)
            triad(j->a, j->b, j->c, j->lo, j->hi, 0.5f + (float)r);
        j->result = j->a[j->lo];
    }
    j->cpu_s = thread_cpu_s() - c0;
    pthread_barrier_wait(j->bar);
    return NULL;
}

/* Run nt threads of job (FMA or triad); returns the seconds between the
 * start and end barriers.  *share gets the smallest fraction of that time
 * a thread was on a CPU: below ~0.9 other processes took the cores and the
 * measurement is low. */
static double run_jobs(unsigned nt, const cal_job *proto, size_t n_elems,
                       double *share)
{
    pthread_barrier_t bar;
    pthread_barrier_init(&bar, NULL, nt + 1);
    cal_job *jobs = xcalloc(nt, sizeof *jobs);
    pthread_t *th = xcalloc(nt, sizeof *th);
    unsigned started = 0;
    for (unsigned t = 0; t < nt; t++) {
        jobs[t] = *proto;
        jobs[t].bar = &bar;
        if (proto->mode == 0) {
            jobs[t].lo = t;
        } else {
            jobs[t].lo = n_elems * t / nt;
            jobs[t].hi = n_elems * (t + 1) / nt;
        }
        if (pthread_create(&th[t], NULL, cal_thread, &jobs[t]) != 0)
            break;
        started++;
    }
    double secs = -1;
    if (started == nt) {
        pthread_barrier_wait(&bar);
        double t0 = cpu_now_s();
        pthread_barrier_wait(&bar);
        secs = cpu_now_s() - t0;
    } else {
        abort(); /* a barrier sized for nt threads would never open */
    }
    float sum = 0;
    double low = 1;
    for (unsigned t = 0; t < started; t++) {
        pthread_join(th[t], NULL);
        sum += jobs[t].result;
        if (secs > 0 && jobs[t].cpu_s / secs < low)
            low = jobs[t].cpu_s / secs;
    }
    *share = low;
    cpu_sink = sum;
    pthread_barrier_destroy(&bar);
    free(jobs);
    free(th);
    return secs;
}

/* FMA rate on nt threads, GFLOPS: grow until one run lasts min_s, then
 * keep the best of three. */
static double measure_fma(unsigned nt, double min_s, const fma_kind *fk,
                          double *share)
{
    cal_job j = {.fk = *fk, .mode = 0, .iters = 1 << 16};
    double secs, sh;
    while ((secs = run_jobs(nt, &j, 0, &sh)) < min_s &&
           j.iters < (1ull << 40))
        j.iters *= secs > 0 ? (uint64_t)fmax(2.0, min_s / secs * 1.2) : 2;
    double best = secs;
    *share = sh;
    for (int r = 0; r < 2; r++) {
        secs = run_jobs(nt, &j, 0, &sh);
        if (secs > 0 && secs < best) {
            best = secs;
            *share = sh;
        }
    }
    return (double)j.iters * fk->flops_per_iter * nt / best / 1e9;
}

/* Triad a = b + s*c bandwidth on nt threads, GB/s counting 3 arrays x 4
 * bytes per element (read b, c; write a; write-allocate not counted, as
 * in STREAM). */
static double measure_triad(unsigned nt, double min_s, float *a, float *b,
                            float *c, size_t n, double *share)
{
    cal_job j = {.mode = 1, .a = a, .b = b, .c = c, .reps = 1};
    double secs, sh;
    while ((secs = run_jobs(nt, &j, n, &sh)) < min_s && j.reps < (1 << 20))
        j.reps *= secs > 0 ? (int)fmax(2.0, min_s / secs * 1.2) : 2;
    double best = secs;
    *share = sh;
    for (int r = 0; r < 2; r++) {
        secs = run_jobs(nt, &j, n, &sh);
        if (secs > 0 && secs < best) {
            best = secs;
            *share = sh;
        }
    }
    return 3.0 * 4.0 * (double)n * j.reps / best / 1e9;
}

int cpu_calibrate(double budget_s, device_profile *out, FILE *log,
                  cw_error *err)
{
    cw_error_clear(err);
    cpu_profile_detect(out);
    double scale = budget_s > 0 ? fmin(1.0, budget_s / 10.0) : 1.0;
    double min_s = 0.1 * scale > 0.02 ? 0.1 * scale : 0.02;
    unsigned nt = cpu_isa_online_cpus();
    fma_kind fk = pick_fma();

    if (log)
        fprintf(log, "calibrating %s: %u online CPUs, %s\n", out->name, nt,
                fk.name);
    double sh, busy = 1; /* lowest CPU share any measurement got */
    double f1 = measure_fma(1, min_s, &fk, &sh);
    busy = fmin(busy, sh);
    if (log)
        fprintf(log, "  FP32 FMA, 1 core:      %8.1f GFLOP/s\n", f1);
    double fn = f1;
    if (nt > 1) {
        fn = measure_fma(nt, min_s, &fk, &sh);
        busy = fmin(busy, sh);
    }
    if (log)
        fprintf(log, "  FP32 FMA, %u cores:    %8.1f GFLOP/s\n", nt, fn);

    /* Arrays well beyond the last-level cache so the triad streams DRAM. */
    size_t llc = out->l2_bytes ? out->l2_bytes : (32u << 20);
    size_t bytes = 4 * llc;
    if (bytes < (64u << 20))
        bytes = 64u << 20;
    if (bytes > (256u << 20)) /* sysconf may report the host's whole L3 */
        bytes = 256u << 20;
    size_t n = bytes / sizeof(float);
    float *a = aligned_alloc(64, n * sizeof(float));
    float *b = aligned_alloc(64, n * sizeof(float));
    float *c = aligned_alloc(64, n * sizeof(float));
    double b1 = -1, bn = -1;
    if (!a || !b || !c) {
        if (log)
            fprintf(log, "  triad: cannot allocate 3 x %zu MiB; bandwidth "
                    "left unknown\n", bytes >> 20);
    } else {
        uint64_t seed = 42;
        for (size_t i = 0; i < n; i++) {
            a[i] = 0;
            b[i] = (float)(bufinit_rng(&seed) >> 40) / (float)(1 << 24);
            c[i] = (float)(bufinit_rng(&seed) >> 40) / (float)(1 << 24);
        }
        b1 = measure_triad(1, min_s, a, b, c, n, &sh);
        busy = fmin(busy, sh);
        if (log)
            fprintf(log, "  triad, 1 core:         %8.1f GB/s (3 x %zu MiB)\n",
                    b1, bytes >> 20);
        bn = b1;
        if (nt > 1) {
            bn = measure_triad(nt, min_s, a, b, c, n, &sh);
            busy = fmin(busy, sh);
        }
        if (log)
            fprintf(log, "  triad, %u cores:       %8.1f GB/s\n", nt, bn);
    }
    free(a);
    free(b);
    free(c);

    if (!(fn > 0)) {
        cw_error_set(err, NULL, 0, 0, "the FMA measurement failed");
        return CW_STATUS_ENV;
    }
    out->source = PROFILE_CALIBRATED;
    out->fp32_gflops = fn;
    out->fp64_gflops = -1; /* not measured */
    if (bn > 0) {
        out->dram_gbs = bn;
        /* the model scales by threads; keep the single-core figure in
         * the record for readers */
    }
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
             fk.name, f1, fn, nt, b1, bn, nt,
             busy < 0.9 ? "; machine busy while measuring" : "");
    return 0;
}
