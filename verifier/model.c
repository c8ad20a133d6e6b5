/* model.c - the static performance model (see model.h, docs/model.md).
 *
 * Shape of the computation:
 *   1. resolve the profile: every unknown ceiling gets a stated assumption;
 *   2. occupancy: workgroups resident per unit, waves, busiest unit;
 *   3. traffic: per access, sectors per subgroup request (coalescing), reuse
 *      through L2 per binding, shared-memory bank conflicts;
 *   4. terms: one time per ceiling for the kernel as written;
 *      time = launch + max(terms), bound = the largest;
 *   5. ideal: roofline over compulsory bytes and FLOPs + launch;
 *   6. findings naming the term that costs the time.
 * Everything is a pure function of its inputs; no I/O.
 */
#include "model.h"
#include "units.h"
#include "alloc.h"

#include "contention.h"
#include "model_dram.h"
#include "model_lavapipe.h"
#include "model_memterms.h"
#include "model_access.h"
#include "model_compiled.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verdict.h"

/* No device constant lives here: every cost below comes from the device
 * profile (core/profile.h, profiles/<key>.json); an unknown one is replaced
 * by a stated assumption (resolve()). */

typedef struct model {
    const kernel_counts *c;
    const reflection *refl;
    const plan_kernel *k;
    const device_profile *p;
    prediction *pred;
    kernel_report *kr;
    const char *file;

    /* resolved ceilings, per microsecond */
    double dram_bpus, l2_bpus, shared_bpus;
    double fp32_pus, fp16_pus, fp64_pus, int_pus, sfu_pus, atomic_pus;
    double issue_pus;        /* invocation-instructions per µs */
    double launch_us, latency_ns, clock_ghz;
    uint32_t units, subgroup, sector, line, banks;
    double fetch;            /* bytes L2 reads from DRAM per missed sector */
    uint32_t max_threads, max_groups, shared_per_unit;
    uint64_t l2_bytes;
    int is_cpu;
    /* resolved per-operation costs (profile "costs" / "cpu_costs") */
    double fp_lat_cyc;       /* dependent FP op, cycles */
    double atomic_same_ns;   /* same-address global atomic, per request */
    int atomic_combine;      /* a subgroup's same-address atomics: 1 request */
    double barrier_ns;       /* GPU barrier on the latency path */
    double subgroup_op_ns;   /* GPU subgroup operation on the path */
    double shared_atomic_same_ns, shared_atomic_pus;
    uint32_t reg_granule;    /* registers per subgroup allocation block */
    double cpu_instr_cyc, cpu_storage_cyc, cpu_shared_cyc, cpu_barrier_ns,
        cpu_group_ns, cpu_chain_cyc, cpu_fp16_conv;

    /* occupancy */
    uint64_t groups, wg;
    uint32_t resident;       /* workgroups resident per unit */
    const char *resident_limit;
    uint32_t regs;           /* per invocation, from the driver; 0 unknown */
    double waves, slots;
    double imbalance;        /* busiest unit's share vs an even share */
    double occupancy;        /* resident invocations / max per unit */

    /* traffic */
    double dram_bytes, l2_bytes_moved, shared_eff_bytes, l1_bytes;
    double l2_partial;       /* partial-sector stores at L2 (simulated) */
    double l2_partial_open;  /* of those, into sectors L2 did not hold */
    double l2_lines;         /* L2 line requests (simulated) */
    double tlb_misses;       /* of those, translations missed (model_tlb.h) */
    double dram_read, dram_write;        /* of dram_bytes, by direction */
    double dram_pages, dram_write_pages; /* DRAM pages opened (simulated) */
    dram_rates dram;                     /* bandwidths by direction, pages */
    double l1_bpus;
    double lane_storage;     /* lane x 4-byte components, buffers */
    double lane_shared;      /* same, workgroup memory */
    int dram_limited_by_inflight; /* the latency path is a large share */
    double latency_term;     /* GPU: the path (plus DRAM when it is less) */
    mc_loops loops;          /* kept loops' control per trip (model_compiled.h) */
    int worst_case;          /* guessed addresses taken at their worst:
                                a sector per lane, no reuse, atomics on
                                one address (the high end of the range) */
    int guessed;             /* some term rests on a guessed address */
} model;

static double pos(double v) { return v > 0 && isfinite(v) ? v : -1; }

/* ---- 1. resolve the profile ---- */

static double need_rate(model *m, double v, double fallback, const char *what,
                        const char *unit, double shown_scale)
{
    if (v > 0 && isfinite(v))
        return v;
    prediction_add_assumption(m->pred, "%s unknown for this device: assumed "
                              "%.4g %s", what, fallback * shown_scale, unit);
    return fallback;
}

static uint32_t need_count(model *m, uint32_t v, uint32_t fallback,
                           const char *what)
{
    if (v)
        return v;
    prediction_add_assumption(m->pred, "%s unknown for this device: assumed %u",
                              what, fallback);
    return fallback;
}

/* lavapipe's generated-code costs (profile "cpu_costs"). */
static void resolve_cpu_costs(model *m)
{
    const device_profile *p = m->p;
    m->cpu_instr_cyc = need_rate(m, pos(p->cpu_cycles_per_instruction), 1.0,
                                 "cycles per counted vector instruction",
                                 "cycles", 1);
    m->cpu_storage_cyc = need_rate(m, pos(p->cpu_cycles_per_storage_lane),
                                   2.0, "cycles per buffer lane access",
                                   "cycles", 1);
    m->cpu_shared_cyc = need_rate(m, pos(p->cpu_cycles_per_shared_lane), 2.0,
                                  "cycles per workgroup-memory lane access",
                                  "cycles", 1);
    m->cpu_barrier_ns = need_rate(m, pos(p->cpu_ns_per_barrier_lane), 2.0,
                                  "barrier cost per invocation", "ns", 1);
    m->cpu_group_ns = need_rate(m, pos(p->cpu_ns_per_group), 350.0,
                                "workgroup start cost", "ns", 1);
    m->cpu_chain_cyc = need_rate(m, pos(p->cpu_cycles_per_chain_step), 12.0,
                                 "dependent FP step", "cycles", 1);
    m->cpu_fp16_conv = need_rate(m, pos(p->cpu_fp16_conversions_per_flop),
                                 2.0, "FP16 conversions per FLOP", "", 1);
    int classes = lp_known_classes(p);
    if (classes > 0 && classes < 3)
        prediction_add_assumption(m->pred, "a class of counted instruction "
                                  "(FP, integer, special function) without "
                                  "its own cost: priced as the other "
                                  "instructions");
}

