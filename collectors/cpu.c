/* cpu.c - native CPU kernels: profile, static stage, measurement, verdict
 * against the roofline, and `clockwork calibrate --cpu` (see cpu.h).
 *
 * Why the roofline verdict lives here and not in verdict.c: a CPU kernel's
 * prediction is the roofline (what the hardware allows), not a model of the
 * code as written, so the question is "does it reach min_efficiency of the
 * roofline?", not "is it within +-25% of a prediction?".  A tuned SGEMM at
 * 90% of peak is 10% slower than its prediction and perfectly fine.
 */
#include "cpu.h"
#include "alloc.h"

#include <errno.h>
#include <immintrin.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "clockwork.h"
#include "cpu_isolate.h"
#include "cpuinspect.h"
#include "expr.h"
#include "pfm.h"
#include "stats.h"

#define CPU_DEFAULT_MIN_EFF 0.25
#define CPU_ASSUMED_GBS_PER_CORE 10.0 /* when no calibration measured it */
#define CPU_FMA_UNITS 2               /* per core, when not measured */

/* ---- detection ---- */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static unsigned online_cpus(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (unsigned)n : 1;
}

/* Physical cores among the online CPUs: SMT siblings share FMA units. */
static unsigned physical_cores(void)
{
    unsigned online = online_cpus();
    char sib[32], cores[32];
    profile_cpuinfo_field("siblings", sib, sizeof sib);
    profile_cpuinfo_field("cpu cores", cores, sizeof cores);
    long s = atol(sib), c = atol(cores);
    if (s > 0 && c > 0 && s > c) {
        unsigned p = (unsigned)((long)online * c / s);
        return p ? p : 1;
    }
    return online;
}

static int simd_lanes_fp32(void)
{
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f"))
        return 16;
    if (__builtin_cpu_supports("avx2") || __builtin_cpu_supports("avx"))
        return 8;
    return 4;
}

static const char *simd_name(void)
{
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f"))
        return "AVX-512";
    if (__builtin_cpu_supports("avx2"))
        return "AVX2";
    if (__builtin_cpu_supports("avx"))
        return "AVX";
    return "SSE";
}

static double cpuinfo_ghz(void)
{
    char mhz[64];
    profile_cpuinfo_field("cpu MHz", mhz, sizeof mhz);
    double v = atof(mhz);
    return v > 0 ? v / 1e3 : -1;
}

static uint32_t fnv1a(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 16777619u;
    }
    return h;
}

static void cpu_model(char *buf, size_t n)
{
    profile_cpuinfo_field("model name", buf, n);
    if (!buf[0])
        snprintf(buf, n, "unknown x86-64 CPU");
}

void cpu_profile_uuid(char *buf, size_t n)
{
    char model[256];
    cpu_model(model, sizeof model);
    snprintf(buf, n, "cpu-%08x", fnv1a(model));
}

int cpu_profile_cache_path(char *buf, size_t n)
{
    char uuid[40];
    cpu_profile_uuid(uuid, sizeof uuid);
    return profile_cache_path(uuid, "native", buf, n);
}

void cpu_profile_detect(device_profile *p)
{
    profile_init(p);
    char model[256];
    cpu_model(model, sizeof model);
    snprintf(p->name, sizeof p->name, "%s", model);
    snprintf(p->key, sizeof p->key, "cpu");
    snprintf(p->driver, sizeof p->driver, "native");
    cpu_profile_uuid(p->uuid, sizeof p->uuid);
    snprintf(p->date, sizeof p->date, "detected at run time");
    p->source = PROFILE_BUILTIN;
    p->is_cpu = 1;
    unsigned cores = physical_cores();
    int lanes = simd_lanes_fp32();
    __builtin_cpu_init();
    int fma = __builtin_cpu_supports("fma") ||
              __builtin_cpu_supports("avx512f");
    double ghz = cpuinfo_ghz();
    snprintf(p->command, sizeof p->command,
             "detected: %u cores, %s%s (%d FP32 lanes), %s GHz from "
             "/proc/cpuinfo, %d FMA units per core assumed",
             cores, simd_name(), fma ? "+FMA" : "", lanes,
             ghz > 0 ? "clock" : "no", CPU_FMA_UNITS);
    p->units = cores;
    p->clock_ghz = ghz;
    p->line_bytes = 64;
    p->sector_bytes = 64;
    long llc = sysconf(_SC_LEVEL3_CACHE_SIZE);
    if (llc <= 0)
        llc = sysconf(_SC_LEVEL2_CACHE_SIZE);
    p->l2_bytes = llc > 0 ? (uint64_t)llc : 0;
    p->max_threads_per_unit = 1;
    if (ghz > 0) {
        p->fp32_gflops = cores * CPU_FMA_UNITS * lanes * (fma ? 2.0 : 1.0) *
                         ghz;
        p->fp64_gflops = p->fp32_gflops / 2;
    }
    p->launch_us = 0.05; /* a function call */
}

