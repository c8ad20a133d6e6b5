/* test_model.c - the performance model on synthetic profiles and synthetic
 * counts.  Every expected time is computed by hand from the profile below
 * (see docs/model.md for the formulas). */
#include <setjmp.h>
#include <signal.h>
#include <unistd.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include <cmocka.h>
#include <jansson.h>

#include "model.h"

/* A GPU-like device with round numbers:
 *   10 units, 2 GHz, 128 FP32 lanes per unit per cycle -> 5120 GFLOP/s;
 *   DRAM 1000 GB/s = 1e6 bytes/µs; L2 10x that; launch 5 µs. */
static void gpu_profile(device_profile *p)
{
    profile_init(p);
    snprintf(p->name, sizeof p->name, "synthetic");
    p->source = PROFILE_CALIBRATED;
    p->limits.subgroup_size = 32;
    p->limits.max_wg_invocations = 1024;
    p->limits.max_shared_bytes = 49152;
    p->dram_gbs = 1000;
    p->l2_gbs = 10000;
    p->shared_gbs = 20000;
    p->fp32_gflops = 5120;
    p->fp16_gflops = 10240;
    p->fp64_gflops = 2560;
    p->int32_gops = 2560;
    p->sfu_gops = 640;
    p->atomic_gops = 100;
    p->launch_us = 5;
    p->timestamp_res_ns = 1;
    p->units = 10;
    p->max_threads_per_unit = 2048;
    p->max_groups_per_unit = 16;
    p->shared_per_unit = 65536;
    p->regs_per_unit = 65536;
    p->l2_bytes = 1u << 20;
    p->sector_bytes = 32;
    p->line_bytes = 128;
    p->shared_banks = 32;
    p->mem_latency_ns = 1; /* latency effects off unless a test sets it */
    p->clock_ghz = 2;
    p->reg_alloc_granule = 256;
    p->issue_glanes = 4 * 5120; /* 4 counted instructions per FMA slot */
    p->fp_latency_cycles = 4;
    p->atomic_same_ns = 0.75; /* 1.5 clocks at 2 GHz */
    p->atomic_combine = 1;
    p->barrier_ns = 90;
    p->l1_gbs = 20000;
    p->atomic_shared_same_ns = 1;
    p->atomic_shared_gops = 1000;
}

typedef struct fixture {
    kernel_counts c;
    access_summary acc[8];
    reflection refl;
    plan_kernel k;
    kernel_report kr;
    device_profile p;
} fixture;

static void fx_init(fixture *f, uint64_t groups, uint32_t wg)
{
    memset(f, 0, sizeof *f);
    gpu_profile(&f->p);
    f->refl.local_size[0] = wg;
    f->refl.local_size[1] = 1;
    f->refl.local_size[2] = 1;
    f->k.workgroups[0] = (uint32_t)groups;
    f->k.workgroups[1] = 1;
    f->k.workgroups[2] = 1;
    f->k.min_efficiency = -1;
    f->c.workgroups = groups;
    f->c.invocations = groups * wg;
    f->c.active_invocations = groups * wg;
    f->c.fp_chains = 1;
    f->c.conf = CONF_EXACT;
    f->c.accesses = f->acc;
}

/* One storage access per invocation execution. */
static access_summary *fx_access(fixture *f, uint32_t binding, int store,
                                 uint32_t bytes, int64_t stride, double count,
                                 double footprint)
{
    access_summary *a = &f->acc[f->c.naccesses++];
    memset(a, 0, sizeof *a);
    a->space = SPACE_STORAGE;
    a->binding = binding;
    a->var = binding == 0 ? "A" : binding == 1 ? "B" : "C";
    a->is_store = store;
    a->bytes = bytes;
    a->count = count;
    a->stride_known = 1;
    a->lane_stride_bytes = stride;
    a->index_known = 1;
    a->footprint_bytes = footprint;
    a->line = 10 + (int)binding;
    if (store) {
        f->c.storage_store_bytes += count * bytes;
        f->c.compulsory_write_bytes += footprint;
    } else {
        f->c.storage_load_bytes += count * bytes;
        f->c.compulsory_read_bytes += footprint;
    }
    return a;
}

/* One storage atomic on a single address (a counter named var, or none)
 * per invocation execution, count executions. */
static access_summary *fx_counter(fixture *f, const char *var, double count)
{
    access_summary *a = &f->acc[f->c.naccesses++];
    memset(a, 0, sizeof *a);
    a->space = SPACE_STORAGE;
    a->var = (char *)var;
    a->is_atomic = 1;
    a->bytes = 4;
    a->count = count;
    a->stride_known = 1;
    a->uniform = 1;
    a->footprint_bytes = 4;
    f->c.atomics = count;
    return a;
}

static void fx_run(fixture *f)
{
    model_predict(&f->c, &f->refl, &f->k, &f->p, &f->kr.prediction, &f->kr);
    assert_true(f->kr.prediction.valid);
}

static void fx_free(fixture *f)
{
    kernel_report_free(&f->kr);
}

static double term(const fixture *f, const char *name)
{
    const prediction *p = &f->kr.prediction;
    for (size_t i = 0; i < p->nterms; i++)
        if (strcmp(p->terms[i].name, name) == 0)
            return p->terms[i].time_us;
    return -1;
}


/* The bandwidth part of the dram term: on a GPU the term adds the latency
 * path (docs/model.md section 4) when bandwidth is the larger share. */
static double bw_part(const fixture *f)
{
    double d = term(f, "dram"), l = term(f, "latency");
    return l >= 0 && d >= l ? d - l : d;
}

static const finding *find(const fixture *f, const char *id)
{
    for (size_t i = 0; i < f->kr.nfindings; i++)
        if (strcmp(f->kr.findings[i].id, id) == 0)
            return &f->kr.findings[i];
    return NULL;
}

static int has_assumption(const fixture *f, const char *needle)
{
    const prediction *p = &f->kr.prediction;
    for (size_t i = 0; i < p->nassumptions; i++)
        if (strstr(p->assumptions[i], needle))
            return 1;
    return 0;
}