static void resolve(model *m)
{
    const device_profile *p = m->p;
    m->is_cpu = p->kind == DEVICE_KIND_CPU_VULKAN;

    double dram = pos(p->dram_gbs);
    if (dram < 0 && p->dram_read_gbs > 0 && p->dram_write_gbs > 0)
        dram = 2.0 / (1.0 / p->dram_read_gbs + 1.0 / p->dram_write_gbs);
    dram = need_rate(m, dram, 100.0, "DRAM bandwidth", "GB/s", 1);
    m->dram_bpus = dram * 1e3;
    if (m->is_cpu) {
        /* not used on a CPU device (see compute_terms) */
        m->l2_bpus = (p->l2_gbs > 0 ? p->l2_gbs : 3 * dram) * 1e3;
        m->shared_bpus = (p->shared_gbs > 0 ? p->shared_gbs : 6 * dram) * 1e3;
    } else {
        m->l2_bpus = need_rate(m, pos(p->l2_gbs), 3 * dram, "L2 bandwidth",
                               "GB/s (3x DRAM)", 1) * 1e3;
        m->shared_bpus = need_rate(m, pos(p->shared_gbs),
                                   m->l2_bpus / 1e3 * 2,
                                   "workgroup-memory bandwidth",
                                   "GB/s (2x L2)", 1) * 1e3;
        m->l1_bpus = need_rate(m, pos(p->l1_gbs), m->shared_bpus / 1e3,
                               "L1 bandwidth",
                               "GB/s (= workgroup memory)", 1) * 1e3;
    }
    double fp32 = need_rate(m, pos(p->fp32_gflops), 1000.0, "FP32 peak",
                            "GFLOP/s", 1);
    m->fp32_pus = fp32 * 1e3;
    m->fp16_pus = need_rate(m, pos(p->fp16_gflops), fp32, "FP16 peak",
                            "GFLOP/s (= FP32)", 1) * 1e3;
    m->fp64_pus = need_rate(m, pos(p->fp64_gflops), fp32 / 16, "FP64 peak",
                            "GFLOP/s (FP32 / 16)", 1) * 1e3;
    m->int_pus = need_rate(m, pos(p->int32_gops), fp32 / 2, "INT32 rate",
                           "Gop/s (FP32 / 2)", 1) * 1e3;
    m->sfu_pus = need_rate(m, pos(p->sfu_gops), fp32 / 8,
                           "special-function rate", "Gop/s (FP32 / 8)", 1) *
                 1e3;
    m->atomic_pus = need_rate(m, pos(p->atomic_gops), dram / 32,
                              "distinct-address atomic rate",
                              "Gop/s (DRAM / 32 B)", 1) * 1e3;
    m->launch_us = need_rate(m, pos(p->launch_us), 5.0, "launch overhead",
                             "µs", 1);
    m->units = need_count(m, p->units, 1, "number of compute units");
    m->subgroup = need_count(m, p->limits.subgroup_size, 32, "subgroup size");
    m->sector = need_count(m, p->sector_bytes, 32, "memory sector size");
    m->line = p->line_bytes ? p->line_bytes : 4 * m->sector;
    m->clock_ghz = need_rate(m, pos(p->clock_ghz), 1.5, "clock", "GHz", 1);
    m->l2_bytes = p->l2_bytes;
    if (!m->l2_bytes) {
        m->l2_bytes = 4u << 20;
        prediction_add_assumption(m->pred, "L2 size unknown for this device: "
                                  "assumed 4 MiB");
    }
    if (m->is_cpu) {
        m->banks = 0;
        m->max_threads = p->max_threads_per_unit ? p->max_threads_per_unit
                                                 : 1024;
        m->max_groups = p->max_groups_per_unit ? p->max_groups_per_unit : 1;
        m->shared_per_unit = p->shared_per_unit ? p->shared_per_unit
                                                : UINT32_MAX;
        m->latency_ns = pos(p->mem_latency_ns);
        /* a CPU core issues its vector instructions itself: lanes / cycle */
        resolve_cpu_costs(m);
        m->issue_pus = m->units * m->clock_ghz * 1e3 * m->subgroup /
                       m->cpu_instr_cyc;
    } else {
        m->banks = need_count(m, p->shared_banks, 32, "shared-memory banks");
        uint32_t lim_thr = p->limits.max_wg_invocations
                               ? p->limits.max_wg_invocations
                               : 1024;
        m->max_threads = need_count(m, p->max_threads_per_unit, lim_thr,
                                    "invocations per unit");
        m->max_groups = need_count(m, p->max_groups_per_unit, 16,
                                   "workgroups per unit");
        uint32_t lim_sh = p->limits.max_shared_bytes
                              ? p->limits.max_shared_bytes
                              : 49152;
        m->shared_per_unit = need_count(m, p->shared_per_unit, lim_sh,
                                        "workgroup memory per unit");
        m->latency_ns = need_rate(m, pos(p->mem_latency_ns), 500.0,
                                  "DRAM latency", "ns", 1);
        /* The driver's compiler removes most of the SPIR-V instructions
         * the evaluator counts (loop control once unrolled, push-constant
         * loads folded into operands, address arithmetic): the profile's
         * issue rate is in counted instructions (docs/model.md). */
        m->issue_pus = need_rate(m, pos(p->issue_glanes), m->fp32_pus / 1e3 * 4,
                                 "counted-instruction issue rate",
                                 "G lane-instructions/s (4 per FP32 FMA "
                                 "lane-slot)", 1) * 1e3;
        m->barrier_ns = need_rate(m, pos(p->barrier_ns),
                                  m->latency_ns / 4, "barrier cost",
                                  "ns (DRAM latency / 4)", 1);
        m->reg_granule = p->reg_alloc_granule ? p->reg_alloc_granule : 1;
    }
    m->fp_lat_cyc = need_rate(m, pos(p->fp_latency_cycles), 4.0,
                              "dependent FP latency", "cycles", 1);
    /* stated only for kernels that have subgroup operations */
    if (!m->is_cpu && m->c->subgroup_ops > 0)
        m->subgroup_op_ns = need_rate(m, pos(p->subgroup_op_ns),
                                      8 * m->fp_lat_cyc / m->clock_ghz,
                                      "subgroup-operation cost",
                                      "ns (8 dependent FP latencies)", 1);
    m->atomic_same_ns = need_rate(m, pos(p->atomic_same_ns),
                                  1e3 / m->atomic_pus * m->subgroup,
                                  "same-address atomic cost",
                                  "ns (subgroup size / distinct-address "
                                  "rate)", 1);
    m->atomic_combine = p->atomic_combine > 0;
    dram_rates_resolve(&m->dram, p, m->dram_bpus, m->sector, m->line);
    m->fetch = dram_fetch_bytes(p, m->sector, m->line);
    if (!m->is_cpu) {
        m->shared_atomic_same_ns = need_rate(
            m, pos(p->atomic_shared_same_ns), m->fp_lat_cyc / m->clock_ghz,
            "same-address workgroup-memory atomic cost",
            "ns (one dependent FP latency)", 1);
        m->shared_atomic_pus = need_rate(m, pos(p->atomic_shared_gops),
                                         m->shared_bpus / 1e3 / 16,
                                         "workgroup-memory atomic rate",
                                         "Gop/s (a quarter of the 4-byte "
                                         "access rate)", 1) * 1e3;
    }
}

/* ---- 2. occupancy ---- */

/* Sizes multiplied in the model saturate instead of wrapping: a product
 * that wraps to 0 would be a divisor (issue 17: a local size of
 * 2^31 x 2^31 x 4 is 2^64).  *ovf is set when a product saturated. */
static uint64_t mul_sat(uint64_t a, uint64_t b, int *ovf)
{
    uint64_t r;
    if (__builtin_mul_overflow(a, b, &r)) {
        *ovf = 1;
        return UINT64_MAX;
    }
    return r;
}

/* Registers one workgroup of wg invocations takes: whole subgroups, each
 * allocated in blocks of the profile's reg_alloc_granule. */
static uint64_t registers_per_group(uint32_t regs, uint64_t wg,
                                    uint32_t subgroup, uint32_t granule)
{
    int ovf = 0;
    if (!subgroup)
        subgroup = 1;
    if (!granule)
        granule = 1;
    uint64_t per_sg = (uint64_t)regs * subgroup; /* < 2^64: 32 x 32 bits */
    per_sg = mul_sat((per_sg + granule - 1) / granule, granule, &ovf);
    uint64_t sgs = wg / subgroup + (wg % subgroup != 0);
    return mul_sat(sgs, per_sg, &ovf);
}

/* One sentence on registers: how many the driver reported and what they
 * allowed, or why they are not known. */
static void registers_assumption(model *m, uint64_t by_regs, uint64_t wg_regs)
{
    const kernel_counts *c = m->c;
    const char *why = c->regs_reason[0] ? c->regs_reason : NULL;
    if (!m->regs) {
        if (m->is_cpu && why)
            prediction_add_assumption(m->pred, "registers per invocation not "
                                      "reported (%s); a CPU device's "
                                      "occupancy does not depend on them",
                                      why);
        else if (!m->is_cpu)
            prediction_add_assumption(m->pred, "registers per invocation "
                                      "unknown%s%s%s: occupancy ignores "
                                      "register pressure",
                                      why ? " (" : "", why ? why : "",
                                      why ? ")" : "");
        return;
    }
    m->pred->registers_per_invocation = m->regs;
    if (m->is_cpu) {
        prediction_add_assumption(m->pred, "registers: %u per invocation "
                                  "(driver); a CPU device's occupancy does "
                                  "not depend on them", m->regs);
    } else if (!m->p->regs_per_unit) {
        prediction_add_assumption(m->pred, "registers: %u per invocation "
                                  "(driver), but registers per unit unknown "
                                  "for this device: occupancy ignores "
                                  "register pressure", m->regs);
    } else {
        prediction_add_assumption(
            m->pred, "registers: %u per invocation (driver; %llu per "
            "workgroup of %llu, allocated per subgroup of %u in blocks of %u) "
            "-> %llu workgroup(s) of %llu per unit by registers; occupancy "
            "bound by %s: %u resident",
            m->regs, (unsigned long long)wg_regs, (unsigned long long)m->wg,
            m->subgroup, m->reg_granule,
            (unsigned long long)by_regs, (unsigned long long)m->wg,
            m->resident_limit, m->resident);
    }
}