void cpu_profile(device_profile *out)
{
    char path[1024];
    if (cpu_profile_cache_path(path, sizeof path) == 0 &&
        access(path, R_OK) == 0) {
        cw_error err;
        device_profile p;
        if (profile_load_file(path, &p, &err) == 0 && p.fp32_gflops > 0) {
            p.is_cpu = 1;
            *out = p;
            return;
        }
    }
    cpu_profile_detect(out);
}

/* ---- static stage ---- */

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

static unsigned kernel_threads(const plan_kernel *k)
{
    return k->threads > 0 ? (unsigned)k->threads : online_cpus();
}

/* Evaluate one work expression; on error add a finding and return -1. */
static int eval_work(const plan_kernel *k, const char *what, const char *text,
                     double *out, kernel_report *kr)
{
    expr_var *vars = xcalloc(k->nargs ? k->nargs : 1, sizeof *vars);
    for (size_t i = 0; i < k->nargs; i++) {
        vars[i].name = k->args[i].key;
        vars[i].value = k->args[i].is_integer ? k->args[i].ivalue
                                              : (int64_t)k->args[i].value;
    }
    expr_error e;
    int64_t v;
    int rc = expr_eval(text, vars, k->nargs, &v, &e);
    free(vars);
    if (rc == 0 && v < 0) {
        rc = -1;
        e.pos = 1;
        snprintf(e.text, sizeof e.text, "the value is negative (%lld)",
                 (long long)v);
    }
    if (rc) {
        finding *f = report_add_finding(
            kr, FINDING_WORK_EXPRESSION_INVALID, SEV_ERROR, NULL, k->line,
            "write the count as + - * / and parentheses over the kernel's "
            "integer args, e.g. \"2*n*n*n\"",
            "kernel '%s': work.%s \"%s\", position %d: %s", k->name, what,
            text, e.pos, e.text);
        char field[32];
        snprintf(field, sizeof field, "work.%s", what);
        finding_detail_str(f, "field", field);
        finding_detail_int(f, "position", e.pos);
        kr->input_error = 1;
        return -1;
    }
    *out = (double)v;
    return 0;
}

/* Per-thread-count ceilings: a kernel on t threads gets t/units of the
 * machine (FP and bandwidth), capped at the whole machine. */
static double share(const device_profile *p, unsigned threads)
{
    unsigned units = p->units ? p->units : online_cpus();
    return threads >= units ? 1.0 : (double)threads / units;
}

/* Packed code narrower than the machine's vectors, or without FMA where
 * the machine has it, can reach only a fraction of the peak: a note. */
static void add_narrow_note(const plan_kernel *k, const cpuinspect_result *ir,
                            kernel_report *kr)
{
    int bits = simd_lanes_fp32() * 32;
    __builtin_cpu_init();
    int machine_fma = __builtin_cpu_supports("fma") ||
                      __builtin_cpu_supports("avx512f");
    int factor = ir->vector_bits > 0 && bits > ir->vector_bits
                     ? bits / ir->vector_bits : 1;
    int no_fma = machine_fma && !ir->loop_fma;
    if (no_fma)
        factor *= 2;
    if (factor <= 1)
        return;
    finding *f = report_add_finding(
        kr, FINDING_NARROW_VECTOR_CODE, SEV_NOTE, k->library, 0,
        "compile for the machine's vector ISA (-march=native), and allow "
        "contraction into FMA (-ffp-contract=fast; ISO C modes turn it off)",
        "the loops of '%s' use %d-bit vectors%s; the roofline assumes %d-bit "
        "%s: at most 1/%d of the FP32 peak", k->symbol, ir->vector_bits,
        no_fma ? " and no FMA" : "", bits, machine_fma ? "FMA" : "vectors",
        factor);
    finding_detail_str(f, "symbol", ir->symbol);
    finding_detail_int(f, "vector_bits", ir->vector_bits);
    finding_detail_int(f, "machine_vector_bits", bits);
    finding_detail_bool(f, "fma", ir->loop_fma);
    finding_detail_real(f, "peak_fraction", 1.0 / factor);
}