#define assert_close(a, b)                                                   \
    do {                                                                     \
        double a_ = (a), b_ = (b);                                           \
        if (!(fabs(a_ - b_) <= 1e-9 * fmax(fabs(a_), fabs(b_)) + 1e-12))     \
            fail_msg("%s = %.12g, want %.12g", #a, a_, b_);                  \
    } while (0)

/* SAXPY-like stream: n floats read from A and B, n written to B. */
static void stream(fixture *f, uint64_t groups, uint32_t wg, int64_t stride_a)
{
    fx_init(f, groups, wg);
    double n = (double)groups * wg;
    fx_access(f, 0, 0, 4, stride_a, n, 4 * n);
    fx_access(f, 1, 0, 4, 4, n, 4 * n);
    fx_access(f, 1, 1, 4, 4, n, 4 * n);
    f->c.flops_fp32 = 2 * n;
    f->c.instructions = 12 * n;
}

static void test_memory_bound(void **state)
{
    (void)state;
    fixture f;
    stream(&f, 10000, 256, 4);
    fx_run(&f);
    double bytes = 3 * 4 * 10000.0 * 256; /* 30.72 MB */
    const prediction *p = &f.kr.prediction;
    assert_close(bw_part(&f), bytes / 1e6);
    /* plus the path: 125 waves x 12 instructions at 2 GHz; the 1 ns
     * round trip is covered by the bytes in flight (8 KiB a unit against a
     * bandwidth-delay product of 100 B) */
    assert_close(term(&f, "latency"), 125 * 6e-3);
    assert_close(p->time_us, bytes / 1e6 + 125 * 6e-3 + 5);
    assert_close(p->ideal_time_us, bytes / 1e6 + 5);
    assert_string_equal(p->bound, "dram");
    assert_close(p->bytes, bytes);
    assert_close(p->flops, 2 * 10000.0 * 256);
    assert_int_equal(p->invocations, 10000 * 256);
    assert_int_equal(p->conf, CONF_EXACT);
    assert_null(find(&f, "uncoalesced-access"));
    assert_null(find(&f, "far-below-roofline"));
    assert_null(find(&f, "small-dispatch"));
    assert_null(find(&f, "tail-effect"));
    /* every term is reported, launch included */
    assert_true(term(&f, "launch") == 5);
    assert_true(term(&f, "l2") > 0 && term(&f, "issue") > 0);
    fx_free(&f);
}

/* Reads and writes at their own rates (docs/model.md 4.1a): reads
 * 2000 GB/s, writes 1000, the 50/50 copy 1000: turnaround 2/1e6 - 1/2e6 -
 * 1/1e6 = 5e-7 us per byte.  The stream reads 20.48 MB and writes 10.24:
 * 10.24 + 10.24 + 10.24e6 x 5e-7 = 25.6 us, where every byte at the copy
 * rate took 30.72. */
static void test_dram_directions(void **state)
{
    (void)state;
    fixture f;
    stream(&f, 10000, 256, 4);
    f.p.dram_read_gbs = 2000;
    f.p.dram_write_gbs = 1000;
    fx_run(&f);
    assert_close(bw_part(&f), 25.6);
    fx_free(&f);
}

/* Little's law per round trip: DRAM latency 1000 ns at 1e6 B/us over 10
 * units is a bandwidth-delay product of 1e5 bytes per unit; 8 groups of
 * 256 are resident (2048 lanes).  4-byte loads put 8 KiB in flight per
 * unit: the trip stays on the path, 125 waves x 1 us = 125 us, above the
 * 20.48 us transfer, so latency = 145.48.  64-byte loads put 128 KiB in
 * flight: the queued bytes cover the trip, the path is empty and the
 * kernel is its transfer, 2560000 x 68 B = 174.08 us. */
static void test_inflight_hides_latency(void **state)
{
    (void)state;
    for (uint32_t bytes = 4; bytes <= 64; bytes *= 16) {
        fixture f;
        fx_init(&f, 10000, 256);
        f.p.mem_latency_ns = 1000;
        double n = 10000.0 * 256;
        fx_access(&f, 0, 0, bytes, bytes, n, bytes * n);
        fx_access(&f, 1, 1, 4, 4, n, 4 * n);
        fx_run(&f);
        if (bytes == 4) {
            assert_close(term(&f, "latency"), 125 + 20.48);
            assert_string_equal(f.kr.prediction.bound, "latency");
        } else {
            assert_true(term(&f, "latency") <= 0);
            assert_close(term(&f, "dram"), 174.08);
        }
        fx_free(&f);
    }
}

/* Workgroup starts (calibrate's empty kernel of many groups): 100000
 * groups of 64 at 2 ns a group take 200 us however little each does; the
 * groups term binds over the 51.2 MB they move (51.2 us).  Without the
 * profile figure there is no such term. */
static void test_group_starts(void **state)
{
    (void)state;
    for (int known = 1; known >= 0; known--) {
        fixture f;
        fx_init(&f, 100000, 64);
        double n = 100000.0 * 64;
        fx_access(&f, 0, 0, 4, 4, n, 4 * n);
        fx_access(&f, 1, 1, 4, 4, n, 4 * n);
        f.c.instructions = 4 * n;
        if (known)
            f.p.group_start_ns = 2;
        fx_run(&f);
        if (known) {
            assert_close(term(&f, "groups"), 200);
            assert_string_equal(f.kr.prediction.bound, "groups");
            assert_close(f.kr.prediction.time_us, 205);
        } else {
            assert_true(term(&f, "groups") < 0);
            assert_string_equal(f.kr.prediction.bound, "dram");
        }
        fx_free(&f);
    }
}

/* Halving the bytes halves the memory term (move one term only). */
static void test_memory_bound_half(void **state)
{
    (void)state;
    fixture a, b;
    stream(&a, 10000, 256, 4);
    stream(&b, 5000, 256, 4);
    fx_run(&a);
    fx_run(&b);
    assert_close(bw_part(&b) * 2, bw_part(&a));
    fx_free(&a);
    fx_free(&b);
}

typedef struct fp_case {
    int line;
    int precision;  /* 16, 32, 64 */
    uint32_t wg;
    uint32_t max_groups;
    int chains;
    double hiding;  /* expected fraction of peak from the chains */
} fp_case;

/* peak lanes per unit per cycle = 128 -> 4 warp instructions per cycle;
 * with 4-cycle latency 16 independent warp-chains hide it. */
static const fp_case fp_cases[] = {
    {__LINE__, 32, 256, 16, 1, 1.0},   /* 8 groups x 8 warps = 64 warps */
    {__LINE__, 32, 256, 16, 8, 1.0},
    {__LINE__, 32, 32, 2, 1, 2.0 / 16}, /* 2 warps, 1 chain */
    {__LINE__, 32, 32, 2, 4, 8.0 / 16}, /* 2 warps, 4 chains */
    {__LINE__, 32, 32, 2, 8, 1.0},      /* 2 warps, 8 chains */
    {__LINE__, 64, 256, 16, 8, 1.0},
    {__LINE__, 16, 256, 16, 8, 1.0},
};

static void test_compute_bound(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof fp_cases / sizeof fp_cases[0]; i++) {
        const fp_case *tc = &fp_cases[i];
        fixture f;
        fx_init(&f, 10000, tc->wg);
        f.p.max_groups_per_unit = tc->max_groups;
        double flops = 5.12e9;
        double peak = tc->precision == 16   ? 10240e3
                      : tc->precision == 32 ? 5120e3
                                            : 2560e3; /* per µs */
        const char *name = tc->precision == 16   ? "fp16"
                           : tc->precision == 32 ? "fp32"
                                                 : "fp64";
        if (tc->precision == 16)
            f.c.flops_fp16 = flops;
        else if (tc->precision == 32)
            f.c.flops_fp32 = flops;
        else
            f.c.flops_fp64 = flops;
        f.c.fp_chains = tc->chains;
        f.c.instructions = flops / 4; /* issue never binds here */
        fx_run(&f);
        double want = flops / peak / tc->hiding;
        if (fabs(term(&f, name) - want) > 1e-9 * want)
            fail_msg("row at line %d: %s term %.9g, want %.9g", tc->line,
                     name, term(&f, name), want);
        if (strcmp(f.kr.prediction.bound, name) != 0)
            fail_msg("row at line %d: bound %s, want %s", tc->line,
                     f.kr.prediction.bound, name);
        assert_close(f.kr.prediction.time_us, want + 5);
        fx_free(&f);
    }
}

/* Doubling the FLOPs of a compute-bound kernel doubles its time less the
 * launch; the memory term does not move. */
static void test_double_flops(void **state)
{
    (void)state;
    fixture a, b;
    for (int i = 0; i < 2; i++) {
        fixture *f = i ? &b : &a;
        stream(f, 10000, 256, 4);
        f->c.flops_fp32 = (i ? 2 : 1) * 5.12e9;
        f->c.fp_chains = 8;
        f->c.instructions = f->c.flops_fp32 / 4;
        fx_run(f);
    }
    assert_close(term(&b, "fp32"), 2 * term(&a, "fp32"));
    assert_close(term(&b, "dram"), term(&a, "dram"));
    assert_close(b.kr.prediction.time_us - 5,
                 2 * (a.kr.prediction.time_us - 5));
    fx_free(&a);
    fx_free(&b);
}