static void occupancy(model *m)
{
    const kernel_counts *c = m->c;
    uint64_t wg = 1;
    int ovf = 0;
    for (int i = 0; i < 3; i++) {
        uint32_t d = m->refl ? m->refl->local_size[i] : 0;
        if (!d && m->kr)
            d = m->kr->local_size[i];
        wg = mul_sat(wg, d ? d : 1, &ovf);
    }
    m->wg = wg;
    m->groups = c->workgroups;
    if (!m->groups && m->k)
        m->groups = mul_sat(mul_sat(m->k->workgroups[0], m->k->workgroups[1],
                                    &ovf),
                            m->k->workgroups[2], &ovf);
    if (!m->groups)
        m->groups = 1;
    if (ovf)
        prediction_add_assumption(m->pred, "the workgroup size or count "
                                  "overflows 64 bits: taken as 2^64 - 1");

    uint64_t r = m->max_groups;
    m->resident_limit = "workgroups per unit";
    uint64_t by_thr = m->max_threads / wg;
    if (by_thr < r) {
        r = by_thr;
        m->resident_limit = "invocations per unit";
    }
    uint64_t shared = m->refl ? m->refl->shared_bytes : 0;
    if (shared && m->shared_per_unit != UINT32_MAX) {
        uint64_t by_sh = m->shared_per_unit / shared;
        if (by_sh < r) {
            r = by_sh;
            m->resident_limit = "workgroup memory";
        }
    }
    uint64_t by_regs = 0, wg_regs = 0;
    m->regs = c->regs_per_invocation;
    if (m->regs && !m->is_cpu && m->p->regs_per_unit) {
        wg_regs = registers_per_group(m->regs, wg, m->subgroup, m->reg_granule);
        by_regs = m->p->regs_per_unit / wg_regs;
        if (by_regs < r) {
            r = by_regs;
            m->resident_limit = "registers";
        }
    }
    if (r == 0)
        r = 1; /* over a limit: the verifier reports it; model one group */
    m->resident = (uint32_t)r;
    m->slots = (double)m->units * r;
    m->waves = ceil((double)m->groups / m->slots);
    double per_unit = ceil((double)m->groups / m->units);
    m->imbalance = per_unit * m->units / (double)m->groups;
    m->occupancy = (double)r * (double)wg / m->max_threads;
    if (m->occupancy > 1)
        m->occupancy = 1;
    registers_assumption(m, by_regs, wg_regs);
}

/* ---- 3. traffic ---- */

static double ceil_div(double a, double b) { return ceil(a / b); }

static int is_global(const access_summary *a)
{
    return a->space == SPACE_STORAGE || a->space == SPACE_UNIFORM;
}

/* A GPU dispatch that touches global memory costs more than an empty one
 * beyond its own round trip (on the H200 the bare timestamp harness reads
 * 3.2 us empty, 4.3 for one workgroup copying 256 words): its launch is
 * calibrate's `launch memory` dispatch less the one round trip the latency
 * path charges for that dispatch, never less than the empty launch. */
static void memory_launch(model *m)
{
    if (m->is_cpu || !(m->p->launch_memory_us > 0))
        return;
    int touches = 0;
    for (size_t i = 0; i < m->c->naccesses && !touches; i++)
        touches = is_global(&m->c->accesses[i]) && m->c->accesses[i].count > 0;
    double fixed = m->p->launch_memory_us - m->latency_ns * 1e-3;
    if (touches && fixed > m->launch_us)
        m->launch_us = fixed;
}

/* Accesses of one buffer binding in one direction (loads / stores). */
static int same_binding(const access_summary *a, const access_summary *b)
{
    return a->set == b->set && a->binding == b->binding &&
           (a->is_store != 0) == (b->is_store != 0);
}

/* A storage access's grouping key and index, sorted to group bindings. */
typedef struct binding_key {
    uint32_t set, binding;
    int is_store;
    size_t idx;
} binding_key;

static int binding_cmp(const void *x, const void *y)
{
    const binding_key *a = x, *b = y;
    if (a->set != b->set)
        return a->set < b->set ? -1 : 1;
    if (a->binding != b->binding)
        return a->binding < b->binding ? -1 : 1;
    if (a->is_store != b->is_store)
        return a->is_store ? 1 : -1;
    return a->idx < b->idx ? -1 : a->idx > b->idx; /* program order */
}

/* Indices of the storage accesses, grouped by binding and direction. */
static size_t storage_by_binding(const kernel_counts *c, size_t *order)
{
    binding_key *k = xmalloc((c->naccesses ? c->naccesses : 1) * sizeof *k);
    size_t n = 0;
    for (size_t i = 0; i < c->naccesses; i++) {
        const access_summary *a = &c->accesses[i];
        if (a->space != SPACE_STORAGE)
            continue;
        binding_key e = {a->set, a->binding, a->is_store != 0, i};
        k[n++] = e;
    }
    qsort(k, n, sizeof *k, binding_cmp);
    for (size_t i = 0; i < n; i++)
        order[i] = k[i].idx;
    free(k);
    return n;
}

typedef struct acc_cost {
    double factor;      /* sectors fetched per sector needed */
    double moved;       /* bytes requested from L2 (after coalescing and
                           L1 hits) */
    double l1;          /* bytes requested at L1 */
    double dram;        /* bytes from DRAM */
    double sim_dram;    /* of dram, simulated (the rest: static rules) */
    double pages;       /* DRAM pages opened by reads (simulated) */
    double wpages;      /* ... by writes */
    double known;       /* fraction of executions simulated (0: none) */
    double got, best;   /* sectors per request */
    double degree;      /* bank conflicts (shared) */
} acc_cost;

/* An access whose address the model had to guess: its stride across the
 * subgroup is unknown, or (simulated) some executions' addresses came from
 * buffer contents. */
static int address_guessed(const access_summary *a)
{
    return (!a->stride_known && !a->uniform) || a->sim_unknown > 0;
}

/* Executions of an atomic whose address was guessed. */
static double guessed_atomic_ops(const access_summary *a)
{
    if (!a->is_atomic || a->uniform)
        return 0;
    if (a->sim_drawn > 0 && !(a->sim_unknown > 0))
        return 0; /* drawn: in the simulated contention */
    if (a->sim_unknown > 0)
        return a->count * a->sim_unknown / (a->sim_execs + a->sim_unknown);
    return a->index_known ? 0 : a->count;
}

/* Traffic of an access from the simulation (model_traffic.h): the
 * executions whose address was known in the simulated workgroups move what
 * the cache model says per execution; the rest (addresses from buffer
 * contents) keep the static per-request rule in moved / l1. */
static void sim_split(const model *m, const access_summary *a, acc_cost *ac)
{
    if (!m->c->sim || a->sim_execs <= 0)
        return;
    double sec = m->sector;
    ac->known = a->sim_execs / (a->sim_execs + a->sim_unknown);
    double known = a->count * ac->known, rest = 1 - ac->known;
    ac->moved = ac->moved * rest + known * a->sim_l2_sectors * sec;
    /* the L1 looks up one line per cycle: a request costs its lines */
    ac->l1 = ac->l1 * rest + known * a->sim_l1_lines * m->line;
    ac->sim_dram = known * a->sim_dram_bytes;
    ac->pages = known * a->sim_dram_pages;
    ac->wpages = known * a->sim_dram_write_pages;
}