/* The file the run will load: the plan's path, or for a bare name what
 * the system search finds (dlopen in a child: no constructor runs here).
 * 0 with path, or -1 with why. */
static int library_file(const plan_kernel *k, char *path, size_t n, char *why,
                        size_t why_n)
{
    if (strchr(k->library_path, '/')) {
        snprintf(path, n, "%s", k->library_path);
        return 0;
    }
    return cpu_isolate_find_library(k->library_path, 10.0, path, n, why, why_n);
}

/* Inspects the symbol's code; a library or symbol the run could not use
 * is an input error (exit 2) that stops the kernel from being run. */
static void add_inspection(const plan_kernel *k, const device_profile *prof,
                           kernel_report *kr)
{
    cpuinspect_result ir;
    char path[4096], why[600];
    if (library_file(k, path, sizeof path, why, sizeof why) != 0) {
        report_add_finding(
            kr, FINDING_LIBRARY_INVALID, SEV_ERROR, k->plan_path, k->line,
            "put the library next to the plan (paths are relative to the plan "
            "file), give its path, or install it where the loader looks "
            "(LD_LIBRARY_PATH, ldconfig)",
            "kernel '%s': library '%s' is neither next to the plan nor found "
            "by the system search: %s", k->name, k->library, why);
        kr->input_error = 1;
        return;
    }
    if (cpuinspect_symbol(path, k->symbol, &ir) != 0) {
        if (ir.unusable) {
            report_add_finding(
                kr, ir.unusable == 1 ? FINDING_LIBRARY_INVALID : FINDING_SYMBOL_INVALID,
                SEV_ERROR, k->plan_path, k->line,
                ir.unusable == 1
                    ? "give a 64-bit x86-64 shared object (cc -shared -fPIC)"
                    : "export the kernel as a global function with the ABI of "
                      "include/clockwork.h: int f(void *const b[], const "
                      "int64_t a[])",
                "kernel '%s': %s", k->name, ir.reason);
            kr->input_error = 1;
            return;
        }
        prediction_add_assumption(&kr->prediction,
                                  "machine code not inspected: %s",
                                  ir.reason);
        return;
    }
    prediction_add_assumption(&kr->prediction, "machine code: %s",
                              ir.summary);
    if (ir.cls == CPUI_VECTOR)
        add_narrow_note(k, &ir, kr);
    if (ir.cls != CPUI_SCALAR)
        return;
    int lanes = simd_lanes_fp32();
    finding *f = report_add_finding(
        kr, FINDING_SCALAR_FP_CODE, SEV_WARNING, k->library, 0,
        "vectorise the hot loop: unit-stride inner loop, -O3 with "
        "-march=native (or the target's vector ISA), or call a tuned library",
        "scalar code: the roofline assumes vectors. The loops of '%s' do "
        "floating-point arithmetic with %zu scalar and no packed "
        "instructions, so they can reach at most 1/%d of the %s FP32 peak%s",
        k->symbol, ir.loop_fp_scalar, lanes, simd_name(),
        prof && prof->fp32_gflops > 0 ? "" : " (peak unknown)");
    finding_detail_str(f, "symbol", ir.symbol);
    finding_detail_uint(f, "loops", ir.nloops);
    finding_detail_uint(f, "loop_fp_scalar", ir.loop_fp_scalar);
    finding_detail_uint(f, "loop_fp_packed", ir.loop_fp_packed);
    finding_detail_uint(f, "instructions", ir.ninsns);
    finding_detail_int(f, "vector_lanes_fp32", lanes);
}