static void test_one_workgroup_latency(void **state)
{
    (void)state;
    fixture f;
    fx_init(&f, 1, 64);
    f.p.mem_latency_ns = 500;
    /* each invocation chases 100 pointers: the address of each load comes
     * from the previous one (index unknown to the evaluator) */
    access_summary *chase = fx_access(&f, 0, 0, 4, 4, 64 * 100.0, 64 * 4.0);
    chase->index_known = 0;
    chase->stride_known = 0;
    fx_access(&f, 1, 1, 4, 4, 64, 64 * 4.0);
    f.c.instructions = 64 * 300.0;
    f.c.flops_fp32 = 64 * 2 * 100.0; /* 100 dependent FMAs: 400 cycles */
    fx_run(&f);
    /* 1 wave x ((1 + 100) trips x 500 ns + max(300 instructions at one
     * per clock, 100 FMA steps x 4 cycles) / 2 GHz) */
    assert_close(term(&f, "latency"),
                 (101 * 500 + 400 / 2.0) * 1e-3 + term(&f, "dram"));
    assert_string_equal(f.kr.prediction.bound, "latency");
    const finding *sd = find(&f, "small-dispatch");
    assert_non_null(sd);
    assert_int_equal(sd->sev, SEV_WARNING);
    assert_non_null(strstr(sd->message, "1 workgroup(s) for 10 units"));
    fx_free(&f);
}

/* Subgroup operations are dependent steps of the path: 3 per invocation
 * at the profile's 40 ns add 120 ns per wave. */
static void test_subgroup_ops_on_path(void **state)
{
    (void)state;
    fixture a, b;
    for (int i = 0; i < 2; i++) {
        fixture *f = i ? &b : &a;
        fx_init(f, 1, 64);
        f->p.subgroup_op_ns = 40;
        f->c.instructions = 64 * 10.0;
        f->c.subgroup_ops = i ? 64 * 3.0 : 0;
        fx_run(f);
    }
    assert_close(term(&b, "latency") - term(&a, "latency"), 3 * 40e-3);
    fx_free(&a);
    fx_free(&b);
}

/* After each barrier the first read of workgroup memory waits a round
 * trip: 9 barriers with shared loads at the profile's 15 ns add 135 ns to
 * the path of one wave; without shared loads the barriers cost only
 * barrier_ns. */
static void test_barrier_shared_round_trip(void **state)
{
    (void)state;
    fixture a, b;
    for (int i = 0; i < 2; i++) {
        fixture *f = i ? &b : &a;
        fx_init(f, 1, 64);
        f->p.shared_latency_ns = 15;
        f->c.instructions = 64 * 10.0;
        f->c.barriers = 9;
        f->c.shared_load_bytes = i ? 64 * 4 * 9.0 : 0;
        fx_run(f);
    }
    assert_close(term(&a, "latency"), (9 * 90 + 10 / 2.0) * 1e-3 + term(&a, "dram"));
    assert_close(term(&b, "latency") - term(&a, "latency"), 9 * 15e-3);
    fx_free(&a);
    fx_free(&b);
}

static void test_launch_bound(void **state)
{
    (void)state;
    fixture f;
    fx_init(&f, 1, 64);
    fx_access(&f, 0, 0, 4, 4, 64, 256);
    fx_access(&f, 1, 1, 4, 4, 64, 256);
    f.c.instructions = 64 * 10.0;
    fx_run(&f);
    assert_string_equal(f.kr.prediction.bound, "launch");
    assert_true(f.kr.prediction.time_us >= 5 &&
                f.kr.prediction.time_us < 5.1);
    assert_non_null(find(&f, "small-dispatch"));
    fx_free(&f);
}

/* A dispatch that touches memory launches at calibrate's `launch memory`
 * (7 µs here) less the one round trip its path already charges (500 ns):
 * 6.5 µs; one that touches none keeps the empty launch (5 µs); so does a
 * CPU device, and a memory launch below the empty one is not taken. */
static void test_launch_memory(void **state)
{
    (void)state;
    fixture f;
    for (int c = 0; c < 4; c++) {
        fx_init(&f, 1, 64);
        f.p.mem_latency_ns = 500;
        f.p.launch_memory_us = c == 3 ? 5.2 : 7;
        if (c != 1) {
            fx_access(&f, 0, 0, 4, 4, 64, 256);
            fx_access(&f, 1, 1, 4, 4, 64, 256);
        }
        if (c == 2)
            f.p.kind = DEVICE_KIND_CPU_VULKAN;
        f.c.instructions = 64 * 10.0;
        fx_run(&f);
        double want = c == 0 ? 6.5 : 5;
        if (c == 2) /* the CPU device's own launch: its profile's */
            want = 5;
        assert_close(term(&f, "launch"), want);
        fx_free(&f);
    }
}

typedef struct coal_case {
    int line;
    int64_t stride;     /* bytes between neighbouring lanes */
    uint32_t bytes;
    double factor;      /* sectors fetched / sectors needed */
    int finding;
} coal_case;

static const coal_case coal_cases[] = {
    {__LINE__, 4, 4, 1, 0},
    {__LINE__, -4, 4, 1, 0},     /* reversed order: still coalesced */
    {__LINE__, 8, 4, 2, 1},      /* every other float: 8 sectors of 4 */
    {__LINE__, 16, 16, 1, 0},    /* vec4, contiguous */
    {__LINE__, 32, 4, 8, 1},     /* one float per sector */
    {__LINE__, 4096, 4, 8, 1},   /* column walk: 32 sectors instead of 4 */
    {__LINE__, 4096, 16, 2, 1},  /* vec4 column walk: 32 instead of 16 */
};

static void test_uncoalesced(void **state)
{
    (void)state;
    fixture base;
    stream(&base, 10000, 256, 4);
    fx_run(&base);
    double base_dram_a = 4 * 10000.0 * 256; /* A's bytes, coalesced */
    for (size_t i = 0; i < sizeof coal_cases / sizeof coal_cases[0]; i++) {
        const coal_case *tc = &coal_cases[i];
        fixture f;
        stream(&f, 10000, 256, tc->stride);
        f.acc[0].bytes = tc->bytes;
        double n = 10000.0 * 256;
        f.acc[0].footprint_bytes = tc->bytes * n; /* > L2: streams */
        f.c.compulsory_read_bytes = tc->bytes * n + 4 * n;
        fx_run(&f);
        /* DRAM time of A is multiplied by the sector factor */
        double want = (tc->bytes * n * tc->factor + 8 * n) / 1e6;
        if (fabs(bw_part(&f) - want) > 1e-9 * want)
            fail_msg("row at line %d: dram %.9g, want %.9g", tc->line,
                     bw_part(&f), want);
        const finding *u = find(&f, "uncoalesced-access");
        if (tc->finding != (u != NULL))
            fail_msg("row at line %d: uncoalesced-access %s", tc->line,
                     u ? "reported" : "missing");
        if (u) {
            assert_int_equal(u->sev, SEV_WARNING);
            assert_int_equal(u->line, 10);
            assert_non_null(strstr(u->message, "A is read with stride"));
            assert_non_null(strstr(u->message, "of the predicted"));
            assert_non_null(u->detail);
            assert_string_equal(json_string_value(finding_detail_get(u, "term")), "dram");
        }
        fx_free(&f);
    }
    (void)base_dram_a;
    fx_free(&base);
}