/* DRAM bytes per buffer binding and direction (see the comment inside). */
static void dram_by_binding(model *m, acc_cost *cost)
{
    const kernel_counts *c = m->c;
    /* Reuse, per binding and direction: accesses to one buffer from one
     * invocation touch neighbouring addresses at nearly the same time, so
     * they share fetched lines; a buffer whose footprint fits in L2 comes
     * from DRAM once.  Otherwise every access streams from DRAM.  The
     * accesses are grouped by sorting (n log n: 300k stores to one binding
     * must not be a quadratic search, issue 17). */
    size_t *order = xmalloc((c->naccesses ? c->naccesses : 1) * sizeof *order);
    size_t nst = storage_by_binding(c, order);
    for (size_t g0 = 0; g0 < nst;) {
        size_t g1 = g0 + 1;
        while (g1 < nst && same_binding(&c->accesses[order[g0]],
                                        &c->accesses[order[g1]]))
            g1++;
        double foot = 0, cap = 0, moved = 0, max_moved = 0, fworst = 1;
        double sim_dram = 0, static_moved = 0, static_max = 0, pages = 0,
               wpages = 0;
        int any_sim = 0, any_guess = 0;
        for (size_t q = g0; q < g1; q++) {
            const access_summary *b = &c->accesses[order[q]];
            const acc_cost *bc = &cost[order[q]];
            any_guess |= address_guessed(b);
            if (bc->known > 0) {
                any_sim = 1;
                sim_dram += bc->sim_dram;
                pages += bc->pages;
                wpages += bc->wpages;
                /* what the static rule still covers */
                double st = bc->moved - b->count * bc->known *
                                            b->sim_l2_sectors * m->sector;
                static_moved += st > 0 ? st : 0;
                if (st > static_max)
                    static_max = st;
            } else {
                static_moved += bc->moved;
                if (bc->moved > static_max)
                    static_max = bc->moved;
            }
            double fb = b->footprint_bytes > 0
                            ? b->footprint_bytes
                            : b->count * (b->bytes ? b->bytes : 4);
            if (fb > foot)
                foot = fb;
            /* the footprint in DRAM's blocks: a bound on what stays in L2 */
            double fd = access_dram_footprint(b, m->fetch);
            if (fd > cap)
                cap = fd;
            moved += bc->moved;
            if (bc->moved > max_moved)
                max_moved = bc->moved;
            if (bc->factor > fworst)
                fworst = bc->factor;
        }
        double dram;
        if (any_sim) {
            /* simulated bytes, plus the static rule for the executions the
             * simulation could not follow; at least the footprint once, at
             * most once when it fits in L2 (a sample's cold misses on data
             * every workgroup shares are not repeated by the dispatch) */
            double rest = cap <= (double)m->l2_bytes / 2
                              ? fmin(static_moved, cap)
                              : fmax(static_max,
                                     fmin(static_moved, foot * fworst));
            dram = sim_dram + rest;
            double uncapped = dram;
            if (cap <= (double)m->l2_bytes / 2 && dram > cap)
                dram = cap;
            if (dram < foot)
                dram = foot;
            /* pages opened scale with the bytes the cap kept */
            if (uncapped > 0 && dram < uncapped) {
                pages *= dram / uncapped;
                wpages *= dram / uncapped;
            }
            m->dram_pages += pages;
            m->dram_write_pages += wpages;
        } else if (cap <= (double)m->l2_bytes / 2)
            dram = fmin(moved, cap);
        else
            dram = fmax(max_moved, fmin(moved, foot * fworst));
        /* worst case of a guessed address: its footprint is a guess too,
         * so nothing is reused */
        if (m->worst_case && any_guess)
            dram = fmax(dram, moved);
        /* attribute DRAM bytes to the accesses in proportion to traffic */
        for (size_t q = g0; q < g1; q++)
            cost[order[q]].dram =
                moved > 0 ? dram * cost[order[q]].moved / moved : 0;
        m->dram_bytes += dram;
        /* by direction: an atomic reads its sector and writes it back */
        double wshare = c->accesses[order[g0]].is_store ? 1 : 0;
        for (size_t q = g0; q < g1; q++)
            if (c->accesses[order[q]].is_atomic)
                wshare = 0.5;
        m->dram_write += dram * wshare;
        m->dram_read += dram * (1 - wshare);
        g0 = g1;
    }
    free(order);
}

/* Counts without per-access detail: the totals, assumed coalesced. */
static void traffic_totals(model *m)
{
    const kernel_counts *c = m->c;
    double moved = c->storage_load_bytes + c->storage_store_bytes +
                   c->uniform_load_bytes;
    m->l2_bytes_moved = moved;
    m->dram_read = fmax(c->compulsory_read_bytes, 0);
    m->dram_write = fmax(c->compulsory_write_bytes, 0);
    m->dram_bytes = m->dram_read + m->dram_write;
    if (m->dram_bytes > moved && moved > 0) {
        m->dram_read *= moved / m->dram_bytes;
        m->dram_write *= moved / m->dram_bytes;
        m->dram_bytes = moved;
    }
    m->shared_eff_bytes = c->shared_load_bytes + c->shared_store_bytes;
    m->lane_storage = (c->storage_load_bytes + c->storage_store_bytes) / 4;
    m->lane_shared = (c->shared_load_bytes + c->shared_store_bytes) / 4;
    if ((moved > 0 || m->shared_eff_bytes > 0) && !m->worst_case)
        prediction_add_assumption(m->pred,
                                  "no per-access detail: traffic assumed "
                                  "coalesced, 4-byte accesses");
}

static void traffic(model *m, acc_cost *cost)
{
    const kernel_counts *c = m->c;
    m->dram_bytes = 0;
    m->dram_read = m->dram_write = 0;
    m->l2_bytes_moved = 0;
    m->l2_partial = m->l2_partial_open = m->l2_lines = m->tlb_misses = 0;
    m->l1_bytes = 0;
    m->dram_pages = 0;
    m->dram_write_pages = 0;
    m->shared_eff_bytes = 0;
    m->lane_storage = 0;
    m->lane_shared = 0;
    int unknown_stride = 0;

    for (size_t i = 0; i < c->naccesses; i++) {
        const access_summary *a = &c->accesses[i];
        acc_cost *ac = &cost[i];
        memset(ac, 0, sizeof *ac);
        ac->factor = 1;
        ac->degree = 1;
        double used = a->count * (a->bytes ? a->bytes : 4);
        if (a->sim_merge && a->sim_execs > 0)
            used = a->count * a->sim_lane_bytes; /* merged (eval_merge.h) */
        if (a->space == SPACE_SHARED) {
            ac->degree = access_bank_degree(m->banks, m->subgroup, a);
            m->shared_eff_bytes += used * ac->degree;
            m->lane_shared += a->count * ceil_div(a->bytes ? a->bytes : 4, 4);
            continue;
        }
        if (!is_global(a))
            continue;
        m->lane_storage += a->count * ceil_div(a->bytes ? a->bytes : 4, 4);
        if (!a->stride_known && !a->uniform)
            unknown_stride = 1;
        access_sectors(m->subgroup, m->sector, a, &ac->got, &ac->best);
        ac->factor = ac->best > 0 ? ac->got / ac->best : 1;
        ac->moved = used * ac->factor;
        /* one address for the whole request (uniform), or for neighbouring
         * lanes (stride 0, e.g. a matrix row shared by a row of
         * invocations): one transaction serves all the lanes */
        if (a->uniform || (a->stride_known && a->lane_stride_bytes == 0))
            ac->moved = a->count / m->subgroup * ceil_div(a->bytes ? a->bytes : 4,
                                                          m->sector) *
                        m->sector;
        if (address_guessed(a)) {
            m->guessed = 1;
            if (m->worst_case && !a->uniform) {
                /* every lane its own sector, nothing shared */
                double per_lane = ceil_div(a->bytes ? a->bytes : 4, m->sector);
                ac->got = per_lane * m->subgroup;
                ac->factor = ac->best > 0 ? ac->got / ac->best : 1;
                ac->moved = a->count * per_lane * m->sector;
            }
        }
        ac->l1 = ac->moved;
        sim_split(m, a, ac);
        m->l2_bytes_moved += ac->moved;
        m->l2_partial += a->count * ac->known * a->sim_l2_partial;
        m->l2_partial_open += a->count * ac->known * a->sim_l2_partial_open;
        m->l2_lines += a->count * ac->known * a->sim_l2_lines;
        m->tlb_misses += a->count * ac->known * a->sim_tlb_misses;
        m->l1_bytes += ac->l1;
    }
    if (unknown_stride && !m->worst_case)
        prediction_add_assumption(m->pred,
                                  "an access's stride across the subgroup is "
                                  "unknown: assumed contiguous (the range's "
                                  "high end takes a sector per lane)");

    dram_by_binding(m, cost);
    /* Uniform-buffer reads are cached; count their footprint once. */
    for (size_t i = 0; i < c->naccesses; i++)
        if (c->accesses[i].space == SPACE_UNIFORM) {
            double f = c->accesses[i].footprint_bytes;
            cost[i].dram = f > 0 ? f : 0;
            m->dram_bytes += cost[i].dram;
            m->dram_read += cost[i].dram;
        }

    if (c->naccesses == 0)
        traffic_totals(m);
    /* The compulsory traffic is a floor on DRAM bytes. */
    double comp = c->compulsory_read_bytes + c->compulsory_write_bytes;
    if (m->dram_bytes < comp) {
        /* the floor in the compulsory bytes' own directions */
        m->dram_read = fmax(m->dram_read, c->compulsory_read_bytes);
        m->dram_write = fmax(m->dram_write, c->compulsory_write_bytes);
        m->dram_bytes = m->dram_read + m->dram_write;
    }
}

/* ---- 4. terms ---- */

typedef struct term {
    const char *name;
    double us;
} term;

typedef struct terms {
    term t[16];
    int n;
} terms;

static void add(terms *ts, const char *name, double us)
{
    if (ts->n < 16 && us >= 0 && isfinite(us)) {
        ts->t[ts->n].name = name;
        ts->t[ts->n].us = us;
        ts->n++;
    }
}