void cpu_check_kernel(const plan_kernel *k, const device_profile *cpu_prof,
                      kernel_report *kr)
{
    device_profile local;
    if (!cpu_prof) {
        cpu_profile(&local);
        cpu_prof = &local;
    }
    cw_set_str(&kr->kind, "cpu");
    if (!kr->shader)
        cw_set_str(&kr->shader, k->library);
    if (!kr->entry)
        cw_set_str(&kr->entry, k->symbol);

    prediction *p = &kr->prediction;
    double flops = -1, bytes = -1;
    int bad = 0;
    for (size_t i = 0; i < k->nargs; i++)
        if (!k->args[i].is_integer) {
            report_add_finding(kr, FINDING_PLAN_INVALID, SEV_ERROR, NULL,
                               k->args[i].line, "give CPU kernel args as "
                               "integers", "kernel '%s': argument '%s' = %g "
                               "is not an integer", k->name, k->args[i].key,
                               k->args[i].value);
            kr->input_error = 1;
            bad = 1;
        }
    if (!bad && k->work_flops &&
        eval_work(k, "flops", k->work_flops, &flops, kr))
        bad = 1;
    if (!bad && k->work_bytes &&
        eval_work(k, "bytes", k->work_bytes, &bytes, kr))
        bad = 1;

    add_inspection(k, cpu_prof, kr);
    if (bad)
        return;

    unsigned threads = kernel_threads(k);
    double sh = share(cpu_prof, threads);
    double peak = cpu_prof->fp32_gflops > 0 ? cpu_prof->fp32_gflops * sh : -1;
    double bw;
    if (cpu_prof->dram_gbs > 0) {
        bw = cpu_prof->dram_gbs * sh;
    } else {
        unsigned used = threads < cpu_prof->units || !cpu_prof->units
                            ? threads : cpu_prof->units;
        bw = CPU_ASSUMED_GBS_PER_CORE * used;
        if (bytes > 0)
            prediction_add_assumption(
                p, "memory bandwidth not measured: assumed %.0f GB/s per "
                "thread (%.0f GB/s); run `clockwork calibrate --cpu`",
                CPU_ASSUMED_GBS_PER_CORE, bw);
    }
    prediction_add_assumption(
        p, "profile %s: %s", profile_source_name(cpu_prof->source),
        cpu_prof->command[0] ? cpu_prof->command : cpu_prof->name);
    prediction_add_assumption(
        p, "%u thread%s (%s): %.0f%% of the machine's FP32 peak and "
        "bandwidth", threads, threads == 1 ? "" : "s",
        k->threads > 0 ? "plan" : "default: all online CPUs", sh * 100);
    if (cpu_prof->source != PROFILE_CALIBRATED && cpu_prof->clock_ghz > 0)
        prediction_add_assumption(
            p, "FP32 peak %.0f GFLOPS = cores x %d FMA units x lanes x 2 x "
            "%.2f GHz (clock from /proc/cpuinfo, assumed sustained)",
            cpu_prof->fp32_gflops, CPU_FMA_UNITS, cpu_prof->clock_ghz);
    prediction_add_assumption(p, "roofline: packed vector FMA code on every "
                              "unit; FLOPs and bytes from the plan's work");

    p->flops = flops > 0 ? flops : 0;
    p->bytes = bytes > 0 ? bytes : 0;
    p->invocations = 0;
    double t_f = -1, t_b = -1;
    if (flops >= 0 && peak > 0) {
        t_f = flops / (peak * 1e9) * 1e6;
        prediction_add_term(p, "fp32", t_f);
    } else if (flops >= 0) {
        prediction_add_assumption(p, "FP32 peak unknown (no clock): the "
                                  "FLOP term is left out");
    }
    if (bytes >= 0 && bw > 0) {
        t_b = bytes / (bw * 1e9) * 1e6;
        prediction_add_term(p, "dram", t_b);
    }
    if (t_f < 0 && t_b < 0) {
        p->valid = 0;
        p->conf = CONF_UNKNOWN;
        if (!k->work_flops && !k->work_bytes)
            prediction_add_assumption(p, "no \"work\" in the plan: nothing "
                                      "to put on the roofline");
        return;
    }
    p->valid = 1;
    p->conf = CONF_ESTIMATED;
    p->time_us = t_f > t_b ? t_f : t_b;
    p->ideal_time_us = p->time_us;
    cw_set_str(&p->bound, t_f >= t_b ? "fp32" : "dram");
}

/* ---- measurement ---- */

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