/* A strided store streams its sectors like a strided load. */
static void test_strided_stores(void **state)
{
    (void)state;
    fixture f;
    stream(&f, 10000, 256, 4);
    f.acc[2].lane_stride_bytes = 4096; /* B written down a column */
    fx_run(&f);
    double n = 10000.0 * 256;
    /* A and B read coalesced: 8n; B's stores: 4n x 8 sectors */
    assert_close(bw_part(&f), (8 * n + 4 * n * 8) / 1e6);
    const finding *u = find(&f, "uncoalesced-access");
    assert_non_null(u);
    assert_non_null(strstr(u->message, "B is written with stride"));
    fx_free(&f);
}

/* Neighbouring lanes reading one address (a matrix row shared by a row of
 * invocations): one 32-byte transaction serves the 32 lanes. */
static void test_broadcast_reads(void **state)
{
    (void)state;
    fixture f;
    stream(&f, 10000, 256, 0);
    f.acc[0].footprint_bytes = 4096; /* a small row, read by everyone */
    f.c.compulsory_read_bytes = 4096 + 4 * 2560000.0;
    fx_run(&f);
    double n = 10000.0 * 256;
    /* L2: A n/32 x 32 B, B read 4n, B written 4n */
    assert_close(term(&f, "l2"), (n + 8 * n) / 1e7);
    assert_null(find(&f, "uncoalesced-access"));
    fx_free(&f);
}

/* The 32x32 column walk from the brief: stride 1024 floats. */
static void test_uncoalesced_message(void **state)
{
    (void)state;
    fixture f;
    stream(&f, 10000, 256, 4096);
    fx_run(&f);
    const finding *u = find(&f, "uncoalesced-access");
    assert_non_null(u);
    assert_non_null(strstr(u->message, "stride 1024 elements"));
    assert_non_null(strstr(u->message, "32 32-byte transactions per request "
                                       "instead of 4"));
    fx_free(&f);
}

/* A small table read by everyone: DRAM once, the rest from L2. */
static void test_reuse_l2(void **state)
{
    (void)state;
    fixture f;
    fx_init(&f, 10000, 256);
    double n = 10000.0 * 256;
    fx_access(&f, 0, 0, 4, 4, n * 64, 64 * 1024.0); /* 64 KiB table, 64x */
    fx_access(&f, 1, 1, 4, 4, n, 4 * n);
    f.c.instructions = n * 200;
    fx_run(&f);
    assert_close(term(&f, "dram"), (64 * 1024.0 + 4 * n) / 1e6);
    assert_close(term(&f, "l2"), (n * 64 * 4 + 4 * n) / 1e7);
    fx_free(&f);
}

typedef struct bank_case {
    int line;
    int64_t stride;
    uint32_t bytes;
    double degree;
} bank_case;

static const bank_case bank_cases[] = {
    {__LINE__, 4, 4, 1},
    {__LINE__, 0, 4, 1},     /* broadcast */
    {__LINE__, 8, 4, 2},
    {__LINE__, 16, 4, 4},
    {__LINE__, 128, 4, 32},  /* column of a [32][32] float tile */
    {__LINE__, 132, 4, 1},   /* padded [32][33] */
    {__LINE__, 12, 4, 1},    /* odd word stride */
    {__LINE__, 8, 8, 1},     /* doubles, contiguous: 2 phases, no conflict */
};

static void test_bank_conflicts(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof bank_cases / sizeof bank_cases[0]; i++) {
        const bank_case *tc = &bank_cases[i];
        fixture f;
        fx_init(&f, 10000, 256);
        double n = 10000.0 * 256;
        access_summary *a = &f.acc[f.c.naccesses++];
        memset(a, 0, sizeof *a);
        a->space = SPACE_SHARED;
        a->var = "tile";
        a->bytes = tc->bytes;
        a->count = 64 * n;
        a->stride_known = 1;
        a->lane_stride_bytes = tc->stride;
        a->line = 20;
        f.c.shared_load_bytes = a->count * tc->bytes;
        f.c.instructions = n;
        fx_run(&f);
        double want = 64 * n * tc->bytes * tc->degree / 2e7;
        if (fabs(term(&f, "shared") - want) > 1e-9 * want)
            fail_msg("row at line %d: shared %.9g, want %.9g", tc->line,
                     term(&f, "shared"), want);
        const finding *b = find(&f, "bank-conflict");
        if ((tc->degree >= 2) != (b != NULL))
            fail_msg("row at line %d: bank-conflict %s", tc->line,
                     b ? "reported" : "missing");
        if (b) {
            char want_deg[32];
            snprintf(want_deg, sizeof want_deg, "%.0f-way", tc->degree);
            assert_non_null(strstr(b->message, want_deg));
            assert_int_equal(b->line, 20);
        }
        fx_free(&f);
    }
}

static void test_low_occupancy_shared(void **state)
{
    (void)state;
    fixture lo, hi;
    for (int i = 0; i < 2; i++) {
        fixture *f = i ? &lo : &hi;
        stream(f, 10000, 64, 4);
        f->p.mem_latency_ns = 500;
        f->refl.shared_bytes = i ? 40000 : 1024; /* 1 vs 16 groups per unit */
        fx_run(f);
    }
    const finding *o = find(&lo, "low-occupancy");
    assert_non_null(o);
    assert_non_null(strstr(o->message, "workgroup memory"));
    assert_non_null(strstr(o->message, "3% occupancy")); /* 64 / 2048 */
    assert_null(find(&hi, "low-occupancy"));
    /* one resident group per unit: 1000 waves of (500 ns round trip + 12
     * instructions at 2 GHz), plus the 7.68 MB at 1000 GB/s; 16 resident:
     * 63 waves */
    assert_close(term(&lo, "latency"), 1000 * 0.506 + 3 * 4 * 640000.0 / 1e6);
    assert_close(term(&hi, "latency"), 63 * 0.506 + 3 * 4 * 640000.0 / 1e6);
    assert_true(lo.kr.prediction.time_us > 10 * hi.kr.prediction.time_us);
    assert_string_equal(lo.kr.prediction.bound, "latency");
    fx_free(&lo);
    fx_free(&hi);
}

/* Registers per invocation from the driver limit the workgroups resident
 * per unit: whole subgroups of 32, each taking ceil(regs x 32 / 256) x 256
 * of the unit's 65536 registers.  A 256-invocation workgroup is 8
 * subgroups; invocations per unit alone allow 2048 / 256 = 8.  The stream
 * is memory-bound through Little's law (500 ns latency), so fewer resident
 * workgroups mean a slower dram term:
 *   bw = min(1e6, 10 units x resident x 256 x 8 B / 0.5 ns)  B/µs. */
typedef struct regs_case {
    uint32_t regs;          /* per invocation; 0 = unknown */
    uint32_t regs_per_unit; /* profile; 0 = unknown */
    const char *reason;     /* why unknown, "" = the driver was not asked */
    uint32_t resident;      /* expected workgroups per unit */
    int low_occupancy;      /* finding expected, naming registers */
    const char *assumption; /* expected in the assumptions */
} regs_case;