static double term_us(const terms *ts, const char *name)
{
    for (int i = 0; i < ts->n; i++)
        if (strcmp(ts->t[i].name, name) == 0)
            return ts->t[i].us;
    return 0;
}

/* FP rate fraction reached with the dependency chains the kernel has. */
static double fp_hiding(const model *m, double peak_pus)
{
    int chains = m->c->fp_chains > 0 ? m->c->fp_chains : 1;
    double lanes_per_cycle = peak_pus / 2 / (m->units * m->clock_ghz * 1e3);
    if (m->is_cpu) {
        /* one thread per core runs one 8-lane vector at a time */
        double pipes = lanes_per_cycle / m->subgroup;
        return fmin(1, chains / (pipes * m->fp_lat_cyc));
    }
    double ports = lanes_per_cycle / m->subgroup; /* warp instr / cycle */
    double per_unit_groups = fmin(m->resident, ceil((double)m->groups /
                                                    m->units));
    double warps = per_unit_groups * ceil((double)m->wg / m->subgroup);
    return fmin(1, warps * chains / (ports * m->fp_lat_cyc));
}

/* The GPU memory terms (model_memterms.h) from the model's shape and
 * traffic. */
static void memory_terms(model *m, terms *ts)
{
    const kernel_counts *c = m->c;
    double sh_lat = c->shared_load_bytes > 0 && m->p->shared_latency_ns > 0
                        ? m->p->shared_latency_ns : 0;
    gpu_path_in path = {.c = c, .groups = (double)m->groups,
                        .wg = (double)m->wg, .units = m->units,
                        .resident = m->resident, .waves = m->waves,
                        .read_bpus = m->dram.read_bpus,
                        .latency_ns = m->latency_ns,
                        .l2_bpus = m->l2_bpus,
                        .l2_latency_ns = m->p->l2_latency_ns,
                        .l1_bpus = m->l1_bpus,
                        .l1_latency_ns = m->p->l1_latency_ns,
                        .sector = m->sector, .clock_ghz = m->clock_ghz,
                        .fp_lat_cyc = m->fp_lat_cyc,
                        .barrier_ns = m->barrier_ns + sh_lat,
                        .shared_latency_ns = sh_lat,
                        .subgroup_op_ns = m->subgroup_op_ns,
                        .ctl_instructions = m->loops.ctl_instructions,
                        .chain_cycles = m->loops.chain_cycles};
    gpu_mem_in in = {m->p, &path, &m->dram, m->dram_read, m->dram_write,
                     m->dram_pages, m->dram_write_pages, m->l2_bytes_moved,
                     m->l2_bpus, m->sector, m->l2_partial,
                     m->l2_partial_open, m->l2_lines, m->tlb_misses,
                     m->l1_bytes, m->l1_bpus, m->shared_eff_bytes,
                     m->shared_bpus, m->imbalance};
    gpu_mem_out out;
    /* the worst-case evaluation states nothing: the prediction's own does */
    gpu_memory_terms(&in, m->worst_case ? NULL : m->pred, &out);
    m->dram_limited_by_inflight = out.limited_by_inflight;
    m->latency_term = out.latency_us;
    add(ts, "dram", out.dram_us);
    add(ts, "l2", out.l2_us);
    add(ts, "l1", out.l1_us);
    add(ts, "shared", out.shared_us);
}

/* The atomic term: contention from the simulated stream, or the static
 * rule (docs/model.md section 4.3). */
static void atomic_term(model *m, terms *ts)
{
    const kernel_counts *c = m->c;
    double imb = m->imbalance;
    /* atomics from the simulated address stream (contention.h): the
     * busiest address's requests one after another, the rest at the
     * distinct-address rate; workgroup memory per workgroup and wave */
    /* atomics whose address came from buffer contents: at the
     * distinct-address rate, or (worst case) all on one address */
    double guessed_ops = 0;
    for (size_t i = 0; i < c->naccesses; i++)
        guessed_ops += guessed_atomic_ops(&c->accesses[i]);
    if (guessed_ops > 0)
        m->guessed = 1;
    double guessed_serial =
        m->worst_case ? guessed_ops / (m->atomic_combine ? m->subgroup : 1) *
                            m->atomic_same_ns * 1e-3
                      : 0;
    if (c->sim && (c->atomic_requests > 0 || c->shared_atomic_requests > 0 ||
                   guessed_ops > 0)) {
        double g = ct_time_us(c->atomic_requests + guessed_ops,
                              c->atomic_busiest, m->atomic_same_ns,
                              m->atomic_pus / 1e3);
        /* the units update a sector a pass: calibrate's distinct-address
         * rate puts a sector's 4-byte words in one pass, so a lane alone
         * in its sector (a scatter) costs that many lanes' share of it
         * (atomic_w4096_s32: 4096 counters a line apart, 178.9 us
         * measured, 87.5 at the lane rate, 246.2 at the pass rate) */
        g = fmax(g, c->atomic_passes * (m->sector / 4.0) / m->atomic_pus);
        /* what queues at one address or at the busiest L2 atomic unit
         * (every line of its block queues there, a word at a time when
         * lanes collide: contention.h) */
        double hot = fmax(c->atomic_busiest * m->atomic_same_ns * 1e-3,
                          fmax(guessed_serial, c->atomic_slice_us));
        /* the other memory traffic does not overlap it: requests queued
         * for a hot unit back up into the path every request takes to L2
         * (loop-atomic probes: la_flush 80.8 us, its flush alone; la_load
         * 131.2 us, the same flush after 256 MiB of loads that take 68 us
         * alone, reduce_subgroup) */
        if (!m->is_cpu && hot > 0)
            hot += fmax(term_us(ts, "dram"), term_us(ts, "l2"));
        g = fmax(g, hot);
        double sh_serial = m->waves * c->shared_atomic_busiest *
                           m->shared_atomic_same_ns * 1e-3;
        double sh_rate = c->shared_atomic_requests /
                         m->shared_atomic_pus * imb;
        add(ts, "atomic", fmax(g, fmax(sh_serial, sh_rate)));
    } else if (c->atomics > 0) {
        double t = c->atomics / m->atomic_pus;
        double serial = 0;
        for (size_t i = 0; i < c->naccesses; i++) {
            const access_summary *a = &c->accesses[i];
            if (!a->is_atomic)
                continue;
            double b = a->bytes ? a->bytes : 4;
            double addrs = a->footprint_bytes > 0 ? a->footprint_bytes / b : 1;
            if (a->uniform)
                addrs = 1;
            /* a GPU combines a subgroup's atomics on one address into one
             * request; lavapipe does them lane by lane */
            double per_addr_ns = m->atomic_same_ns;
            double ops = a->count;
            if (m->atomic_combine && a->uniform)
                ops /= m->subgroup;
            double s = ops / fmax(addrs, 1) * per_addr_ns * 1e-3;
            if (s > serial)
                serial = s;
        }
        add(ts, "atomic", fmax(t, fmax(serial, guessed_serial)));
    }
}