static uint64_t splitmix(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static void fill_buffer(void *mem, uint64_t bytes, const plan_buffer *b,
                        uint64_t seed)
{
    float *f = mem;
    uint64_t n = bytes / sizeof(float);
    memset(mem, 0, bytes);
    switch (b->init) {
    case PLAN_INIT_ZERO:
        break;
    case PLAN_INIT_RAMP:
        for (uint64_t i = 0; i < n; i++)
            f[i] = (float)i;
        break;
    case PLAN_INIT_CONST:
        for (uint64_t i = 0; i < n; i++)
            f[i] = (float)b->init_value;
        break;
    case PLAN_INIT_RANDOM:
    default:
        for (uint64_t i = 0; i < n; i++)
            /* uniform in [-1, 1): ordinary values, no denormals */
            f[i] = (float)((double)(splitmix(&seed) >> 40) /
                           (double)(1ull << 23) - 1.0);
        break;
    }
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

/* Per-call averages of the session's totals (nc calls were bracketed). */
static void copy_counters(pfm_session *s, measurement *m, size_t nc)
{
    measurement tmp;
    memset(&tmp, 0, sizeof tmp);
    pfm_session_read(s, &tmp);
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

static const counter_value *counter(const measurement *m, const char *name)
{
    for (size_t i = 0; i < m->ncounters; i++)
        if (strcmp(m->counters[i].name, name) == 0)
            return &m->counters[i];
    return NULL;
}

static int counter_val(const measurement *m, const char *suffix, double *v)
{
    for (size_t i = 0; i < m->ncounters; i++) {
        const char *n = m->counters[i].name;
        size_t nl = strlen(n), sl = strlen(suffix);
        if (nl >= sl && strcmp(n + nl - sl, suffix) == 0 &&
            m->counters[i].available) {
            *v = m->counters[i].value;
            return 1;
        }
    }
    return 0;
}

static void dump_buffers(const plan_kernel *k, const char *dir, void **bufs,
                         const uint64_t *sizes, measurement *m)
{
    mkdir(dir, 0777);
    for (size_t i = 0; i < k->nbuffers; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s.buffer%zu.bin", dir, k->name, i);
        cw_error err;
        if (cw_write_file_atomic(path, bufs[i], sizes[i], &err) != 0) {
            char msg[1200];
            cw_error_format(&err, msg, sizeof msg);
            set_error(m, "cannot dump buffer %zu: %s", i, msg);
        }
    }
}

/* Evidence for the roofline verdict: counters when they exist, else why
 * they do not, plus the static inspection. */
static void evidence(const plan_kernel *k, const measurement *m,
                     double bracket_us, char *buf, size_t n)
{
    size_t used = 0;
#define EMIT(...)                                                          \
    do {                                                                   \
        if (used < n) {                                                    \
            int w_ = snprintf(buf + used, n - used, __VA_ARGS__);          \
            if (w_ > 0)                                                    \
                used += (size_t)w_;                                        \
        }                                                                  \
    } while (0)
    buf[0] = 0;
    double cyc, ins, miss, refs;
    int have_cyc = counter_val(m, "cycles", &cyc);
    int have_ins = counter_val(m, "instructions", &ins);
    if (have_cyc && have_ins && cyc > 0)
        EMIT("IPC %.2f; ", ins / cyc);
    if (counter_val(m, "cache-misses", &miss)) {
        if (counter_val(m, "cache-references", &refs) && refs > 0)
            EMIT("cache misses %.3g per call (%.1f%% of references); ", miss,
                 100 * miss / refs);
        else
            EMIT("cache misses %.3g per call; ", miss);
    }
    double sc, p128 = 0, p256 = 0, p512 = 0;
    int have_sc = counter_val(m, ":SCALAR_SINGLE", &sc) ||
                  counter_val(m, ":SCALAR_UOPS_RETIRED", &sc);
    int have_p = counter_val(m, "128B_PACKED_SINGLE", &p128) |
                 counter_val(m, "PACK128_UOPS_RETIRED", &p128) |
                 counter_val(m, "256B_PACKED_SINGLE", &p256) |
                 counter_val(m, "PACK256_UOPS_RETIRED", &p256) |
                 counter_val(m, "512B_PACKED_SINGLE", &p512) |
                 counter_val(m, "PACK512_UOPS_RETIRED", &p512);
    if (have_sc || have_p)
        EMIT("FP instructions per call: %.3g scalar, %.3g packed; ",
             have_sc ? sc : 0.0, p128 + p256 + p512);
    double tc;
    if (counter_val(m, "task-clock", &tc) && m->median_us > 0)
        /* task-clock is CPU time in ns summed over the kernel's threads */
    {
        /* counters run from before the hand-off to the kernel's thread
         * until after it returns: divide by that span, not the call's */
        double span = bracket_us > 0 ? bracket_us : m->median_us;
        double busy = tc / 1e3 / span;
        unsigned threads = kernel_threads(k);
        EMIT("CPU time %.3g ms per call over %.3g ms counted: %.1f CPUs "
             "busy", tc / 1e6, span / 1e3, busy);
        if (threads > 1 && busy < 0.75 * threads)
            EMIT(" of the %u threads planned (serial code, a smaller "
                 "thread pool, or other load on the machine)", threads);
        EMIT("; ");
    }
    if (!have_cyc && !have_ins) {
        const counter_value *c = counter(m, "cycles");
        EMIT("hardware counters unavailable (%s); ",
             c && c->reason ? c->reason
                            : "no counter session could be opened");
    }
    cpuinspect_result ir;
    char path[4096], why[600];
    if (library_file(k, path, sizeof path, why, sizeof why) != 0)
        EMIT("machine code not inspected: %s", why);
    else if (cpuinspect_symbol(path, k->symbol, &ir) == 0)
        EMIT("machine code: %s", ir.summary);
    else
        EMIT("machine code not inspected: %s", ir.reason);
#undef EMIT
}

/* Flag on the best call, report the median: interference from other
 * load can only slow calls down, so a kernel whose best call clears the
 * bar is capable of it; one whose best call does not is truly slow. */
static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* samples[i] wall us of call i, delays[i] its threads' CPU wait (< 0
 * unknown).  The best call is judged on wall - wait: time spent waiting
 * for a CPU held by another process is not the kernel's. */
void cpu_roofline_verdict(const plan_kernel *k, kernel_report *kr,
                          const double *samples, const double *delays,
                          size_t n, double bracket_us)
{
    const prediction *p = &kr->prediction;
    const measurement *m = &kr->measurement;
    divergence *d = &kr->divergence;
    if (!p->valid || !m->valid || m->median_us <= 0 || p->time_us <= 0)
        return; /* the pipeline's verdict says unknown */
    double eff = p->time_us / m->median_us;
    double raw_best_us = m->min_us > 0 ? m->min_us : m->median_us;
    double best_us = raw_best_us;
    double *dl = xmalloc((n ? n : 1) * sizeof *dl);
    size_t ndl = 0;
    for (size_t i = 0; i < n; i++) {
        if (delays[i] < 0)
            continue;
        dl[ndl++] = delays[i];
        double own = samples[i] - delays[i];
        if (own > 0 && own < best_us)
            best_us = own;
    }
    /* The worst thread's wait over-counts the loss when threads overlap
     * their waits; no call can beat the roofline, so that bounds it. */
    if (best_us < p->time_us)
        best_us = p->time_us < raw_best_us ? p->time_us : raw_best_us;
    double wait_med = -1;
    if (ndl) {
        qsort(dl, ndl, sizeof *dl, cmp_double);
        wait_med = dl[ndl / 2];
    }
    free(dl);
    double eff_best = p->time_us / best_us;
    double eff_raw_best = p->time_us / raw_best_us;
    double min_eff = k->min_efficiency >= 0 ? k->min_efficiency
                                            : CPU_DEFAULT_MIN_EFF;
    double secs = m->median_us * 1e-6, best_s = raw_best_us * 1e-6;
    char rate[200];
    int fp_bound = p->bound && strcmp(p->bound, "fp32") == 0;
    double gflops = p->flops / secs / 1e9, gbs = p->bytes / secs / 1e9;
    if (fp_bound && p->flops > 0) {
        double roof = p->flops / (p->time_us * 1e-6) / 1e9;
        snprintf(rate, sizeof rate, "%.3g GFLOPS (best call %.3g) of a "
                 "%.3g GFLOPS FP32 roofline", gflops,
                 p->flops / best_s / 1e9, roof);
    } else {
        double roof = p->bytes / (p->time_us * 1e-6) / 1e9;
        snprintf(rate, sizeof rate, "%.3g GB/s (best call %.3g) of a %.3g "
                 "GB/s memory roofline", gbs, p->bytes / best_s / 1e9, roof);
    }
    char ev[1400];
    size_t evn = 0;
    ev[0] = 0;
    if (wait_med > 0.02 * m->median_us)
        evn = (size_t)snprintf(ev, sizeof ev, "the kernel's threads waited "
                               "%.3g ms per call (median) for a CPU held by "
                               "other processes: %.1f%% efficiency on the "
                               "best call once that wait is discounted; ",
                               wait_med / 1e3, eff_best * 100);
    if (evn >= sizeof ev)
        evn = sizeof ev - 1;
    evidence(k, m, bracket_us, ev + evn, sizeof ev - evn);
    char text[2200];
    d->valid = 1;
    d->ratio = m->median_us / p->time_us;
    if (eff_best < min_eff) {
        d->status = DIV_SLOWER;
        snprintf(text, sizeof text, "reaches %s: %.1f%% efficiency (best "
                 "call %.1f%%), below the expected %.0f%%. Evidence: %s",
                 rate, eff * 100, eff_raw_best * 100, min_eff * 100, ev);
        finding *f = report_add_finding(
            kr, FINDING_FAR_BELOW_ROOFLINE, SEV_WARNING, k->library, 0,
            "vectorise and block the loops for the caches, or call a tuned "
            "library; set \"expect\": {\"min_efficiency\": ...} if this "
            "kernel is not meant to approach the roofline",
            "kernel '%s' %s", k->name, text);
        finding_detail_real(f, "efficiency", eff);
        finding_detail_real(f, "best_efficiency", eff_best);
        finding_detail_real(f, "min_efficiency", min_eff);
        finding_detail_real(f, "measured_gflops", gflops);
        finding_detail_real(f, "measured_gbs", gbs);
    } else {
        d->status = DIV_OK;
        snprintf(text, sizeof text, "reaches %s: %.1f%% efficiency (best "
                 "call %.1f%%; at least %.0f%% expected). %s", rate,
                 eff * 100, eff_raw_best * 100, min_eff * 100, ev);
    }
    cw_set_str(&d->explanation, text);
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
 * 0, or CW_EXIT_ENV with m->error set. */
static int sample_calls(const plan_kernel *k, const run_options *ro,
                        cpu_child *child, pfm_session *ps, measurement *m,
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
            return cpu_isolate_cancelled(child) ? 0 : CW_EXIT_ENV;
        }
        if (rc != 0) {
            set_error(m, "kernel '%s' (%s in %s) returned %d on warm-up call "
                      "%u", k->name, k->symbol, k->library_path, rc, i + 1);
            return CW_EXIT_ENV;
        }
        if (i == 0) {
            m->has_cold = 1;
            m->cold_us = us;
        }
    }
    stats_policy pol;
    stats_policy_default(&pol, min_samples, budget);
    double t_start = now_s();
    size_t cap = 0;
    while (stats_should_continue(*samples, *nsamples, &pol,
                                 now_s() - t_start)) {
        if (ro && ro->cancel && *ro->cancel)
            break;
        int rc;
        double us, dl;
        if (ps)
            pfm_session_start(ps);
        double b0 = now_s();
        int r = cpu_isolate_call(child, ++call, &rc, &us, &dl, why, sizeof why);
        *bracket_total_s += now_s() - b0;
        if (ps)
            pfm_session_stop(ps);
        if (r) {
            if (cpu_isolate_cancelled(child))
                break;
            set_error(m, "%s", why);
            return CW_EXIT_ENV;
        }
        if (rc != 0) {
            set_error(m, "kernel '%s' (%s in %s) returned %d on call %u",
                      k->name, k->symbol, k->library_path, rc, call);
            return CW_EXIT_ENV;
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
                       kernel_report *kr)
{
    measurement *m = &kr->measurement;
    cw_set_str(&m->counters_scope, "kernel");
    char why[1200];
    int64_t *args = kernel_args(k, why, sizeof why);
    if (!args) {
        set_error(m, "kernel '%s': %s", k->name, why);
        return CW_EXIT_ENV;
    }
    uint64_t seed = ro ? ro->seed : 0;
    uint64_t *sizes = xcalloc(k->nbuffers ? k->nbuffers : 1, sizeof *sizes);
    if (buffer_sizes(k, sizes, m)) {
        free(sizes);
        free(args);
        return CW_EXIT_ENV;
    }
    cpu_isolate_buffers bufs;
    if (cpu_isolate_buffers_alloc(&bufs, sizes, k->nbuffers, why, sizeof why)) {
        set_error(m, "kernel '%s': %s", k->name, why);
        free(sizes);
        free(args);
        return CW_EXIT_ENV;
    }
    for (size_t i = 0; i < k->nbuffers; i++)
        fill_buffer(bufs.ptr[i], sizes[i], &k->buffers[i],
                    seed ^ (0x5bd1e995ull * (i + 1)));

    /* Counters first, with inherit: the kernel's process, and the threads
     * its library starts when loaded (a BLAS pool), are counted. */
    pfm_session *ps = NULL;
    char *events = cpu_events();
    cw_error perr;
    if (pfm_session_open(events, 1, &ps, &perr) != 0)
        ps = NULL;
    free(events);

    cpu_isolate_spec spec = {
        .kernel = k->name, .library = k->library_path, .symbol = k->symbol,
        .args = args, .threads = kernel_threads(k),
        .timeout_s = ro && ro->timeout_s > 0 ? ro->timeout_s : 10.0,
        .cancel = ro ? ro->cancel : NULL,
    };
    double *samples = NULL, *delays = NULL, bracket_total_s = 0;
    size_t nsamples = 0;
    int ret = 0;
    cpu_child *child = NULL;
    if (cpu_isolate_start(&spec, &bufs, &child, why, sizeof why)) {
        set_error(m, "%s", why);
        ret = CW_EXIT_ENV;
    } else {
        ret = sample_calls(k, ro, child, ps, m, &samples, &delays, &nsamples,
                           &bracket_total_s);
        cpu_isolate_stop(child);
    }
    if (ret == 0 && nsamples == 0) {
        /* cancelled before the first sample: nothing to report or judge */
        set_error(m, "kernel '%s': cancelled before any sample", k->name);
    } else if (ret == 0) {
        stats_fill_measurement(m, samples, nsamples);
        if (ps)
            copy_counters(ps, m, nsamples);
        if (ro && ro->dump_dir)
            dump_buffers(k, ro->dump_dir, bufs.ptr, sizes, m);
        cpu_roofline_verdict(k, kr, samples, delays, nsamples,
                             bracket_total_s * 1e6 / (double)nsamples);
    }
    cpu_isolate_buffers_free(&bufs);
    free(sizes);
    free(args);
    free(samples);
    free(delays);
    if (ps)
        pfm_session_close(ps);
    return ret;
}

/* ---- calibrate --cpu ---- */

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
        double t0 = now_s();
        pthread_barrier_wait(&bar);
        secs = now_s() - t0;
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
    unsigned nt = online_cpus();
    fma_kind fk = pick_fma();

    if (log)
        fprintf(log, "calibrating %s: %u online CPUs, %s\n", out->name, nt,
                fk.name);
    double sh, busy = 1; /* lowest CPU share any measurement got */
    double f1 = measure_fma(1, min_s, &fk, &sh);
    busy = fmin(busy, sh);
    if (log)
        fprintf(log, "  FP32 FMA, 1 core:      %8.1f GFLOPS\n", f1);
    double fn = f1;
    if (nt > 1) {
        fn = measure_fma(nt, min_s, &fk, &sh);
        busy = fmin(busy, sh);
    }
    if (log)
        fprintf(log, "  FP32 FMA, %u cores:    %8.1f GFLOPS\n", nt, fn);

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
            b[i] = (float)(splitmix(&seed) >> 40) / (float)(1 << 24);
            c[i] = (float)(splitmix(&seed) >> 40) / (float)(1 << 24);
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
        return CW_EXIT_ENV;
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
             "clockwork calibrate --cpu: %s; FMA %.1f GFLOPS on 1 core, "
             "%.1f on %u; triad %.1f GB/s on 1 core, %.1f on %u%s",
             fk.name, f1, fn, nt, b1, bn, nt,
             busy < 0.9 ? "; machine busy while measuring" : "");
    return 0;
}