static const regs_case regs_cases[] = {
    /* unknown: today's result, and it says so */
    {0, 65536, "", 8, 0, "registers per invocation unknown: occupancy "
                         "ignores register pressure"},
    {0, 65536, "the device does not offer X", 8, 0,
     "registers per invocation unknown (the device does not offer X)"},
    /* 32 x 32 x 8 = 8192 per group -> 8: a tie, invocations still bind */
    {32, 65536, "", 8, 0, "-> 8 workgroup(s) of 256 per unit by registers; "
                          "occupancy bound by invocations per unit: 8"},
    {64, 65536, "", 4, 0, "occupancy bound by registers: 4 resident"},
    {128, 65536, "", 2, 0, "registers: 128 per invocation (driver; 32768 "
                           "per workgroup of 256"},
    /* 85 rounds to 88 per lane (blocks of 256 per subgroup): 2, not 3 */
    {85, 65536, "", 2, 0, "22528 per workgroup of 256"}, /* 88x32x8 */
    /* 255 -> 256: the whole register file for one group, 12.5% */
    {255, 65536, "", 1, 1, "occupancy bound by registers: 1 resident"},
    /* registers per unit unknown: registers cannot limit */
    {255, 0, "", 8, 0, "registers per unit unknown"},
};

static void test_registers_occupancy(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof regs_cases / sizeof regs_cases[0]; i++) {
        const regs_case *rc = &regs_cases[i];
        fixture f;
        stream(&f, 10000, 256, 4);
        f.p.mem_latency_ns = 500;
        f.p.regs_per_unit = rc->regs_per_unit;
        f.c.regs_per_invocation = rc->regs;
        snprintf(f.c.regs_reason, sizeof f.c.regs_reason, "%s", rc->reason);
        fx_run(&f);
        const prediction *p = &f.kr.prediction;
        /* bandwidth + path: waves of (500 ns + 12 instructions at 2 GHz) */
        double bw_us = 3 * 4 * 10000.0 * 256 / 1e6;
        double path = ceil(10000.0 / (10 * rc->resident)) * 0.506;
        const char *bound = bw_us >= path ? "dram" : "latency";
        if (fabs(term(&f, bound) - (bw_us + path)) > 1e-9 * (bw_us + path))
            fail_msg("case %zu (regs %u): %s %.6g, want %.6g", i, rc->regs,
                     bound, term(&f, bound), bw_us + path);
        assert_close(p->time_us, bw_us + path + 5);
        assert_string_equal(p->bound, bound);
        assert_int_equal(p->registers_per_invocation, rc->regs);
        if (!has_assumption(&f, rc->assumption)) {
            for (size_t a = 0; a < p->nassumptions; a++)
                print_message("  %s\n", p->assumptions[a]);
            fail_msg("case %zu: no assumption containing '%s'", i,
                     rc->assumption);
        }
        const finding *o = find(&f, "low-occupancy");
        if (rc->low_occupancy) {
            assert_non_null(o);
            assert_non_null(strstr(o->message, "limited by registers: 255 "
                                               "per invocation"));
            assert_non_null(strstr(o->message, "1 workgroup(s) of 256 "
                                               "invocations resident"));
            assert_non_null(strstr(o->message, "12% occupancy")); /* 1/8 */
            assert_string_equal(json_string_value(finding_detail_get(o, "limit")), "registers");
            assert_int_equal(json_integer_value(finding_detail_get(o, "registers_per_invocation")),
                             255);
        } else {
            assert_null(o);
        }
        fx_free(&f);
    }
}

/* The same kernel, registers unknown vs reported and binding: the
 * prediction moves only through occupancy (8x the waves on the latency
 * path). */
static void test_registers_change_time(void **state)
{
    (void)state;
    fixture unk, lim;
    stream(&unk, 10000, 256, 4);
    stream(&lim, 10000, 256, 4);
    unk.p.mem_latency_ns = lim.p.mem_latency_ns = 500;
    lim.c.regs_per_invocation = 255;
    fx_run(&unk);
    fx_run(&lim);
    assert_close(term(&lim, "latency") - 30.72,
                 8 * (term(&unk, "latency") - 30.72));
    assert_true(lim.kr.prediction.time_us > 5 * unk.kr.prediction.time_us);
    assert_close(term(&lim, "l2"), term(&unk, "l2"));
    assert_null(find(&unk, "low-occupancy"));
    assert_non_null(find(&lim, "low-occupancy"));
    fx_free(&unk);
    fx_free(&lim);
}

static void test_tail_effect(void **state)
{
    (void)state;
    /* one resident workgroup per unit: units + 1 groups = 2 waves */
    fixture f, even;
    for (int i = 0; i < 2; i++) {
        fixture *x = i ? &even : &f;
        uint64_t groups = i ? 10 : 11;
        fx_init(x, groups, 1024);
        x->p.max_groups_per_unit = 1;
        x->c.flops_fp32 = 1e8 * (double)groups;
        x->c.fp_chains = 8;
        x->c.instructions = x->c.flops_fp32 / 4;
        fx_run(x);
    }
    /* the busiest unit runs 2 groups where an even share is 1.1 */
    double per_group = 1e8 / (5120e3 / 10); /* one unit's share */
    assert_close(term(&f, "fp32"), 2 * per_group);
    assert_close(term(&even, "fp32"), per_group);
    const finding *t = find(&f, "tail-effect");
    assert_non_null(t);
    assert_non_null(strstr(t->message, "11 workgroups in 2 waves of 10"));
    assert_null(find(&even, "tail-effect"));
    fx_free(&f);
    fx_free(&even);
}

static void test_atomics_same_address(void **state)
{
    (void)state;
    fixture f;
    fx_init(&f, 10000, 100);
    access_summary *a = fx_counter(&f, "counter", 1e6);
    f.c.instructions = 1e6;
    fx_run(&f);
    /* one address: the 1e6 ops combine per 32-lane subgroup into 31250
     * requests, one after another at 1.5 clocks (0.75 ns) each */
    assert_close(term(&f, "atomic"), 1e6 / 32 * 0.75e-3);
    assert_string_equal(f.kr.prediction.bound, "atomic");
    /* spread over 1e6 addresses: the distinct-address rate binds */
    fixture g;
    fx_init(&g, 10000, 100);
    g.acc[0] = *a;
    g.acc[0].uniform = 0;
    g.acc[0].lane_stride_bytes = 4;
    g.acc[0].footprint_bytes = 4e6;
    g.c.naccesses = 1;
    g.c.atomics = 1e6;
    g.c.instructions = 1e7;
    fx_run(&g);
    assert_close(term(&g, "atomic"), 1e6 / 1e5);
    fx_free(&f);
    fx_free(&g);
}

static void test_unknown_fields_are_assumptions(void **state)
{
    (void)state;
    fixture f;
    stream(&f, 1000, 256, 4);
    profile_init(&f.p); /* nothing known */
    f.p.limits.subgroup_size = 32;
    f.p.mem_latency_ns = 1; /* keep Little's law out of the arithmetic */
    fx_run(&f);
    const prediction *p = &f.kr.prediction;
    assert_true(p->time_us > 0 && isfinite(p->time_us));
    assert_true(has_assumption(&f, "DRAM bandwidth unknown"));
    assert_true(has_assumption(&f, "FP32 peak unknown"));
    assert_true(has_assumption(&f, "launch overhead unknown"));
    assert_true(has_assumption(&f, "number of compute units unknown"));
    assert_true(has_assumption(&f, "no measured or built-in profile"));
    assert_false(has_assumption(&f, "subgroup size unknown"));
    /* the assumed values are the ones used: 100 GB/s + 5 µs launch */
    assert_close(bw_part(&f), 3 * 4 * 256000.0 / 1e5);
    fx_free(&f);

    /* a fully known profile states no ceiling assumption */
    fixture g;
    stream(&g, 1000, 256, 4);
    fx_run(&g);
    assert_false(has_assumption(&g, "unknown for this device"));
    fx_free(&g);
}