static void compute_terms(model *m, terms *ts, acc_cost *cost)
{
    const kernel_counts *c = m->c;
    double imb = m->imbalance;
    (void)cost;

    /* DRAM, L2, L1, workgroup memory (model_memterms.h).  On a CPU device
     * cache and workgroup-memory traffic is costed per lane access in the
     * issue term (llvmpipe moves lanes one by one); a bandwidth term would
     * count it twice. */
    if (m->is_cpu)
        add(ts, "dram", dram_transfer_us(&m->dram, m->dram_read, m->dram_write,
                                         m->dram_pages, m->dram_write_pages));
    else
        memory_terms(m, ts);

    /* a kept loop's control takes issue slots from whatever pipe its body
     * uses (model_compiled.h) */
    double ctl_us = m->loops.issue_us * imb;
    if (c->flops_fp32 > 0)
        add(ts, "fp32", c->flops_fp32 / (m->fp32_pus * fp_hiding(m, m->fp32_pus)) * imb +
                            ctl_us);
    if (c->flops_fp16 > 0)
        add(ts, "fp16", c->flops_fp16 / (m->fp16_pus * fp_hiding(m, m->fp16_pus)) * imb);
    if (c->flops_fp64 > 0)
        add(ts, "fp64", c->flops_fp64 / (m->fp64_pus * fp_hiding(m, m->fp64_pus)) * imb);
    if (c->sfu_ops > 0)
        add(ts, "sfu", c->sfu_ops / m->sfu_pus * imb);
    if (c->int_ops > 0)
        add(ts, "int", (c->int_ops - m->loops.ctl_int_ops) / m->int_pus * imb + ctl_us);

    /* issue: every executed instruction; on lavapipe buffer accesses go
     * lane by lane, so they cost per lane */
    /* On a GPU the FP, SFU and integer operations have their own pipe
     * terms; the issue term takes the counted instructions none of them
     * covers (moves, conversions, compares, branches, address arithmetic
     * the evaluator does not count as integer work), FP instructions
     * taken as FMAs (2 FLOPs each).  lavapipe issues everything through
     * one vector pipe per core: all instructions. */
    double issue_instr = c->instructions - m->loops.ctl_instructions;
    if (!m->is_cpu) {
        double fp_instr = (c->flops_fp16 + c->flops_fp32 + c->flops_fp64) / 2;
        issue_instr -= fp_instr + c->int_ops - m->loops.ctl_int_ops + c->sfu_ops;
        if (issue_instr < 0)
            issue_instr = 0;
    }
    double issue = issue_instr / m->issue_pus;
    if (m->is_cpu) {
        double cyc_per_us = m->units * m->clock_ghz * 1e3;
        /* each class of counted instruction at its own cost (model_lavapipe.h) */
        issue = lp_instruction_cycles(m->p, c, m->cpu_instr_cyc, m->subgroup) /
                cyc_per_us;
        /* no FP16 vector arithmetic with AVX2: llvmpipe widens the three
         * operands of an FMA to FP32 and rounds the result back */
        issue += c->flops_fp16 * m->cpu_fp16_conv / m->issue_pus;
        issue += (m->lane_storage * m->cpu_storage_cyc +
                  m->lane_shared * m->cpu_shared_cyc) / cyc_per_us;
        /* workgroup starts and each one's subgroups (model_lavapipe.h) */
        issue += lp_dispatch_ns(m->p, (double)m->groups, (double)m->wg,
                                m->subgroup, m->cpu_group_ns, m->clock_ghz) *
                 1e-3 / m->units;
    }
    if (!m->is_cpu)
        issue = fmax(issue, mc_issue_slots_us(m->p, c, &m->loops, m->fp32_pus / 2));
    add(ts, "issue", issue * imb + ctl_us);

    atomic_term(m, ts);

    /* workgroup starts: the device starts workgroups at a finite rate
     * (calibrate's empty kernel of many workgroups, device time per
     * group); a dispatch of many short groups cannot finish sooner */
    if (!m->is_cpu && m->p->group_start_ns > 0 && isfinite(m->p->group_start_ns))
        add(ts, "groups", (double)m->groups * m->p->group_start_ns * 1e-3);

    /* barriers: cheap on a GPU (part of latency), coroutine switches on
     * lavapipe */
    if (m->is_cpu && c->barriers > 0)
        add(ts, "barrier", c->barriers * (double)m->wg *
                               m->cpu_barrier_ns * 1e-3 / m->units *
                               imb);

    /* latency on a CPU device: each 8-lane vector walks its dependent FP
     * chain (flops per invocation / 2 per FMA step / independent chains)
     * one step per loop iteration of llvmpipe's generated code. */
    if (m->is_cpu) {
        double active = c->active_invocations ? (double)c->active_invocations
                                              : (double)c->invocations;
        double fl = c->flops_fp16 + c->flops_fp32 + c->flops_fp64;
        int chains = c->fp_chains > 0 ? c->fp_chains : 1;
        if (active > 0 && fl > 0) {
            double steps = fl / active / 2 / chains;
            double vectors = ceil(active / m->subgroup);
            add(ts, "latency", vectors * steps * m->cpu_chain_cyc /
                                   (m->clock_ghz * 1e3) / m->units * imb);
        }
    }
    /* the GPU path last: a tie with a pipe term names the pipe */
    if (!m->is_cpu)
        add(ts, "latency", m->latency_term);
}

/* ---- 5. ideal ---- */

static double ideal_us(const model *m)
{
    const kernel_counts *c = m->c;
    double t = (c->compulsory_read_bytes + c->compulsory_write_bytes) /
               m->dram_bpus;
    t = fmax(t, c->flops_fp32 / m->fp32_pus);
    t = fmax(t, c->flops_fp16 / m->fp16_pus);
    t = fmax(t, c->flops_fp64 / m->fp64_pus);
    t = fmax(t, c->sfu_ops / m->sfu_pus);
    return t + m->launch_us;
}

/* ---- 6. findings ---- */

static const char *var_name(const access_summary *a)
{
    return a->var && a->var[0] ? a->var : "a buffer";
}

/* uncoalesced-access: an access that fetches at least twice the sectors it
 * needs (the simulated sectors per request where simulated, else the
 * stride rule), when its share of the memory term that binds costs time. */
static void uncoalesced_findings(model *m, const terms *ts,
                                 const acc_cost *cost, double time)
{
    const kernel_counts *c = m->c;
    char t1[32], t2[32];
    units_time_us(t2, sizeof t2, time);
    double dram_t = term_us(ts, "dram"), l2_t = term_us(ts, "l2"),
           l1_t = term_us(ts, "l1");
    for (size_t i = 0; i < c->naccesses; i++) {
        const access_summary *a = &c->accesses[i];
        const acc_cost *ac = &cost[i];
        if (!is_global(a))
            continue;
        double got = ac->got, best = ac->best;
        if (a->sim_execs > 0 && !a->uniform)
            got = a->sim_l1_sectors * m->subgroup; /* a full subgroup */
        if (a->sim_merge && a->sim_execs > 0) /* its piece's bytes */
            best = ceil_div(m->subgroup * a->sim_lane_bytes, m->sector);
        if (best <= 0 || got < 2 * best)
            continue;
        /* time of this access: its share of the memory term that binds */
        double share_d = m->dram_bytes > 0 ? dram_t * ac->dram / m->dram_bytes : 0;
        double share_l = m->l2_bytes_moved > 0
                             ? l2_t * ac->moved / m->l2_bytes_moved
                             : 0;
        double share_1 = m->l1_bytes > 0 && l1_t > 0
                             ? l1_t * ac->l1 / m->l1_bytes
                             : 0;
        double cost_us = fmax(share_d, fmax(share_l, share_1));
        if (cost_us < 0.1 * (time - m->launch_us))
            continue;
        const char *which = share_d >= fmax(share_l, share_1) ? "dram"
                           : share_l >= share_1             ? "l2"
                                                            : "l1";
        double b = a->bytes ? a->bytes : 4;
        double stride_el = (double)llabs(a->lane_stride_bytes) / b;
        units_time_us(t1, sizeof t1, cost_us);
        finding *f = report_add_finding(
            m->kr, FINDING_UNCOALESCED_ACCESS, SEV_WARNING, m->file, a->line,
            "make neighbouring invocations (gl_LocalInvocationID.x) touch "
            "neighbouring elements, or stage the tile through shared memory",
            "%s is %s with stride %.0f elements (%lld bytes) across the "
            "subgroup: %.0f %u-byte transactions per request instead of %.0f; "
            "%s of the predicted %s (%s term)",
            var_name(a), a->is_store ? "written" : "read", stride_el,
            (long long)a->lane_stride_bytes, got, m->sector, best, t1, t2,
            which);
        finding_detail_str(f, "term", which);
        finding_detail_int(f, "stride_bytes", (long long)a->lane_stride_bytes);
        finding_detail_int(f, "transactions", llround(got));
        finding_detail_int(f, "ideal_transactions", llround(best));
        finding_detail_real(f, "time_us", cost_us);
    }
}

/* partial-sector-write: stores whose sectors L2 could not complete from
 * the stores of neighbouring invocations (write merging failed), so each
 * is read from DRAM and merged before its write-back (the simulation's
 * read-modify-write sectors), when those reads cost time. */
