/* calibrate.c - measure a Vulkan device's model constants (calibrate.h).
 *
 * One loop over the microbenchmark table (calibrate_table.c): every row
 * is a GLSL micro-kernel compiled in-process that isolates one profile
 * field.  A measurement records R back-to-back dispatches (compute
 * barriers between them) in one command buffer bracketed by timestamps,
 * grows R until the bracket lasts the target time (20 ms at the default
 * budget), then keeps the best of five runs: a ceiling is the fastest the
 * device was seen to go, and interference on a shared machine only ever
 * slows a run down.  On a CPU device the time is the driver threads' CPU
 * time, R grows until that lasts 10 ms, and the table runs three times,
 * each field the median of its passes (cal_run_table).  Rows whose
 * constant is per counted instruction use
 * the evaluator's own counts of the micro-kernel (verifier_analyze), so
 * the constant means exactly what the model multiplies it by.  Two
 * measurements are not kernels of the table: the launch cost (one empty
 * dispatch between two timestamps, what the runner reports for a kernel
 * that does nothing) and the timestamp resolution.
 *
 * A row the device cannot run (no FP16, no subgroup arithmetic, a driver
 * error) is logged and its field keeps the built-in profile's value (or
 * stays unknown); calibration goes on.  A hang or a lost device ends it.
 */
#include "calibrate.h"
#include "alloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "calibrate_cpu.h"
#include "calibrate_table.h"
#include "calibrate_tlb.h"
#include "cpu_calibrate.h"
#include "report.h"
#include "shader.h"
#include "verifier.h"
#include "vk_internal.h"

#define MAX_REPEAT 4096u

typedef struct cal {
    vk_ctx *c;
    double target_s;
    double budget_s;
    FILE *log;
    int is_cpu;
    cal_out *out;
    vkx_buffer buf[CAL_BUF_COUNT];
    int have[CAL_BUF_COUNT];
    uint64_t dram_bytes;     /* CAL_BUF_SRC / DST */
    double last_cpu_s;       /* process CPU seconds per dispatch of the
                                last measure() (its best run) */
    uint64_t chase_dram_bytes;
} cal;