static void test_min_efficiency(void **state)
{
    (void)state;
    fixture f;
    stream(&f, 10000, 256, 8); /* 2x on A: ~ 75% of ideal */
    fx_run(&f);
    assert_null(find(&f, "far-below-roofline"));
    fx_free(&f);
    stream(&f, 10000, 256, 8);
    f.k.min_efficiency = 0.9;
    fx_run(&f);
    const finding *fb = find(&f, "far-below-roofline");
    assert_non_null(fb);
    assert_int_equal(fb->sev, SEV_WARNING);
    assert_non_null(strstr(fb->message, "the dram term costs"));
    fx_free(&f);
    /* the default threshold is 25%: stride 32 on all three streams = 8x */
    stream(&f, 10000, 256, 32);
    f.acc[1].lane_stride_bytes = 32;
    f.acc[2].lane_stride_bytes = 32;
    fx_run(&f);
    assert_non_null(find(&f, "far-below-roofline"));
    fx_free(&f);
}


/* Issue 16: the far-below-roofline hint names the change that would move
 * the binding term, different per term. */
static void test_far_below_hint_per_term(void **state)
{
    (void)state;
    fixture f;
    /* uncoalesced streams over a buffer larger than L2: DRAM term, more
     * bytes than compulsory -> coalesce */
    stream(&f, 10000, 256, 32);
    f.acc[1].lane_stride_bytes = 32;
    f.acc[2].lane_stride_bytes = 32;
    fx_run(&f);
    const finding *fb = find(&f, "far-below-roofline");
    assert_non_null(fb);
    assert_non_null(strstr(fb->hint, "coalesce"));
    fx_free(&f);

    /* one contended counter: atomic term -> privatise */
    fx_init(&f, 10000, 100);
    fx_counter(&f, NULL, 1e6);
    f.k.min_efficiency = 0.99;
    fx_run(&f);
    assert_string_equal(f.kr.prediction.bound, "atomic");
    fb = find(&f, "far-below-roofline");
    assert_non_null(fb);
    assert_non_null(strstr(fb->hint, "privatise"));
    fx_free(&f);

    /* one dependent FMA chain per invocation on few warps: fp32 term with
     * poor latency hiding -> independent chains */
    fx_init(&f, 10, 32);
    f.c.flops_fp32 = 10 * 32 * 2e6;
    f.c.fp_chains = 1;
    f.k.min_efficiency = 0.99;
    fx_run(&f);
    fb = find(&f, "far-below-roofline");
    assert_non_null(fb);
    if (strcmp(f.kr.prediction.bound, "fp32") == 0)
        assert_non_null(strstr(fb->hint, "independent FP chains"));
    else
        assert_string_equal(f.kr.prediction.bound, "latency");
    assert_null(strstr(fb->hint, "see the other performance findings"));
    fx_free(&f);
}

static void test_evaluator_assumptions_and_confidence(void **state)
{
    (void)state;
    fixture f;
    stream(&f, 100, 256, 4);
    char *as[] = {"loop at line 12 depends on buffer contents: assumed 64 "
                  "iterations"};
    f.c.assumptions = as;
    f.c.nassumptions = 1;
    f.c.conf = CONF_ESTIMATED;
    fx_run(&f);
    assert_int_equal(f.kr.prediction.conf, CONF_ESTIMATED);
    assert_true(has_assumption(&f, "assumed 64 iterations"));
    fx_free(&f);
}

/* No counts (the evaluator could not run): a launch-only prediction with
 * confidence unknown and no findings built on guesses. */
static void test_no_counts(void **state)
{
    (void)state;
    fixture f;
    fx_init(&f, 1, 64); /* would be small-dispatch with counts */
    f.c.conf = CONF_UNKNOWN;
    fx_run(&f);
    assert_int_equal(f.kr.prediction.conf, CONF_UNKNOWN);
    assert_int_equal(f.kr.nfindings, 0);
    assert_true(has_assumption(&f, "no counts"));
    assert_string_equal(f.kr.prediction.bound, "launch");
    fx_free(&f);
}

/* The CPU device (lavapipe) terms, from the constants in docs/model.md §5:
 * 0.55 cycles per 8-lane instruction, 1.5 cycles per lane x 4 bytes of a
 * buffer access, 2.3 of a shared access, 350 ns per workgroup, 2.0 ns per
 * invocation per barrier, 12 cycles per dependent FP step, FP16 at two
 * extra instructions per FLOP.  2 cores at 2 GHz: 4000 cycles per µs. */
static void cpu_fixture(fixture *f, uint64_t groups, uint32_t wg)
{
    fx_init(f, groups, wg);
    profile_init(&f->p);
    f->p.source = PROFILE_BUILTIN;
    f->p.kind = DEVICE_KIND_CPU_VULKAN;
    f->p.units = 2;
    f->p.clock_ghz = 2.0;
    f->p.limits.subgroup_size = 8;
    f->p.sector_bytes = 64;
    f->p.l2_bytes = 32u << 20;
    f->p.dram_gbs = 30;
    f->p.fp32_gflops = 128; /* 2 x 2 GHz x 8 lanes x 2 pipes x 2 */
    f->p.fp16_gflops = 128;
    f->p.fp64_gflops = 64;
    f->p.int32_gops = 64;
    f->p.sfu_gops = 4;
    f->p.atomic_gops = 0.28;
    f->p.launch_us = 30;
    f->p.fp_latency_cycles = 4;
    f->p.atomic_same_ns = 8;
    f->p.atomic_combine = 0;
    f->p.cpu_cycles_per_instruction = 0.55;
    f->p.cpu_cycles_per_storage_lane = 1.5;
    f->p.cpu_cycles_per_shared_lane = 2.3;
    f->p.cpu_ns_per_barrier_lane = 2.0;
    f->p.cpu_ns_per_group = 350;
    f->p.cpu_cycles_per_chain_step = 12;
    f->p.cpu_fp16_conversions_per_flop = 2;
}

/* lavapipe's per-class instruction costs: 4096 x 256 invocations of 8
 * counted instructions, 2 of them FP (4 FLOPs), 2 integer.  FP at 1.0
 * cycle, integer at 0.25, the rest (and the special functions, unknown) at
 * 0.55: (2 + 0.5 + 4 x 0.55) x 1048576 / 8 lanes = 616038.4 cycles on
 * 2 cores at 2 GHz = 154.0096 us, plus 4096 groups x 350 ns / 2 cores.
 * Without class costs every instruction is 0.55: 144.1792 us. */
typedef struct class_case {
    double fp_cyc, int_cyc; /* < 0: unknown */
    double issue_us;
    int assumption;         /* "a class ... without its own cost" */
} class_case;

static const class_case class_cases[] = {
    {1.0, 0.25, 154.0096 + 4096 * 0.35 / 2, 1},
    {-1, -1, 144.1792 + 4096 * 0.35 / 2, 0},
};

static void test_cpu_instruction_classes(void **state)
{
    (void)state;
    const class_case *cases = class_cases;
    for (size_t i = 0; i < 2; i++) {
        fixture f;
        cpu_fixture(&f, 4096, 256);
        f.p.cpu_cycles_per_fp_instruction = cases[i].fp_cyc;
        f.p.cpu_cycles_per_int_instruction = cases[i].int_cyc;
        kernel_counts *c = &f.c;
        c->instructions = 8 * 1048576.0;
        c->flops_fp32 = c->instructions / 2;
        c->int_ops = c->instructions / 4;
        fx_run(&f);
        assert_close(term(&f, "issue"), cases[i].issue_us);
        assert_int_equal(has_assumption(&f, "without its own cost"),
                         cases[i].assumption);
        fx_free(&f);
    }
}