static void partial_write_findings(model *m, const terms *ts,
                                   const acc_cost *cost, double time)
{
    const kernel_counts *c = m->c;
    double dram_t = term_us(ts, "dram");
    for (size_t i = 0; i < c->naccesses; i++) {
        const access_summary *a = &c->accesses[i];
        if (!a->is_store || a->is_atomic || a->sim_dram_rmw_sectors <= 0 ||
            cost[i].known <= 0 || m->dram_bytes <= 0)
            continue;
        double rmw = a->count * cost[i].known * a->sim_dram_rmw_sectors *
                     m->sector;
        double written = a->count * (a->bytes ? a->bytes : 4);
        double cost_us = dram_t * rmw / m->dram_bytes;
        if (cost_us < 0.1 * (time - m->launch_us))
            continue;
        char t1[32], t2[32], mb[32];
        units_time_us(t1, sizeof t1, cost_us);
        units_time_us(t2, sizeof t2, time);
        snprintf(mb, sizeof mb, "%.1f MB", rmw / 1e6);
        finding *f = report_add_finding(
            m->kr, FINDING_PARTIAL_SECTOR_WRITE, SEV_WARNING, m->file,
            a->line,
            "let neighbouring invocations store neighbouring elements, or "
            "collect the values in shared memory and write whole sectors",
            "%s is written in parts of %u-byte sectors that no other store "
            "completes: each is read from DRAM and merged before it is "
            "written back (%s read for %.1f MB stored); %s of the predicted "
            "%s (dram term)",
            var_name(a), m->sector, mb, written / 1e6, t1, t2);
        finding_detail_str(f, "term", "dram");
        finding_detail_real(f, "rmw_bytes", rmw);
        finding_detail_real(f, "stored_bytes", written);
        finding_detail_real(f, "time_us", cost_us);
    }
}

static void findings(model *m, const terms *ts, const acc_cost *cost,
                     const char *bound, double time)
{
    const kernel_counts *c = m->c;
    kernel_report *kr = m->kr;
    if (!kr)
        return;
    char t1[32], t2[32], t3[32];
    units_time_us(t2, sizeof t2, time);

    uncoalesced_findings(m, ts, cost, time);
    partial_write_findings(m, ts, cost, time);

    /* local-memory-array: what the counts found, not priced (section 8) */
    if (c->local_accesses > 0 && !m->is_cpu) {
        double inv = c->active_invocations ? (double)c->active_invocations : 1;
        finding *f = report_add_finding(
            kr, FINDING_LOCAL_MEMORY_ARRAY, SEV_WARNING, m->file, c->local_lines[0],
            "index it with constants only: run the loop to a constant bound with "
            "a guard (for (k = 0; k < N; k++) if (k < n) ...) so that it "
            "unrolls, or keep the values in workgroup memory",
            "private array '%s' is indexed by a value the compiler cannot fold "
            "(a kept loop's counter or a run-time value) at line(s) %s: the "
            "driver places it in local memory and its %.4g loads and stores per "
            "invocation there go through L1 and L2; the predicted %s does not "
            "include them (on an H200 such a loop took a softmax from 107.8 to "
            "196.5 µs)",
            c->local_var, c->local_where, c->local_accesses / inv, t2);
        finding_detail_str(f, "variable", c->local_var);
        finding_detail_real(f, "accesses_per_invocation", c->local_accesses / inv);
    }

    /* bank-conflict */
    double sh_t = term_us(ts, "shared");
    for (size_t i = 0; i < c->naccesses; i++) {
        const access_summary *a = &c->accesses[i];
        const acc_cost *ac = &cost[i];
        if (a->space != SPACE_SHARED || ac->degree < 2)
            continue;
        double used = a->count * (a->bytes ? a->bytes : 4);
        double cost_us = m->shared_eff_bytes > 0
                             ? sh_t * used * ac->degree / m->shared_eff_bytes
                             : 0;
        if (cost_us < 0.1 * (time - m->launch_us))
            continue; /* real, but not what the time is made of */
        units_time_us(t1, sizeof t1, cost_us);
        finding *f = report_add_finding(
            kr, FINDING_BANK_CONFLICT, SEV_WARNING, m->file, a->line,
            "pad the shared array (e.g. [N][N+1]) so that neighbouring "
            "invocations fall in different banks",
            "%s is accessed with stride %lld bytes across the subgroup: "
            "%.0f-way bank conflict over %u banks; %s of the predicted %s",
            var_name(a), (long long)a->lane_stride_bytes, ac->degree, m->banks,
            t1, t2);
        finding_detail_str(f, "term", "shared");
        finding_detail_int(f, "degree", llround(ac->degree));
        finding_detail_int(f, "stride_bytes", (long long)a->lane_stride_bytes);
        finding_detail_real(f, "time_us", cost_us);
    }

    /* low-occupancy: GPU only, when the machine is otherwise full */
    if (!m->is_cpu && m->occupancy < 0.25 && m->groups >= m->units) {
        const char *why = strcmp(bound, "dram") == 0 ? "limits the bytes in flight (Little's law)"
                          : strcmp(bound, "latency") == 0 ? "leaves latency unhidden"
                                                           : "limits latency hiding";
        units_time_us(t1, sizeof t1, term_us(ts, bound));
        int by_regs = strcmp(m->resident_limit, "registers") == 0;
        char lim[64];
        if (by_regs)
            snprintf(lim, sizeof lim, "registers: %u per invocation",
                     m->regs);
        else
            snprintf(lim, sizeof lim, "%s", m->resident_limit);
        finding *f = report_add_finding(
            kr, FINDING_LOW_OCCUPANCY, SEV_WARNING, m->file, 0,
            by_regs ? "keep fewer values live per invocation (smaller "
                      "unrolls, fewer temporaries) or use smaller workgroups"
                    : "use fewer resources per workgroup (workgroup memory, "
                      "size) or more independent work per invocation",
            "%u workgroup(s) of %llu invocations resident per unit (limited "
            "by %s): %.0f%% occupancy %s; %s term %s of the predicted %s",
            m->resident, (unsigned long long)m->wg, lim,
            m->occupancy * 100, why, bound, t1, t2);
        finding_detail_str(f, "term", bound);
        finding_detail_real(f, "occupancy", m->occupancy);
        finding_detail_uint(f, "resident_groups", m->resident);
        finding_detail_str(f, "limit", m->resident_limit);
        if (m->regs)
            finding_detail_uint(f, "registers_per_invocation", m->regs);
    }

    /* small-dispatch: units left idle, or the launch dominates */
    if (m->groups < m->units || m->launch_us >= 0.5 * time) {
        char rest[96] = "";
        units_time_us(t1, sizeof t1, m->launch_us);
        if (strcmp(bound, "launch") != 0) {
            units_time_us(t3, sizeof t3, term_us(ts, bound));
            snprintf(rest, sizeof rest, " and %s %s", bound, t3);
        }
        finding *f = report_add_finding(
            kr, FINDING_SMALL_DISPATCH, SEV_WARNING, m->file, 0,
            "batch more work into one dispatch (more workgroups, or several "
            "items per invocation)",
            "%llu workgroup(s) for %u units%s; launch %s%s of the predicted %s",
            (unsigned long long)m->groups, m->units,
            m->groups < m->units ? " leaves units idle" : "", t1, rest, t2);
        finding_detail_str(f, "term", m->launch_us >= 0.5 * time ? "launch" : bound);
        finding_detail_uint(f, "workgroups", (unsigned long long)m->groups);
        finding_detail_uint(f, "units", m->units);
        finding_detail_real(f, "launch_us", m->launch_us);
    }

    /* tail-effect: a few waves, the last one mostly empty */
    if (m->waves >= 2 && m->waves <= 8) {
        double last = (double)m->groups - (m->waves - 1) * m->slots;
        double fill = last / m->slots;
        double lost = (m->waves * m->slots - (double)m->groups) /
                      (m->waves * m->slots);
        if (fill < 0.5 && lost >= 0.1) {
            double body = time - m->launch_us;
            units_time_us(t1, sizeof t1, body * lost);
            finding *f = report_add_finding(
                kr, FINDING_TAIL_EFFECT, SEV_WARNING, m->file, 0,
                "make the workgroup count a multiple of the resident slots, "
                "or give each workgroup less work",
                "%llu workgroups in %.0f waves of %.0f: the last wave is "
                "%.0f%% full and idles %.0f%% of the machine; about %s of "
                "the predicted %s",
                (unsigned long long)m->groups, m->waves, m->slots, fill * 100,
                lost * 100, t1, t2);
            finding_detail_str(f, "term", bound);
            finding_detail_int(f, "waves", llround(m->waves));
            finding_detail_int(f, "slots", llround(m->slots));
            finding_detail_real(f, "last_wave_fill", fill);
        }
    }
}

/* The one change that would move the binding term, by what made it bind
 * (issue 16: not the same generic text for every kernel). */