static void logf_(cal *cl, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void logf_(cal *cl, const char *fmt, ...)
{
    if (!cl->log)
        return;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(cl->log, fmt, ap);
    va_end(ap);
    fflush(cl->log);
}

/* Seconds per dispatch, grown until R dispatches last target_s; best of
 * three runs at the final R. */
static double process_cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Fastest of `runs` submissions: GPU seconds, and the process CPU seconds
 * of the fastest by CPU time (on a CPU device the driver's worker threads
 * are this process's: their CPU time is the work, whoever else ran). */
static int timer_best(cal *cl, const char *name, vkx_timer *t, int runs,
                      double *best_s, double *best_cpu_s, cw_error *err)
{
    double best = INFINITY, best_cpu = INFINITY;
    for (int run = 0; run < runs; run++) {
        double us;
        int host;
        double c0 = process_cpu_s();
        int rc = vkx_timer_run(cl->c, t, 10.0, name, 0, &us, &host, err);
        double cpu = process_cpu_s() - c0;
        if (rc)
            return rc;
        if (us < best)
            best = us;
        if (cpu < best_cpu)
            best_cpu = cpu;
    }
    *best_s = best * 1e-6;
    *best_cpu_s = best_cpu;
    return 0;
}

/* Seconds per dispatch: R grows (one warm-up and one run per size) until
 * R dispatches last target_s; then the best of five runs at that R.  On a
 * shared machine interference only ever slows a run down, so the fastest
 * run is the device's. */
static int measure(cal *cl, const char *name, const vkx_pipeline *p,
                   const void *push, uint32_t groups, double *sec,
                   uint32_t *reps, cw_error *err)
{
    uint32_t R = 1;
    uint32_t g[3] = {groups, 1, 1};
    for (;;) {
        vkx_timer t;
        int rc = vkx_timer_record(cl->c, p, push, g, R, &t, err);
        if (rc)
            return rc;
        double s, cs;
        rc = timer_best(cl, name, &t, 1, &s, &cs, err); /* warm-up */
        if (!rc)
            rc = timer_best(cl, name, &t, 1, &s, &cs, err);
        /* on a CPU device the batch is sized by the CPU time its threads
         * spend (what is kept): a wall-clock window that load stretches
         * would leave R at 1 and the fixed cost of a submission inside */
        double len = cl->is_cpu ? cs : s;
        if (!rc && (len >= cl->target_s || R >= MAX_REPEAT)) {
            double more, mcs;
            /* more runs on a CPU device: there every other process on
             * the machine competes with the kernel for the cores */
            rc = timer_best(cl, name, &t,
                            cl->is_cpu && cl->budget_s >= 1 ? 20 : 4, &more,
                            &mcs, err);
            if (!rc) {
                *sec = (more < s ? more : s) / R;
                cl->last_cpu_s = (mcs < cs ? mcs : cs) / R;
                *reps = R;
            }
            vkx_timer_destroy(cl->c, &t);
            return rc;
        }
        vkx_timer_destroy(cl->c, &t);
        if (rc)
            return rc;
        double want = len > 0 ? (double)R * cl->target_s * 1.25 / len : 1e9;
        uint32_t next = R * 2;
        if (want > next)
            next = want > MAX_REPEAT ? MAX_REPEAT : (uint32_t)want;
        R = next > MAX_REPEAT ? MAX_REPEAT : next;
    }
}

static void fill_random(float *v, size_t n)
{
    uint64_t s = 0x9e3779b97f4a7c15ull;
    for (size_t i = 0; i < n; i++) {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        v[i] = (float)(s >> 40) / (float)(1 << 23) - 1.0f;
    }
}


/* ---- buffers by role ---- */

static uint64_t xorshift(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static void shuffle(uint32_t *v, uint64_t n, uint64_t *s)
{
    for (uint64_t i = n; i-- > 1;) {
        uint64_t j = xorshift(s) % (i + 1);
        uint32_t t = v[i];
        v[i] = v[j];
        v[j] = t;
    }
}

/* One cycle through all `bytes / stride` nodes `stride` bytes apart, node 0
 * first: word[node * stride/4] = next node's word index.  The nodes are
 * visited a `page` of memory at a time (pages in random order, the nodes of
 * a page in random order), so that a chase over far more than the caches
 * misses them on every load but misses the TLB only once per page: the
 * latency streaming kernels see, not a TLB walk's.  page = 0: one random
 * order over everything. */
static uint32_t *chase_words(uint64_t bytes, uint32_t stride, uint64_t page)
{
    uint64_t words = bytes / 4, nodes = bytes / stride;
    uint64_t per = page && page >= stride ? page / stride : nodes;
    if (per > nodes)
        per = nodes;
    uint64_t npages = nodes / per;
    uint32_t sw = stride / 4;
    uint32_t *w = xcalloc(words, 4), *order = xcalloc(nodes, 4),
             *pages = xcalloc(npages, 4);
    uint64_t s = 0x2545f4914f6cdd1dull;
    for (uint64_t p = 0; p < npages; p++)
        pages[p] = (uint32_t)p;
    shuffle(pages + 1, npages - 1, &s); /* page 0 (node 0) first */
    for (uint64_t p = 0; p < npages; p++) {
        uint32_t *o = order + p * per;
        for (uint64_t i = 0; i < per; i++)
            o[i] = (uint32_t)(pages[p] * per + i);
        shuffle(o + (p == 0), per - (p == 0), &s);
    }
    for (uint64_t i = 0; i < npages * per; i++)
        w[(uint64_t)order[i] * sw] = order[(i + 1) % (npages * per)] * sw;
    free(order);
    free(pages);
    return w;
}

static void role_size(cal *cl, cal_buf r, uint64_t *bytes, uint32_t *stride)
{
    *stride = 0;
    switch (r) {
    case CAL_BUF_SRC:
    case CAL_BUF_DST: *bytes = cl->dram_bytes; break;
    case CAL_BUF_SMALL: *bytes = 64u << 10; break;
    case CAL_BUF_TABLE: *bytes = 4u << 20; break;
    case CAL_BUF_COUNTER:
    case CAL_BUF_POS: *bytes = 256; break;
    case CAL_BUF_CHASE_DRAM:
        *bytes = cl->chase_dram_bytes;
        *stride = cl->is_cpu ? 256 : 512;
        break;
    case CAL_BUF_CHASE_L2: *bytes = 8u << 20; *stride = cl->is_cpu ? 64 : 128; break;
    case CAL_BUF_CHASE_L1: *bytes = 8u << 10; *stride = cl->is_cpu ? 64 : 128; break;
    case CAL_BUF_CHASE_SHARED: *bytes = 4096; *stride = 4; break;
    default: *bytes = 256; break;
    }
}

/* The buffer of a role, created and filled on first use. */
static int get_buffer(cal *cl, cal_buf r, vkx_buffer **out, cw_error *err)
{
    if (cl->have[r]) {
        *out = &cl->buf[r];
        return 0;
    }
    uint64_t bytes;
    uint32_t stride;
    role_size(cl, r, &bytes, &stride);
    int rc = vkx_buffer_create(cl->c, bytes, 0, "calibration buffer",
                               &cl->buf[r], err);
    if (rc)
        return rc;
    void *host;
    if (stride) {
        /* the DRAM chase a 2 MiB page at a time; the others fit a page */
        host = chase_words(bytes, stride, r == CAL_BUF_CHASE_DRAM ? 2u << 20 : 0);
    } else {
        host = xcalloc(1, bytes);
        if (r == CAL_BUF_SRC || r == CAL_BUF_DST || r == CAL_BUF_SMALL)
            fill_random(host, bytes / 4);
    }
    rc = vkx_buffer_upload(cl->c, &cl->buf[r], host, bytes, 30, err);
    free(host);
    if (rc) {
        vkx_buffer_destroy(cl->c, &cl->buf[r]);
        return rc;
    }
    cl->have[r] = 1;
    *out = &cl->buf[r];
    return 0;
}

static void free_buffers(cal *cl)
{
    for (int r = 0; r < CAL_BUF_COUNT; r++)
        if (cl->have[r])
            vkx_buffer_destroy(cl->c, &cl->buf[r]);
}

/* DRAM streams: several times the last-level cache (64 MiB on a CPU
 * device, up to 512 MiB on a GPU); the latency chase over >= 1 GiB on a
 * GPU, so its lines (512 B apart: 2 Mi of them) cannot all sit in L2. */
static void size_dram(cal *cl)
{
    const vk_device_info *d = &cl->c->info;
    uint64_t bytes, chase;
    if (cl->is_cpu) {
        bytes = cl->budget_s < 1 ? (16ull << 20) : (64ull << 20);
        chase = bytes;
    } else {
        bytes = 512ull << 20;
        chase = 1ull << 30;
        if (d->device_local_bytes && bytes > d->device_local_bytes / 8)
            bytes = d->device_local_bytes / 8;
        if (d->device_local_bytes && chase > d->device_local_bytes / 4)
            chase = d->device_local_bytes / 4;
    }
    if (bytes > d->limits.max_storage_range)
        bytes = d->limits.max_storage_range;
    if (chase > d->limits.max_storage_range)
        chase = d->limits.max_storage_range;
    cl->dram_bytes = bytes & ~(uint64_t)0xffff;
    cl->chase_dram_bytes = chase & ~(uint64_t)0xffff;
}

/* ---- the evaluator's counts of a micro-kernel ---- */

typedef struct cal_counts {
    double instr, storage_lanes, shared_lanes, barriers, flops16, flops32;
    double flops64, int_ops, sfu_ops;
    double active;
    int chains;
} cal_counts;

static const char *const push_names[6] = {"iters", "n", "stride", "mask",
                                          "m", "c"};

static void push_values(const cal_push *p, plan_value v[6])
{
    double x[6] = {p->iters, p->n, p->stride, p->mask, p->m, p->c};
    for (int i = 0; i < 6; i++)
        v[i] = (plan_value){.key = (char *)push_names[i], .value = x[i],
                            .is_integer = i < 4, .ivalue = (int64_t)x[i]};
}

/* Counts of one workgroup at `iters` trips. */
static int eval_one(cal *cl, const cal_bench *b, const shader_module *m,
                    const cal_push *push, uint32_t iters, cal_counts *out)
{
    cal_push p = *push;
    p.iters = iters;
    plan_value v[6];
    push_values(&p, v);
    plan_buffer bufs[2] = {
        {.binding = 0, .has_elements = 1, .elements = 1u << 16},
        {.binding = 1, .has_elements = 1, .elements = 1u << 16}};
    size_t nb = b->bufs[1] ? 2 : b->bufs[0] ? 1 : 0;
    plan_kernel k = {.name = (char *)b->name, .shader = (char *)"calibrate",
                     .shader_path = (char *)"calibrate", .entry = (char *)"main",
                     .workgroups = {1, 1, 1}, .push = v, .npush = 6,
                     .buffers = bufs, .nbuffers = nb, .min_efficiency = -1};
    report r;
    report_init(&r);
    kernel_report *kr = report_add_kernel(&r, b->name);
    verifier_result vr;
    memset(&vr, 0, sizeof vr);
    int rc = verifier_analyze(&k, m, &cl->out->p, kr, &vr) == 0 && vr.ok ? 0 : 1;
    if (!rc) {
        const kernel_counts *c = &vr.counts;
        out->instr = c->instructions;
        out->storage_lanes = (c->storage_load_bytes + c->storage_store_bytes) / 4;
        out->shared_lanes = (c->shared_load_bytes + c->shared_store_bytes) / 4;
        out->barriers = c->barriers;
        out->flops16 = c->flops_fp16;
        out->flops32 = c->flops_fp32;
        out->flops64 = c->flops_fp64;
        out->int_ops = c->int_ops;
        out->sfu_ops = c->sfu_ops;
        out->active = c->active_invocations ? (double)c->active_invocations
                                            : (double)c->invocations;
        out->chains = c->fp_chains > 0 ? c->fp_chains : 1;
    }
    verifier_result_free(&vr);
    report_free(&r);
    return rc;
}

/* The dispatch's counts: one workgroup evaluated at 4 and 8 trips, the
 * difference per trip extrapolated to the row's trips, times the groups
 * (the micro-kernels do the same in every workgroup). */
static int eval_counts(cal *cl, const cal_bench *b, const shader_module *m,
                       const cal_push *push, uint32_t groups, cal_counts *out)
{
    cal_counts a, z;
    if (eval_one(cl, b, m, push, 4, &a) || eval_one(cl, b, m, push, 8, &z))
        return 1;
    double f = (push->iters - 4.0) / 4.0, g = groups;
    out->instr = (a.instr + f * (z.instr - a.instr)) * g;
    out->storage_lanes = (a.storage_lanes + f * (z.storage_lanes - a.storage_lanes)) * g;
    out->shared_lanes = (a.shared_lanes + f * (z.shared_lanes - a.shared_lanes)) * g;
    out->barriers = (a.barriers + f * (z.barriers - a.barriers)) * g;
    out->flops16 = (a.flops16 + f * (z.flops16 - a.flops16)) * g;
    out->flops32 = (a.flops32 + f * (z.flops32 - a.flops32)) * g;
    out->flops64 = (a.flops64 + f * (z.flops64 - a.flops64)) * g;
    out->int_ops = (a.int_ops + f * (z.int_ops - a.int_ops)) * g;
    out->sfu_ops = (a.sfu_ops + f * (z.sfu_ops - a.sfu_ops)) * g;
    out->active = a.active * g;
    out->chains = z.chains;
    return 0;
}

/* ---- one row ---- */

typedef struct cal_launch {
    cal_push push;
    uint32_t groups;
    double work;
} cal_launch;

static uint32_t subgroups(cal *cl, uint32_t local)
{
    uint32_t sg = cl->out->p.limits.subgroup_size;
    if (!sg)
        sg = 1;
    return (local + sg - 1) / sg;
}

/* vec4s per invocation: more on a CPU device, where the cost of an
 * invocation would otherwise hide the memory's */
static void stream_launch(cal *cl, uint32_t min_per, cal_launch *l)
{
    uint64_t nvec = cl->dram_bytes / 16;
    uint64_t max_inv = 65535ull * 256;
    uint64_t per = (nvec + max_inv - 1) / max_inv;
    if (per < min_per)
        per = min_per;
    uint64_t inv = (nvec + per - 1) / per;
    inv = (inv + 255) / 256 * 256;
    l->push.n = (uint32_t)nvec;
    l->push.iters = (uint32_t)per;
    l->push.stride = (uint32_t)inv;
    l->groups = (uint32_t)(inv / 256);
}

static void row_launch(cal *cl, const cal_bench *b, cal_launch *l)
{
    int d = cl->is_cpu;
    memset(l, 0, sizeof *l);
    l->push = (cal_push){.iters = b->iters[d], .n = 0xffffffffu,
                         .stride = b->stride, .mask = b->mask[d], .m = b->m,
                         .c = b->c};
    l->groups = b->groups[d];
    if (l->push.mask == CAL_MASK_DRAM)
        l->push.mask = (uint32_t)(cl->dram_bytes / 4 - 1);
    if (b->shape == CAL_SHAPE_STREAM)
        stream_launch(cl, b->iters[d], l);
    else if (b->shape == CAL_SHAPE_UNITS)
        l->groups = cl->out->p.units ? cl->out->p.units : 1;
    double it = l->push.iters, g = l->groups;
    switch (b->scope) {
    case CAL_PER_INVOCATION: l->work = g * b->local * it; break;
    case CAL_PER_GROUP: l->work = g * it; break;
    case CAL_PER_DISPATCH: l->work = it; break;
    case CAL_PER_SUBGROUP: l->work = g * subgroups(cl, b->local) * it; break;
    case CAL_PER_BYTE: l->work = (double)cl->dram_bytes; break;
    case CAL_PER_UNIT_LANE: l->work = (double)b->local * it; break;
    case CAL_PER_UNIT_SUBGROUP: l->work = subgroups(cl, b->local) * it; break;
    }
    l->work *= b->per_iter;
}

static double *slot(cal *cl, size_t off)
{
    return (double *)((char *)cl->out + off);
}

/* The instruction class a CAL_CPU_CLASS row measures, by its field. */
static int row_class(const cal_bench *b)
{
    if (b->field == CAL_FIELD(cpu_cycles_per_fp_instruction))
        return CAL_CLS_FP;
    if (b->field == CAL_FIELD(cpu_cycles_per_int_instruction))
        return CAL_CLS_INT;
    if (b->field == CAL_FIELD(cpu_cycles_per_sfu_instruction))
        return CAL_CLS_SFU;
    return CAL_CLS_REST;
}

/* The workgroup and subgroup rows: core_ns (all units, beyond an empty
 * dispatch and the counted instructions) per workgroup.  The narrow row
 * (CAL_CPU_GROUP) is a workgroup's start and its few subgroups; the wide
 * row's extra time over it, per extra subgroup, is a subgroup's cost, and
 * the workgroup start is then the narrow row's less its subgroups. */
static int convert_groups(cal *cl, const cal_bench *b, const cal_launch *l,
                          double core_ns, double *v)
{
    cal_scratch *sc = &cl->out->s;
    device_profile *p = &cl->out->p;
    double per_group = core_ns / l->groups;
    double sg = subgroups(cl, b->local);
    if (b->kind == CAL_CPU_GROUP) {
        sc->group_narrow_ns = per_group;
        sc->group_narrow_sg = sg;
        *v = per_group;
    } else {
        double start;
        if (!(sc->group_narrow_ns > 0) ||
            cal_cpu_group_split(sc->group_narrow_ns, sc->group_narrow_sg,
                                per_group, sg, p->clock_ghz, &start, v)) {
            logf_(cl, "  %-20s not derived: %.4g ns per workgroup of %.0f "
                  "subgroups against %.4g of %.0f\n", b->name, per_group, sg,
                  sc->group_narrow_ns, sc->group_narrow_sg);
            return 1;
        }
        p->cpu_ns_per_group = start;
        logf_(cl, "  %-20s %10.4g %-15s (the workgroup row less its %.0f "
              "subgroup%s)\n", "cpu workgroup start", start, "ns",
              sc->group_narrow_sg, sc->group_narrow_sg == 1 ? "" : "s");
    }
    if (!isfinite(*v) || *v <= 0) {
        logf_(cl, "  %-20s not derived: %g (the other costs exceed the "
              "time)\n", b->name, *v);
        return 1;
    }
    return 0;
}

/* Seconds per dispatch -> the row's field; 0, or 1 when it cannot be
 * derived here (the log says why). */
static int convert(cal *cl, const cal_bench *b, const cal_launch *l,
                   const cal_counts *n, double t, double *v)
{
    const device_profile *p = &cl->out->p;
    double sg = p->limits.subgroup_size ? p->limits.subgroup_size : 1;
    double ghz = p->clock_ghz, units = p->units ? p->units : 1;
    double cyc = t * ghz * 1e9 * units; /* core cycles, all units */
    double cpi = p->cpu_cycles_per_instruction;
    double cls[CAL_CLS_N];
    cal_cpu_classes(n->instr, n->flops16 + n->flops32 + n->flops64,
                    n->int_ops, n->sfu_ops, cls);
    double instr_cyc = cal_cpu_instr_cycles(p, cls, sg);
    int need_clock = b->kind == CAL_CYCLES || b->kind == CAL_TRIP_CYCLES ||
                     (b->kind >= CAL_CPU_CLASS && b->kind <= CAL_CPU_SUBGROUP);
    if (need_clock && !(ghz > 0)) {
        logf_(cl, "  %-20s not derived: clock unknown\n", b->name);
        return 1;
    }
    if (b->kind > CAL_CPU_CLASS && b->kind <= CAL_CPU_FP16 && !(cpi > 0)) {
        logf_(cl, "  %-20s not derived: cycles per instruction unknown\n",
              b->name);
        return 1;
    }
    switch (b->kind) {
    case CAL_RATE: *v = l->work / t * 1e-9; break;
    case CAL_NS: *v = t / l->work * 1e9; break;
    case CAL_CYCLES: *v = t / l->work * ghz * 1e9; break;
    case CAL_ISSUE: *v = n->instr / t * 1e-9; break;
    case CAL_CPU_CLASS: {
        /* provisional: as if every counted instruction were of this
         * class; cal_solve_classes replaces it */
        cal_scratch *sc = &cl->out->s;
        int k = row_class(b);
        sc->cls_cyc[k] = cyc;
        memcpy(sc->cls_cnt[k], cls, sizeof cls);
        sc->cls_have |= 1u << k;
        *v = cyc / (n->instr / sg);
        break;
    }
    case CAL_CPU_STORAGE: *v = (cyc - instr_cyc) / n->storage_lanes; break;
    case CAL_CPU_SHARED:
        *v = (cyc - instr_cyc -
              n->storage_lanes * fmax(p->cpu_cycles_per_storage_lane, 0)) /
             n->shared_lanes;
        break;
    case CAL_CPU_BARRIER: {
        double lanes_cyc = n->storage_lanes * fmax(p->cpu_cycles_per_storage_lane, 0) +
                           n->shared_lanes * fmax(p->cpu_cycles_per_shared_lane, 0);
        *v = (t * 1e9 * units - (instr_cyc + lanes_cyc) / ghz) /
             (n->barriers * b->local);
        break;
    }
    case CAL_CPU_CHAIN: {
        double fl = n->flops16 + n->flops32;
        double steps = fl / n->active / 2 / n->chains;
        *v = cyc / (ceil(n->active / sg) * steps);
        break;
    }
    case CAL_CPU_FP16:
        /* conversions at the cost of the instructions of no class */
        *v = (cyc - instr_cyc) / (n->flops16 / sg * cpi);
        break;
    case CAL_CPU_GROUP:
    case CAL_CPU_SUBGROUP:
        return convert_groups(cl, b, l, (t - cl->out->s.empty_dispatch_s) *
                                            1e9 * units - instr_cyc / ghz, v);
    case CAL_DRAM_PAGE: {
        double sector = p->sector_bytes ? p->sector_bytes : 32;
        *v = (t - l->work * sector / (p->dram_gbs * 1e9)) / l->work * 1e9;
        break;
    }
    case CAL_TRIP_CYCLES:
        if (!(p->fp_latency_cycles > 0)) {
            logf_(cl, "  %-20s not derived: FP latency unknown\n", b->name);
            return 1;
        }
        *v = t / l->work * ghz * 1e9 - p->fp_latency_cycles;
        break;
    case CAL_TRIP_SLOTS:
        if (!(p->fp32_gflops > 0)) {
            logf_(cl, "  %-20s not derived: FP32 rate unknown\n", b->name);
            return 1;
        }
        *v = t * p->fp32_gflops * 1e9 / 2 / l->work - 1;
        break;
    case CAL_DRAM_BYTES: {
        int wr = b->bufs[0] == CAL_BUF_DST;
        double gbs = wr ? p->dram_gbs : p->dram_read_gbs;
        *v = t * gbs * 1e9 / l->work;
        break;
    }
    case CAL_WALK_BYTES: {
        double sector = p->sector_bytes ? p->sector_bytes : 32;
        double fetch = p->l2_fetch_bytes > 0 ? p->l2_fetch_bytes : sector;
        *v = cal_walk_fetch_bytes(t, p->dram_read_gbs, l->work, fetch);
        break;
    }
    case CAL_FETCH_BYTES: {
        double per = t * p->dram_read_gbs * 1e9 / l->work;
        *v = cal_fetch_bytes(per, p->sector_bytes ? p->sector_bytes : 32,
                             p->line_bytes ? p->line_bytes : 128);
        logf_(cl, "  %-20s %.1f bytes of read time per sector read\n",
              b->name, per);
        break;
    }
    }
    if (!isfinite(*v) || *v <= 0) {
        logf_(cl, "  %-20s not derived: %g (the other costs exceed the "
              "time)\n", b->name, *v);
        return 1;
    }
    return 0;
}

static int counted(cal_kind k)
{
    return k >= CAL_ISSUE && k <= CAL_CPU_SUBGROUP;
}

static int row_supported(cal *cl, const cal_bench *b)
{
    const char *why = NULL;
    if ((b->need & CAL_GPU_ONLY) && cl->is_cpu)
        return 0;
    if ((b->need & CAL_CPU_ONLY) && !cl->is_cpu)
        return 0;
    if ((b->need & CAL_NEED_FP16) && !cl->c->has_float16)
        why = "FP16 arithmetic";
    if ((b->need & CAL_NEED_FP64) && !cl->c->has_float64)
        why = "FP64 arithmetic";
    if (why) {
        logf_(cl, "  %-20s not supported by the device (%s)\n", b->name, why);
        return 0;
    }
    return 1;
}

static int measure_row(cal *cl, const cal_bench *b, cw_error *err)
{
    if (!row_supported(cl, b))
        return 0;
    cal_launch l;
    row_launch(cl, b, &l);
    vkx_buffer *bufs[2];
    uint32_t nb = 0;
    for (; nb < 2 && b->bufs[nb]; nb++) {
        int rc = get_buffer(cl, b->bufs[nb], &bufs[nb], err);
        if (rc)
            return rc;
        if (b->bufs[nb] == CAL_BUF_POS) {
            uint32_t zero[64] = {0};
            rc = vkx_buffer_upload(cl->c, bufs[nb], zero, sizeof zero, 10, err);
            if (rc)
                return rc;
        }
    }
    shader_module m;
    cw_error local;
    cw_error_clear(&local);
    int rc = cal_row_compile(b, &m, &local);
    cal_counts n;
    memset(&n, 0, sizeof n);
    if (!rc && counted(b->kind) && eval_counts(cl, b, &m, &l.push, l.groups, &n)) {
        logf_(cl, "  %-20s not measured: the evaluator could not count it\n",
              b->name);
        shader_free(&m);
        return 0;
    }
    vkx_pipeline p;
    if (!rc) {
        vkx_binding bb[2];
        for (uint32_t i = 0; i < nb; i++)
            bb[i] = (vkx_binding){0, i, 0, bufs[i]};
        rc = vkx_pipeline_create(cl->c, m.words, m.nwords, "main", bb, nb,
                                 sizeof(cal_push), NULL, b->name, &p, &local);
        shader_free(&m);
    }
    if (rc) {
        logf_(cl, "  %-20s not measured: %s\n", b->name, local.text);
        return 0;
    }
    double t;
    uint32_t reps;
    rc = measure(cl, b->name, &p, &l.push, l.groups, &t, &reps, err);
    vkx_pipeline_destroy(cl->c, &p);
    if (rc)
        return rc; /* hang or device lost: the caller stops */
    /* on a CPU device every row from the CPU time the driver's threads
     * spent (over the units it kept busy: the wall time of a machine of
     * its own), so that other processes on the cores do not inflate it */
    double wall = t;
    int by_cpu = cl->is_cpu && cl->last_cpu_s > 0;
    if (by_cpu) {
        double units = cl->out->p.units ? cl->out->p.units : 1;
        /* a dispatch of fewer workgroups than units keeps only that many
         * busy (a one-invocation chase: one) */
        t = cl->last_cpu_s / fmin(units, fmax(l.groups, 1));
    }
    double v = 0;
    if (convert(cl, b, &l, &n, t, &v) == 0) {
        *slot(cl, b->field) = v;
        logf_(cl, "  %-20s %10.4g %-15s (%s; %u x %.3f ms%s)\n", b->name, v,
              b->unit, b->what, reps, wall * 1e3,
              by_cpu ? ", from the process CPU time" : "");
    }
    return 0;
}

/* ---- what is not a table row ---- */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int cal_timestamp_resolution(cal *cl, cw_error *err);

/* The median of single dispatches of one workgroup of `p` (41; on a CPU
 * device the fastest of 401), each between two timestamps: what the
 * runner reports for such a kernel.  On a CPU device the floor needs many
 * more samples: a dispatch there waits for the driver's threads to wake,
 * which other processes on the cores delay (41 samples read 16-40 us where
 * the floor is ~14). */
static int single_dispatch_us(cal *cl, const vkx_pipeline *p,
                              const char *name, double *us, cw_error *err)
{
    vkx_timer t;
    uint32_t one[3] = {1, 1, 1};
    int rc = vkx_timer_record(cl->c, p, NULL, one, 1, &t, err);
    if (rc)
        return rc;
    enum { SINGLE_GPU = 41, SINGLE_CPU = 401 };
    double single[SINGLE_CPU];
    int nsingle = cl->is_cpu ? SINGLE_CPU : SINGLE_GPU;
    for (int i = 0; i < nsingle && !rc; i++) {
        int host;
        rc = vkx_timer_run(cl->c, &t, 10.0, name, 0, &single[i], &host, err);
    }
    vkx_timer_destroy(cl->c, &t);
    if (rc)
        return rc;
    qsort(single, (size_t)nsingle, sizeof single[0], cmp_double);
    /* on a CPU device the fastest: there the median grows with whatever
     * else holds the cores */
    *us = cl->is_cpu ? single[0] : single[nsingle / 2];
    return 0;
}

/* launch_memory_us: the same single dispatch when its 64 invocations each
 * load a word of a small buffer and store it back (v[i] = v[i] * 0.5 + 1,
 * one dependent round trip).  On the H200 the bare timestamp harness reads
 * 3.2 us for an empty dispatch and 4.3 for one that copies 256 words
 * (docs/accuracy.md, timing floor): a dispatch that touches memory costs
 * more than the empty launch plus its round trip, and tiny kernels show
 * it.  Kept only on a GPU: on a CPU device the floor's noise (the
 * fastest of 401 still moves by microseconds with the load) hides a
 * difference of this size; there it is measured and logged, not kept. */
static int cal_launch_memory(cal *cl, cw_error *err)
{
    static const cal_bench touch = {
        .name = "launch memory",
        .glsl = "#version 450\nlayout(local_size_x = 64) in;\n"
                "layout(set = 0, binding = 0) buffer B { float v[]; };\n"
                "void main() { uint i = gl_GlobalInvocationID.x;\n"
                "    v[i] = v[i] * 0.5 + 1.0; }\n"};
    vkx_buffer *buf;
    int rc = get_buffer(cl, CAL_BUF_SMALL, &buf, err);
    if (rc)
        return rc;
    shader_module m;
    rc = cal_row_compile(&touch, &m, err);
    if (rc)
        return rc;
    vkx_binding bb = {0, 0, 0, buf};
    vkx_pipeline p;
    rc = vkx_pipeline_create(cl->c, m.words, m.nwords, "main", &bb, 1, 0,
                             NULL, touch.name, &p, err);
    shader_free(&m);
    if (rc)
        return rc;
    double us = 0;
    rc = single_dispatch_us(cl, &p, touch.name, &us, err);
    vkx_pipeline_destroy(cl->c, &p);
    if (rc)
        return rc;
    if (cl->is_cpu) {
        logf_(cl, "  %-20s %10.4g %-15s (not kept: on a CPU device the "
              "launch floor moves more with the load than this differs)\n",
              touch.name, us, "us");
        return 0;
    }
    cl->out->p.launch_memory_us = us;
    logf_(cl, "  %-20s %10.4g %-15s (one workgroup of 64 loading and "
          "storing a word each, between two timestamps)\n", touch.name,
          us, "us");
    return 0;
}

/* launch: what the runner measures for a dispatch that does nothing (see
 * single_dispatch_us); the batched cost of one more empty dispatch; the
 * launch of a dispatch that touches memory; the timestamp resolution */
static int cal_overheads(cal *cl, cw_error *err)
{
    static const cal_bench empty = {
        .name = "empty", .glsl = "#version 450\nlayout(local_size_x = 64) in;\n"
                                 "void main() {}\n"};
    device_profile *out = &cl->out->p;
    shader_module m;
    int rc = cal_row_compile(&empty, &m, err);
    if (rc)
        return rc;
    vkx_pipeline p;
    rc = vkx_pipeline_create(cl->c, m.words, m.nwords, "main", NULL, 0, 0,
                             NULL, "empty", &p, err);
    shader_free(&m);
    if (rc)
        return rc;
    double launch = 0;
    rc = single_dispatch_us(cl, &p, "empty", &launch, err);
    double s = 0;
    uint32_t reps = 0;
    if (!rc)
        rc = measure(cl, "empty", &p, NULL, 1, &s, &reps, err);
    vkx_pipeline_destroy(cl->c, &p);
    if (rc)
        return rc;
    out->launch_us = launch;
    cl->out->s.empty_dispatch_s = s;
    if (cl->is_cpu) /* in the CPU time the workgroup row is measured in */
        cl->out->s.empty_dispatch_s = cl->last_cpu_s / (out->units ? out->units : 1);
    logf_(cl, "  %-20s %10.4g %-15s (one empty dispatch between two "
          "timestamps; %.3f us each in a batch of %u)\n", "launch",
          out->launch_us, "us", s * 1e6, reps);
    rc = cal_launch_memory(cl, err);
    if (rc)
        return rc;
    return cal_timestamp_resolution(cl, err);
}

/* the timestamp resolution: the smallest non-zero step seen between two
 * back-to-back timestamps */
static int cal_timestamp_resolution(cal *cl, cw_error *err)
{
    device_profile *out = &cl->out->p;
    if (!cl->c->ts_valid_bits) {
        logf_(cl, "  timestamps           not supported on the compute queue\n");
        return 0;
    }
    vkx_timer t;
    uint32_t one[3] = {1, 1, 1};
    int rc = vkx_timer_record(cl->c, NULL, NULL, one, 0, &t, err);
    if (rc)
        return rc;
    double minpos = INFINITY, sum = 0;
    int n = 0;
    for (int i = 0; i < 64 && !rc; i++) {
        double us;
        int host;
        rc = vkx_timer_run(cl->c, &t, 10.0, "timestamps", 0, &us, &host, err);
        if (!rc && !host) {
            if (us > 0 && us < minpos)
                minpos = us;
            sum += us;
            n++;
        }
    }
    vkx_timer_destroy(cl->c, &t);
    if (rc)
        return rc;
    double period = cl->c->ts_period_ns;
    out->timestamp_res_ns = isfinite(minpos) ? minpos * 1e3 : period;
    if (out->timestamp_res_ns < period)
        out->timestamp_res_ns = period;
    logf_(cl, "  %-20s %10.4g %-15s (back-to-back %.3f us, period %g ns)\n",
          "timestamps", out->timestamp_res_ns, "ns", n ? sum / n : 0.0,
          period);
    return 0;
}

/* The L2 atomic unit's three costs from its three rows
 * (cal_atomic_unit_costs). */
static void derive_atomic_unit(cal *cl)
{
    device_profile *p = &cl->out->p;
    const cal_scratch *s = &cl->out->s;
    double req, word, collide;
    int rc = cal_atomic_unit_costs(s->atomic_words1_ns, s->atomic_words8_ns,
                                   s->atomic_collide_instr_ns, &req, &word,
                                   &collide);
    if (rc < 0)
        return; /* the rows did not run (not a GPU, or they failed) */
    if (rc & 1)
        logf_(cl, "  %-20s 8 lines (%.4g ns) not slower than one (%.4g ns): "
              "request cost taken as 0\n", "atomic request",
              s->atomic_words8_ns, s->atomic_words1_ns);
    p->atomic_request_ns = req;
    logf_(cl, "  %-20s %10.4g %-15s (per line an instruction touches at "
          "its unit: (T8 - T1) / 7)\n", "atomic request", req, "ns/line");
    if (word > 0) {
        p->atomic_word_ns = word;
        logf_(cl, "  %-20s %10.4g %-15s (per distinct word with one lane: "
              "(T1 - request) / 32)\n", "atomic word", word, "ns/word");
    }
    if (collide > 0) {
        p->atomic_collide_ns = collide;
        logf_(cl, "  %-20s %10.4g %-15s (per distinct word lanes collide on: "
              "(Tc - request) / 8)\n", "atomic collide", collide, "ns/word");
    }
}

/* Same-address atomics: a subgroup's atomics on one address are combined
 * when all lanes take less than twice the time of one lane per subgroup;
 * the cost per request is then the one-lane time, else the per-lane time. */
static void derive_atomics(cal *cl)
{
    device_profile *p = &cl->out->p;
    const cal_scratch *s = &cl->out->s;
    double sg = p->limits.subgroup_size ? p->limits.subgroup_size : 1;
    if (s->atomic_all_ns > 0) {
        int comb = s->atomic_one_ns > 0 &&
                   s->atomic_all_ns * sg < 2 * s->atomic_one_ns;
        p->atomic_combine = comb;
        p->atomic_same_ns = comb ? s->atomic_one_ns : s->atomic_all_ns;
        logf_(cl, "  %-20s %10.4g %-15s (global, one address; a subgroup's "
              "lanes %s one request: %.3g ns per lane x %g vs %.3g ns per "
              "subgroup)\n", "atomic same-address", p->atomic_same_ns,
              "ns/request", comb ? "are" : "are not", s->atomic_all_ns, sg,
              s->atomic_one_ns);
    }
    if (s->shared_all_ns > 0) {
        int comb = s->shared_one_ns > 0 &&
                   s->shared_all_ns * sg < 2 * s->shared_one_ns;
        p->atomic_shared_combine = comb;
        p->atomic_shared_same_ns = s->shared_all_ns;
        logf_(cl, "  %-20s %10.4g %-15s (workgroup memory, one word; "
              "combined per subgroup: %s)\n", "shared same-address",
              p->atomic_shared_same_ns, "ns/lane", comb ? "yes" : "no");
    }
}

/* The compiler's merging of adjacent scalar accesses from the `merge ...`
 * rows: four aligned scalar accesses a lane within 10% of one vec4's time
 * mean it merges them into one 16-byte access (merge_buffer_bytes /
 * merge_shared_bytes 16), else 0; the scalar buffer row's 4 store
 * requests a subgroup trip give l2_store_run_gops.  On a CPU device the
 * rows are printed only (the CPU model prices lane accesses, not
 * requests: the fields stay unknown there). */
static void derive_merge(cal *cl)
{
    device_profile *p = &cl->out->p;
    const cal_scratch *s = &cl->out->s;
    int gpu = p->kind == DEVICE_KIND_GPU;
    if (s->merge_buf_s4_ns > 0 && s->merge_buf_v4_ns > 0) {
        int merged = s->merge_buf_s4_ns <= 1.1 * s->merge_buf_v4_ns;
        logf_(cl, "  %-20s %10u %-15s (4 scalar stores %.4g ns a subgroup "
              "trip, one vec4 %.4g: %s)%s\n", "merge buffer", merged ? 16u : 0u,
              "bytes", s->merge_buf_s4_ns, s->merge_buf_v4_ns,
              merged ? "merged" : "not merged", gpu ? "" : " (not kept on a CPU)");
        if (gpu)
            p->merge_buffer_bytes = merged ? 16 : 0;
        /* merged stores make no runs: the built-in's rate would linger
         * (calibrate starts from the built-in profile) */
        if (gpu && merged)
            p->l2_store_run_gops = -1;
        if (gpu && !merged) {
            p->l2_store_run_gops = 4 / s->merge_buf_s4_ns;
            logf_(cl, "  %-20s %10.4g %-15s (the scalar row's 4 store requests a "
                  "subgroup trip)\n", "l2 store runs", p->l2_store_run_gops,
                  "G requests/s");
        }
    }
    if (s->merge_sh_s4_ns > 0 && s->merge_sh_v4_ns > 0) {
        int merged = s->merge_sh_s4_ns <= 1.1 * s->merge_sh_v4_ns;
        logf_(cl, "  %-20s %10u %-15s (4 scalar loads %.4g ns a subgroup trip, "
              "one vec4 %.4g: %s)%s\n", "merge shared", merged ? 16u : 0u, "bytes",
              s->merge_sh_s4_ns, s->merge_sh_v4_ns, merged ? "merged" : "not merged",
              gpu ? "" : " (not kept on a CPU)");
        if (gpu)
            p->merge_shared_bytes = merged ? 16 : 0;
    }
}

/* The translation reach and the cost past it from the `tlb span` rows
 * (calibrate_tlb.h); on a CPU device the rows are printed only: the CPU
 * model prices every lane's buffer access, it has no L2 line term a miss
 * could add to, so the fields stay unknown there. */
static void derive_tlb(cal *cl)
{
    size_t n;
    const cal_bench *t = cal_table(&n);
    double span[CAL_TLB_SPANS], gops[CAL_TLB_SPANS];
    size_t k = 0;
    for (size_t i = 0; i < n && k < CAL_TLB_SPANS; i++)
        if (t[i].field == CAL_SCRATCH(tlb_lines_gops[0]) +
                              k * sizeof(double)) {
            span[k] = (t[i].mask[0] + 1.0) * t[i].stride * 128;
            gops[k] = cl->out->s.tlb_lines_gops[k];
            k++;
        }
    if (cl->is_cpu && k)
        logf_(cl, "  %-20s not derived on a CPU device (its rows ran 1024 "
              "lines over 128 KiB x the stride; the CPU model has no L2 "
              "line term: the TLB term stays off)\n", "tlb reach");
    if (cl->is_cpu || k < CAL_TLB_SPANS)
        return;
    double reach, miss, base;
    int rc = cal_tlb_fit(span, gops, k, 0.1, &reach, &miss, &base);
    device_profile *p = &cl->out->p;
    if (rc) {
        logf_(cl, "  %-20s not derived: %s\n", "tlb reach",
              rc < 0 ? "fewer than 3 span rows measured"
                     : "no step over the spans (the term stays off)");
        /* off, as said: calibrate starts from the built-in profile, whose
         * reach would otherwise stay */
        if (rc > 0)
            p->tlb_reach_mib = p->tlb_miss_gops = -1;
        return;
    }
    p->tlb_reach_mib = reach / (1 << 20);
    p->tlb_miss_gops = miss;
    logf_(cl, "  %-20s %10.4g %-15s (t(S) = a + c max(0, 1 - R/S) ns a line "
          "over the span rows, a = 1/%.4g G lines/s)\n", "tlb reach",
          p->tlb_reach_mib, "MiB", base);
    logf_(cl, "  %-20s %10.4g %-15s (c = %.4g ns a missed line; the 256 KiB "
          "runs a 2 MiB apart read %.4g G lines/s)\n", "tlb miss", miss,
          "G misses/s", 1 / miss, cl->out->s.tlb_lines_gops[CAL_TLB_CLUSTER]);
    /* the fit against every row, so that a second step shows */
    char fit[512];
    size_t at = 0;
    for (size_t i = 0; i < k && at < sizeof fit; i++) {
        double x = span[i] > reach ? 1 - reach / span[i] : 0;
        int w = snprintf(fit + at, sizeof fit - at, " %.0fm %.4g/%.4g",
                         span[i] / (1 << 20), gops[i],
                         1 / (1 / base + x / miss));
        at += w > 0 ? (size_t)w : 0;
    }
    logf_(cl, "  %-20s measured/fit G lines/s:%s\n", "tlb fit", fit);
}

/* ---- a CPU device's DRAM: the machine's ---- */

/* lavapipe's own copy kernel is bound by its per-lane code long before
 * memory (the model costs that code in its issue term), so a CPU device's
 * DRAM ceiling is measured natively: triad on every unit, arrays four times
 * a 32 MiB last-level cache. */
static void cal_host_dram(cal *cl)
{
    device_profile *p = &cl->out->p;
    unsigned nt = p->units ? p->units : 1;
    size_t n = cl->budget_s < 1 ? (8u << 20) : (32u << 20);
    float *a = xcalloc(n, 4), *b = xcalloc(n, 4), *c = xcalloc(n, 4);
    fill_random(a, n);
    fill_random(b, n);
    fill_random(c, n);
    double gbs;
    cpu_triad_gbs(nt, a, b, c, n, &gbs);
    free(a);
    free(b);
    free(c);
    p->dram_gbs = p->dram_read_gbs = p->dram_write_gbs = gbs;
    logf_(cl, "  %-20s %10.4g %-15s (native triad on %u threads, 3 x %zu MiB)\n",
          "dram (host)", gbs, "GB/s", nt, n * 4 >> 20);
}

/* lavapipe's four instruction classes from their four rows at once
 * (calibrate_cpu.h); the rows' provisional values stay when the system
 * cannot be solved. */
static void solve_classes(cal *cl)
{
    cal_scratch *s = &cl->out->s;
    device_profile *p = &cl->out->p;
    if (s->cls_have != (1u << CAL_CLS_N) - 1) {
        logf_(cl, "  %-20s not solved: a class row is missing\n",
              "cpu classes");
        return;
    }
    double sg = p->limits.subgroup_size ? p->limits.subgroup_size : 1;
    double x[CAL_CLS_N];
    if (cal_cpu_solve_classes(s->cls_cyc, s->cls_cnt, sg, x)) {
        logf_(cl, "  %-20s not solved (a class cost came out <= 0): the "
              "rows' own values kept\n", "cpu classes");
        return;
    }
    static const char *const name[CAL_CLS_N] = {"other", "fp", "int", "sfu"};
    for (int c = 0; c < CAL_CLS_N; c++) {
        *cal_cpu_class_field(p, c) = x[c];
        logf_(cl, "  %-20s %10.4g %-15s (the four class rows solved "
              "together)\n", name[c], x[c], "cycles/instr");
    }
}

/* One pass over the table: every row, the class solve after the last
 * class row. */
static int cal_table_pass(cal *cl, const cal_bench *t, size_t n,
                          cw_error *err)
{
    for (size_t i = 0; i < n; i++) {
        int rc = measure_row(cl, &t[i], err);
        if (rc)
            return rc;
        if (t[i].kind == CAL_CPU_CLASS &&
            (i + 1 == n || t[i + 1].kind != CAL_CPU_CLASS))
            solve_classes(cl);
    }
    return 0;
}

/* On a CPU device the table runs CAL_CPU_PASSES times, seconds apart, and
 * every row's field is the median of the passes: other processes' load
 * comes in bursts longer than one row's repeats, and a burst that inflates
 * one pass's CPU time (caches, memory bandwidth taken) moves no median. */
enum { CAL_CPU_PASSES = 3 };

/* The memory latencies once more at the end of a table that ran once (a
 * GPU's; a CPU device's at a budget under 1 s: otherwise each field is
 * the median of three passes), each field the lower of its two readings.  One invocation's pointer chase
 * leaves the device almost idle, and once in 14 H200 calibrations (run 9,
 * 2026-12-01 20:01 UTC, a fresh machine's first calibration) the DRAM
 * chase read 704.8 ns where every other one read 330-345, the next
 * calibration on the same machine 333.8: a state of the device lasting
 * longer than one row's five runs.  A latency is the fastest the device
 * was seen to go, like every other ceiling. */
static int cal_latencies_again(cal *cl, const cal_bench *t, size_t n,
                               cw_error *err)
{
    static const size_t fields[] = {
        CAL_FIELD(mem_latency_ns), CAL_FIELD(l2_latency_ns),
        CAL_FIELD(l1_latency_ns), CAL_FIELD(shared_latency_ns)};
    for (size_t i = 0; i < n; i++) {
        int latency = 0;
        for (size_t f = 0; f < sizeof fields / sizeof fields[0]; f++)
            latency |= t[i].field == fields[f];
        double first = *slot(cl, t[i].field);
        if (!latency || !(first > 0))
            continue;
        int rc = measure_row(cl, &t[i], err);
        if (rc)
            return rc;
        double again = *slot(cl, t[i].field);
        if (!(again > 0) || first < again)
            *slot(cl, t[i].field) = first;
        logf_(cl, "  %-20s %10.4g %-15s (again at the end; kept the lower: "
              "%.4g)\n", t[i].name, again, t[i].unit, *slot(cl, t[i].field));
    }
    return 0;
}

static int cal_run_table(cal *cl, cw_error *err)
{
    if (cl->is_cpu)
        cal_host_dram(cl);
    size_t n;
    const cal_bench *t = cal_table(&n);
    int passes = cl->is_cpu && cl->budget_s >= 1 ? CAL_CPU_PASSES : 1;
    double *seen = xcalloc((size_t)passes * n, sizeof *seen);
    int rc = 0;
    for (int k = 0; k < passes && !rc; k++) {
        if (passes > 1)
            logf_(cl, "  pass %d of %d\n", k + 1, passes);
        rc = cal_table_pass(cl, t, n, err);
        for (size_t i = 0; i < n && !rc; i++)
            seen[(size_t)k * n + i] = *slot(cl, t[i].field);
    }
    if (!rc && passes > 1) {
        double v[CAL_CPU_PASSES];
        for (size_t i = 0; i < n; i++) {
            for (int k = 0; k < passes; k++)
                v[k] = seen[(size_t)k * n + i];
            *slot(cl, t[i].field) = cal_cpu_median(v, passes);
        }
        logf_(cl, "  every row above: the median of its %d passes\n", passes);
    }
    free(seen);
    if (!rc && passes == 1)
        rc = cal_latencies_again(cl, t, n, err);
    if (rc)
        return rc;
    derive_atomics(cl);
    derive_atomic_unit(cl);
    derive_tlb(cl);
    derive_merge(cl);
    return 0;
}

static void profile_key(const char *name, char *key, size_t n)
{
    if (strcasestr(name, "llvmpipe")) {
        snprintf(key, n, "lavapipe");
        return;
    }
    if (strcasestr(name, "H200")) {
        snprintf(key, n, "h200");
        return;
    }
    size_t j = 0;
    int dash = 0;
    for (const char *p = name; *p && j + 1 < n; p++) {
        char ch = *p;
        if ((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9')) {
            key[j++] = ch;
            dash = 0;
        } else if (ch >= 'A' && ch <= 'Z') {
            key[j++] = (char)(ch - 'A' + 'a');
            dash = 0;
        } else if (!dash && j) {
            key[j++] = '-';
            dash = 1;
        }
    }
    while (j && key[j - 1] == '-')
        j--;
    key[j] = 0;
}

int calibrate_device(vk_ctx *c, const char *selector, double budget_s,
                     device_profile *out, FILE *log, cw_error *err)
{
    int rc;
    cal_out *res = xcalloc(1, sizeof *res);
    cal cl = {.c = c, .log = log, .out = res};
    if (budget_s <= 0)
        budget_s = 2;
    cl.budget_s = budget_s;
    /* 20 ms per measurement at the default budget (2 s), shorter below */
    cl.target_s = budget_s / 100.0;
    if (cl.target_s > 0.020)
        cl.target_s = 0.020;
    if (cl.target_s < 0.001)
        cl.target_s = 0.001;
    cl.is_cpu = strcmp(c->info.type, "cpu") == 0;
    /* a CPU device: 10 ms of its threads' CPU time per measurement (the
     * best of many is kept); 3 ms windows sized by wall time gave single
     * dispatches of 0.3-2 ms under load and calibrations 10-28% apart */
    if (cl.is_cpu)
        cl.target_s = budget_s >= 1 ? 0.010 : cl.target_s;

    device_profile *p = &res->p;
    profile_init(p);
    char key[64];
    profile_key(c->info.name, key, sizeof key);
    device_profile base;
    /* machine shape (units, cache sizes, ...) that cannot be measured here
     * comes from the built-in entry when there is one */
    if (profile_builtin(key, &base) == 0)
        *p = base;
    vk_device_profile(c, p);
    snprintf(p->key, sizeof p->key, "%s", key);
    p->source = PROFILE_CALIBRATED;
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(p->date, sizeof p->date, "%Y-%m-%dT%H:%M:%SZ", &tm);
    char sel[200] = "";
    if (selector && *selector)
        snprintf(sel, sizeof sel, " --device '%.180s'", selector);
    snprintf(p->command, sizeof p->command,
             "clockwork calibrate%s --budget %g", sel, budget_s);
    p->timestamp_res_ns = -1;
    size_dram(&cl);

    logf_(&cl, "calibrate: %s (%s, driver %s), %.0f ms per measurement, "
          "%u units at %.3g GHz\n", c->info.name, c->info.type,
          c->info.driver_version, cl.target_s * 1e3, p->units, p->clock_ghz);
    double t0 = vkx_now_s();
    rc = cal_overheads(&cl, err);
    if (!rc)
        rc = cal_run_table(&cl, err);
    logf_(&cl, "calibrate: done in %.1f s\n", vkx_now_s() - t0);
    *out = *p;
    free(res);
    if (vk_ctx_hung(c))
        return rc; /* left undestroyed on purpose, see vk_run.c */
    free_buffers(&cl);
    return rc;
}