/* llvmpipe's subgroups: a workgroup of 256 runs 32 8-lane vectors, of 100
 * runs 13 (the last one partly masked).  4096 groups of 256 at 18 cycles
 * per subgroup, 2 GHz, 2 cores: 4096 x 32 x 9 ns / 2 = 589.824 us more
 * issue than without the cost; 4096 groups of 100: 4096 x 13 x 9 / 2 =
 * 239.616 us. */
static void test_cpu_subgroup_cost(void **state)
{
    (void)state;
    static const struct {
        uint32_t wg;
        double extra_us;
    } cases[] = {{256, 589.824}, {100, 239.616}};
    for (size_t i = 0; i < 2; i++) {
        double issue[2];
        for (int with = 0; with < 2; with++) {
            fixture f;
            cpu_fixture(&f, 4096, cases[i].wg);
            if (with)
                f.p.cpu_cycles_per_subgroup = 18;
            f.c.instructions = 8.0 * 4096 * cases[i].wg;
            fx_run(&f);
            issue[with] = term(&f, "issue");
            fx_free(&f);
        }
        assert_close(issue[1] - issue[0], cases[i].extra_us);
    }
}

typedef struct cpu_case {
    int line;
    uint64_t groups;
    uint32_t wg;
    double instr_per_inv, storage_per_inv, shared_per_inv;
    double barriers_per_group, fp16_flops_per_inv;
    double want_issue, want_barrier; /* µs */
    const char *bound;
} cpu_case;

static const cpu_case cpu_cases[] = {
    /* copy: 4096 x 256 invocations, 8 instructions, 2 buffer lanes:
     * (1048576 x 8 / 8 x 0.55 + 2097152 x 1.5) / 4000 + 4096 x 0.35 / 2 */
    {__LINE__, 4096, 256, 8, 2, 0, 0, 0,
     (1048576 * 0.55 + 2097152 * 1.5) / 4000 + 4096 * 0.35 / 2, 0, "issue"},
    /* odd group count: the busiest core runs 3 of 5 groups (x 6/5) */
    {__LINE__, 5, 256, 8, 2, 0, 0, 0,
     ((1280 * 0.55 + 2560 * 1.5) / 4000 + 5 * 0.35 / 2) * 6 / 5, 0, "launch"},
    /* reduce-like: 9 barriers per group add to the issue time */
    {__LINE__, 4096, 256, 16, 1, 4, 9, 0,
     (1048576 * 2 * 0.55 + 1048576 * 1.5 + 4194304 * 2.3) / 4000 +
         4096 * 0.35 / 2,
     4096 * 9 * 256 * 2.0e-3 / 2, "barrier"},
    /* FP16: conversions around each operation, two instructions per FLOP */
    {__LINE__, 1024, 64, 100, 1, 0, 0, 400,
     (65536 * 100 / 8.0 * 0.55 + 65536 * 400 * 2 / 8.0 * 0.55 +
      65536 * 1.5) / 4000 +
         1024 * 0.35 / 2,
     0, "issue"},
};

static void test_cpu_terms(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cpu_cases / sizeof cpu_cases[0]; i++) {
        const cpu_case *tc = &cpu_cases[i];
        fixture f;
        cpu_fixture(&f, tc->groups, tc->wg);
        double n = (double)tc->groups * tc->wg;
        f.c.instructions = n * tc->instr_per_inv;
        if (tc->storage_per_inv > 0)
            fx_access(&f, 0, 0, 4, 4, n * tc->storage_per_inv, 4 * n);
        if (tc->shared_per_inv > 0) {
            access_summary *a = &f.acc[f.c.naccesses++];
            memset(a, 0, sizeof *a);
            a->space = SPACE_SHARED;
            a->bytes = 4;
            a->count = n * tc->shared_per_inv;
            a->stride_known = 1;
            a->lane_stride_bytes = 128; /* a GPU would conflict; a CPU not */
        }
        f.c.barriers = tc->barriers_per_group * (double)tc->groups;
        f.c.flops_fp16 = n * tc->fp16_flops_per_inv;
        f.c.fp_chains = 8;
        fx_run(&f);
        double issue = term(&f, "issue");
        if (fabs(issue - tc->want_issue) > 1e-9 * tc->want_issue)
            fail_msg("row at line %d: issue %.9g, want %.9g", tc->line, issue,
                     tc->want_issue);
        if (tc->want_barrier > 0) {
            double b = term(&f, "barrier");
            if (fabs(b - tc->want_barrier) > 1e-9 * tc->want_barrier)
                fail_msg("row at line %d: barrier %.9g, want %.9g", tc->line,
                         b, tc->want_barrier);
            assert_close(f.kr.prediction.time_us, 30 + issue + b);
        }
        if (strcmp(f.kr.prediction.bound, tc->bound) != 0)
            fail_msg("row at line %d: bound %s, want %s", tc->line,
                     f.kr.prediction.bound, tc->bound);
        /* no GPU-only terms or findings on a CPU device */
        assert_true(term(&f, "l2") < 0 && term(&f, "shared") < 0);
        assert_null(find(&f, "bank-conflict"));
        assert_null(find(&f, "low-occupancy"));
        fx_free(&f);
    }
}

/* One dependent FMA chain per invocation: one 12-cycle step per FMA, per
 * 8-lane vector, one vector after the other on each core. */
static void test_cpu_chain_latency(void **state)
{
    (void)state;
    fixture f;
    cpu_fixture(&f, 1, 64); /* one workgroup: one core */
    f.c.flops_fp32 = 64 * 2 * 4096.0;
    f.c.fp_chains = 1;
    f.c.instructions = 64 * 10 * 4096.0;
    fx_run(&f);
    /* 8 vectors x 4096 steps x 12 cycles / 2 GHz, busiest core x 2 / 2 */
    assert_close(term(&f, "latency"), 8 * 4096 * 12 / 2000.0);
    assert_string_equal(f.kr.prediction.bound, "latency");
    fx_free(&f);
    cpu_fixture(&f, 1, 64);
    f.c.flops_fp32 = 64 * 2 * 4096.0;
    f.c.fp_chains = 8; /* eight chains: an eighth of the steps */
    f.c.instructions = 64 * 10 * 4096.0;
    fx_run(&f);
    assert_close(term(&f, "latency"), 8 * 512 * 12 / 2000.0);
    fx_free(&f);
}