static const char *far_below_hint(const model *m, const terms *ts,
                                  const acc_cost *cost, const char *bound)
{
    const kernel_counts *c = m->c;
    if (strcmp(bound, "dram") == 0) {
        double comp = c->compulsory_read_bytes + c->compulsory_write_bytes;
        if (m->dram_limited_by_inflight)
            return "put more bytes in flight: several independent loads or "
                   "vec4 loads per invocation, or more resident workgroups "
                   "(the DRAM term is bound by Little's law, not bandwidth)";
        if (comp > 0 && m->dram_bytes > 1.5 * comp)
            return "fetch each byte from DRAM once: coalesce the access "
                   "(neighbouring invocations, neighbouring elements) or "
                   "stage the reused data through workgroup memory";
        return "the kernel moves its compulsory bytes at DRAM bandwidth: only "
               "fewer bytes move it (smaller types, fusing with the kernel "
               "that produces or consumes the data)";
    }
    if (strcmp(bound, "l2") == 0 || strcmp(bound, "l1") == 0)
        return "reuse comes from the cache: tile the reused data through "
               "workgroup memory (or registers) so each element is fetched "
               "once per workgroup";
    if (strcmp(bound, "shared") == 0) {
        for (size_t i = 0; i < c->naccesses; i++)
            if (c->accesses[i].space == SPACE_SHARED && cost[i].degree >= 2)
                return "pad the shared array (e.g. [N][N+1]) to remove the "
                       "bank conflicts that multiply the workgroup-memory "
                       "term";
        return "do more work per workgroup-memory access: keep values in "
               "registers (register blocking) instead of re-reading them";
    }
    if (strncmp(bound, "fp", 2) == 0) {
        double peak = strcmp(bound, "fp16") == 0   ? m->fp16_pus
                      : strcmp(bound, "fp64") == 0 ? m->fp64_pus
                                                   : m->fp32_pus;
        if (fp_hiding(m, peak) < 1)
            return "give each invocation more independent FP chains (unroll "
                   "with separate accumulators): the dependent chain leaves "
                   "the FP units idle";
        return "the FP units are at their peak: use a cheaper precision or "
               "fewer operations per result";
    }
    if (strcmp(bound, "atomic") == 0)
        return "privatise the contended counters: accumulate per workgroup "
               "in workgroup memory (or per subgroup with subgroupAdd) and "
               "issue one global atomic per group";
    if (strcmp(bound, "latency") == 0)
        return m->groups < m->units
                   ? "launch more workgroups: the dispatch leaves units idle "
                     "and its time is one invocation's dependent path"
                   : "shorten the dependent path of one invocation (fewer "
                     "dependent loads, barriers or chained operations)";
    if (strcmp(bound, "issue") == 0)
        return "execute fewer instructions per invocation: hoist "
               "loop-invariant work out of loops, simplify index arithmetic";
    if (strcmp(bound, "barrier") == 0)
        return "use fewer barriers per workgroup (subgroup operations "
               "instead of workgroup-memory steps)";
    if (strcmp(bound, "sfu") == 0)
        return "replace special functions (division, sqrt, exp) with "
               "multiplications or precomputed values";
    if (strcmp(bound, "groups") == 0)
        return "do more work per workgroup (several elements per "
               "invocation, larger workgroups): the device starts workgroups "
               "no faster than its measured rate";
    if (strcmp(bound, "int") == 0)
        return "simplify integer index arithmetic (strength-reduce "
               "divisions and modulos by constants)";
    (void)ts;
    return "batch more work into one dispatch: the launch overhead is the "
           "time";
}

static void far_below(model *m, const terms *ts, const acc_cost *cost,
                      const char *bound, double time, double ideal)
{
    if (!m->kr || time <= 0)
        return;
    verdict_far_below_roofline(m->kr, m->file, "predicted", bound,
                               term_us(ts, bound), time, ideal,
                               m->k ? m->k->min_efficiency : -1,
                               far_below_hint(m, ts, cost, bound));
}

/* Traffic and terms for the current scenario; returns the largest term
 * (what follows launch) and names it in *bound. */
static double evaluate(model *m, acc_cost *cost, terms *ts,
                       const char **bound)
{
    traffic(m, cost);
    ts->n = 0;
    compute_terms(m, ts, cost);
    double worst = 0;
    *bound = "launch";
    for (int i = 0; i < ts->n; i++)
        if (ts->t[i].us > worst) {
            worst = ts->t[i].us;
            *bound = ts->t[i].name;
        }
    /* On a CPU device one thread does the instructions and the barrier
     * switches of a workgroup one after the other: they add up. */
    if (m->is_cpu) {
        double is = term_us(ts, "issue"), ba = term_us(ts, "barrier");
        if (is + ba > worst) {
            worst = is + ba;
            *bound = ba > is ? "barrier" : "issue";
        }
    }
    if (m->launch_us >= worst)
        *bound = "launch";
    return worst;
}

void model_predict(const kernel_counts *c, const reflection *refl,
                   const plan_kernel *k, const device_profile *prof,
                   prediction *pred, kernel_report *kr)
{
    if (!c || !prof || !pred)
        return;
    model m;
    memset(&m, 0, sizeof m);
    m.c = c;
    m.refl = refl;
    m.k = k;
    m.p = prof;
    m.pred = pred;
    m.kr = kr;
    m.file = k && k->shader_path ? k->shader_path
             : kr ? kr->shader
                  : NULL;

    for (size_t i = 0; i < c->nassumptions; i++)
        prediction_add_assumption(pred, "%s", c->assumptions[i]);
    if (prof->source == PROFILE_LIMITS_ONLY)
        prediction_add_assumption(pred, "no measured or built-in profile for "
                                  "this device: ceilings are assumptions");

    resolve(&m);
    memory_launch(&m);
    occupancy(&m);
    mc_loop_control(prof, c, m.fp32_pus / 2, c->invocations ? (double)c->invocations
                                            : (double)m.groups * (double)m.wg, &m.loops);
    if (m.loops.on)
        prediction_add_assumption(pred, "loop control of the kept loops at calibrate's "
                                  "per-trip costs (%.3g issue slots, %.3g cycles a trip), "
                                  "not as counted instructions", prof->loop_trip_slots,
                                  prof->loop_trip_cycles);
    acc_cost *cost = xcalloc(c->naccesses ? c->naccesses : 1, sizeof *cost);
    /* the high end of the range first: every guessed address at its worst;
     * with addresses drawn from their range (model_draw.h) the ends leave
     * them unknown and the low end is the best case; then the prediction
     * itself, which leaves m as the findings need it */
    terms worst_ts = {0};
    m.worst_case = 1;
    const char *bound;
    if (c->undrawn)
        m.c = c->undrawn;
    double high = evaluate(&m, cost, &worst_ts, &bound);
    m.worst_case = 0;
    double low = INFINITY;
    if (c->undrawn) {
        m.guessed = 0;
        terms best_ts = {0};
        low = m.launch_us + evaluate(&m, cost, &best_ts, &bound);
        m.c = c;
    }
    int guessed_undrawn = c->undrawn && m.guessed;
    m.guessed = 0;
    terms ts = {0};
    double worst = evaluate(&m, cost, &ts, &bound);
    m.guessed |= guessed_undrawn;
    for (int i = 0; i < ts.n; i++)
        prediction_add_term(pred, ts.t[i].name, ts.t[i].us);
    prediction_add_term(pred, "launch", m.launch_us);

    pred->valid = 1;
    pred->time_us = m.launch_us + worst;
    pred->ideal_time_us = ideal_us(&m);
    if (pred->ideal_time_us > pred->time_us)
        pred->ideal_time_us = pred->time_us;
    cw_set_str(&pred->bound, bound);
    pred->flops = c->flops_fp16 + c->flops_fp32 + c->flops_fp64;
    pred->bytes = c->compulsory_read_bytes + c->compulsory_write_bytes;
    pred->invocations = c->invocations;
    pred->conf = c->conf;
    if (m.guessed && c->conf != CONF_UNKNOWN) {
        /* a term rests on a guess: an estimate with its range */
        pred->conf = CONF_ESTIMATED;
        pred->time_low_us = fmin(pred->time_us, low);
        pred->time_high_us = fmax(pred->time_us, m.launch_us + high);
        char lo[32], hi[32];
        units_time_us(lo, sizeof lo, pred->time_low_us);
        units_time_us(hi, sizeof hi, pred->time_high_us);
        prediction_add_assumption(pred, "addresses or atomics depend on "
                                  "buffer contents: %s to %s (best case: "
                                  "coalesced and reused; worst: a sector per "
                                  "lane from DRAM, atomics on one address)",
                                  lo, hi);
    }

    if (c->conf == CONF_UNKNOWN) {
        /* no counts to stand on: a prediction of launch and workgroup
         * costs only, and no finding built on guesses */
        prediction_add_assumption(pred, "the evaluator produced no counts: "
                                  "only launch and per-workgroup costs are "
                                  "modelled, no performance findings");
    } else {
        findings(&m, &ts, cost, bound, pred->time_us);
        far_below(&m, &ts, cost, bound, pred->time_us, pred->ideal_time_us);
    }
    free(cost);
}