/* Degenerate and extreme inputs: a finite prediction, never a crash. */
static void test_degenerate_inputs(void **state)
{
    (void)state;
    /* nothing at all: zero counts, no reflection, no plan kernel, no report */
    kernel_counts c;
    memset(&c, 0, sizeof c);
    device_profile p;
    gpu_profile(&p);
    prediction pred;
    memset(&pred, 0, sizeof pred);
    model_predict(&c, NULL, NULL, &p, &pred, NULL);
    assert_true(pred.valid);
    assert_true(isfinite(pred.time_us) && pred.time_us >= 5);
    assert_string_equal(pred.bound, "launch");
    kernel_report kr;
    memset(&kr, 0, sizeof kr);
    kr.prediction = pred;
    kernel_report_free(&kr);

    /* huge counts, a wide stride, a zero-byte access, a CPU profile with
     * nothing known */
    fixture f;
    stream(&f, 4000000000u, 1024, 1 << 30);
    f.acc[1].bytes = 0;
    f.c.flops_fp64 = 1e30;
    f.c.instructions = 1e30;
    f.c.barriers = 1e20;
    f.c.fp_chains = 0;
    for (int cpu = 0; cpu < 2; cpu++) {
        profile_init(&f.p);
        f.p.kind = cpu ? DEVICE_KIND_CPU_VULKAN : DEVICE_KIND_GPU;
        memset(&f.kr, 0, sizeof f.kr);
        fx_run(&f);
        assert_true(isfinite(f.kr.prediction.time_us));
        assert_true(f.kr.prediction.time_us > 0);
        assert_non_null(f.kr.prediction.bound);
        fx_free(&f);
    }

    /* a workgroup larger than a unit holds: modelled as one resident */
    fixture g;
    stream(&g, 100, 1024, 4);
    g.p.max_threads_per_unit = 512;
    g.refl.shared_bytes = 1u << 20; /* more than shared_per_unit too */
    fx_run(&g);
    assert_true(isfinite(g.kr.prediction.time_us));
    fx_free(&g);
}

/* The lavapipe built-in: a CPU device has no banks and no Little's law
 * limit, and its prediction is finite for a plain stream. */

/* Issue 17: a local size whose product wraps 64 bits (2^31 x 2^31 x 4 =
 * 2^64) was 0 and a divisor: SIGFPE.  Sizes saturate and the prediction
 * says so. */
static void test_huge_local_size_no_sigfpe(void **state)
{
    (void)state;
    static const uint32_t shapes[][3] = {
        {2147483648u, 2147483648u, 4}, {64, 2147483648u, 2147483648u},
        {4294967295u, 4294967295u, 4294967295u}};
    for (size_t i = 0; i < 3; i++) {
        fixture f;
        fx_init(&f, 4, 1);
        memcpy(f.refl.local_size, shapes[i], sizeof shapes[i]);
        f.c.regs_per_invocation = 32; /* registers per group multiply too */
        f.k.workgroups[0] = 4294967295u;
        f.k.workgroups[1] = 4294967295u;
        f.k.workgroups[2] = 4294967295u;
        f.c.workgroups = 0; /* the product of the plan's counts is used */
        fx_access(&f, 0, 0, 4, 4, 1e6, 4e6);
        fx_run(&f);
        assert_true(isfinite(f.kr.prediction.time_us));
        assert_true(f.kr.prediction.time_us > 0);
        assert_true(has_assumption(&f, "overflows 64 bits"));
        fx_free(&f);
    }
}

/* Issue 17: 300k stores to one binding took 164 s in a quadratic
 * same-binding search.  Grouping is n log n; the alarm turns a return of
 * the quadratic search into a failure.  The grouping is also checked: every
 * store of one binding shares one footprint, so DRAM bytes are that
 * footprint, not the sum of the stores. */
static void sigalrm_fail(int sig)
{
    (void)sig;
    static const char msg[] = "test_many_stores_one_binding: over 10 s\n";
    if (write(2, msg, sizeof msg - 1) < 0) {
    }
    _exit(1);
}

static void test_many_stores_one_binding(void **state)
{
    (void)state;
    enum { N = 300000 };
    fixture f;
    fx_init(&f, 1024, 256);
    access_summary *acc = calloc(N + 1, sizeof *acc);
    assert_non_null(acc);
    for (size_t i = 0; i < N; i++) {
        acc[i].space = SPACE_STORAGE;
        acc[i].binding = 0;
        acc[i].var = "out";
        acc[i].is_store = 1;
        acc[i].bytes = 4;
        acc[i].count = 262144;
        acc[i].stride_known = 1;
        acc[i].lane_stride_bytes = 4;
        acc[i].footprint_bytes = 1 << 20;
        acc[i].line = 1 + (int)(i % 1000);
    }
    /* one load from another binding in the middle of the list */
    acc[N].space = SPACE_STORAGE;
    acc[N].binding = 1;
    acc[N].bytes = 4;
    acc[N].count = 262144;
    acc[N].stride_known = 1;
    acc[N].lane_stride_bytes = 4;
    acc[N].footprint_bytes = 1 << 20;
    f.c.accesses = acc;
    f.c.naccesses = N + 1;
    f.c.compulsory_write_bytes = 1 << 20;
    f.c.compulsory_read_bytes = 1 << 20;
    signal(SIGALRM, sigalrm_fail);
    alarm(10);
    fx_run(&f);
    alarm(0);
    /* 1 MiB written + 1 MiB read, each once from DRAM (both fit in L2) */
    assert_close(bw_part(&f), 2.0 * (1 << 20) / 1e6);
    fx_free(&f);
    free(acc);
}

static void test_cpu_profile(void **state)
{
    (void)state;
    fixture f;
    stream(&f, 4096, 64, 4);
    assert_int_equal(profile_builtin("lavapipe", &f.p), 0);
    f.p.clock_ghz = 2.0; /* independent of the test machine */
    f.p.units = 2;
    f.p.dram_gbs = 10;
    fx_run(&f);
    const prediction *p = &f.kr.prediction;
    assert_true(p->time_us > 0 && isfinite(p->time_us));
    assert_true(term(&f, "dram") >= 3 * 4 * 4096.0 * 64 / 1e4 - 1e-9);
    assert_null(find(&f, "low-occupancy"));
    assert_null(find(&f, "bank-conflict"));
    fx_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_memory_bound),
        cmocka_unit_test(test_memory_bound_half),
        cmocka_unit_test(test_compute_bound),
        cmocka_unit_test(test_double_flops),
        cmocka_unit_test(test_one_workgroup_latency),
        cmocka_unit_test(test_launch_memory),
        cmocka_unit_test(test_subgroup_ops_on_path),
        cmocka_unit_test(test_barrier_shared_round_trip),
        cmocka_unit_test(test_launch_bound),
        cmocka_unit_test(test_uncoalesced),
        cmocka_unit_test(test_uncoalesced_message),
        cmocka_unit_test(test_strided_stores),
        cmocka_unit_test(test_broadcast_reads),
        cmocka_unit_test(test_reuse_l2),
        cmocka_unit_test(test_bank_conflicts),
        cmocka_unit_test(test_low_occupancy_shared),
        cmocka_unit_test(test_registers_occupancy),
        cmocka_unit_test(test_registers_change_time),
        cmocka_unit_test(test_tail_effect),
        cmocka_unit_test(test_atomics_same_address),
        cmocka_unit_test(test_unknown_fields_are_assumptions),
        cmocka_unit_test(test_min_efficiency),
        cmocka_unit_test(test_far_below_hint_per_term),
        cmocka_unit_test(test_evaluator_assumptions_and_confidence),
        cmocka_unit_test(test_no_counts),
        cmocka_unit_test(test_degenerate_inputs),
        cmocka_unit_test(test_cpu_terms),
        cmocka_unit_test(test_cpu_chain_latency),
        cmocka_unit_test(test_cpu_profile),
        cmocka_unit_test(test_huge_local_size_no_sigfpe),
        cmocka_unit_test(test_many_stores_one_binding),
        cmocka_unit_test(test_dram_directions),
        cmocka_unit_test(test_group_starts),
        cmocka_unit_test(test_inflight_hides_latency),
        cmocka_unit_test(test_cpu_instruction_classes),
        cmocka_unit_test(test_cpu_subgroup_cost),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
