/* model_traffic.c - simulated traffic and contention (see model_traffic.h).
 *
 * It drives the evaluator through its internal interface (eval_int.h:
 * ev_ctx_new / ev_group_run) because it chooses which workgroups run; the
 * accesses come only through the public observer (eval.h). */
#include "model_traffic.h"
#include "model_dram.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "cachesim.h"
#include "contention.h"
#include "eval_merge.h"
#include "model_l2share.h"
#include "model_draw.h"
#include "model_tlb.h"
#include "eval_int.h"

#define SIM_WINDOW 4          /* consecutive workgroups simulated together */
#define SIM_ALL_BELOW 12      /* dispatches this small are simulated whole */
#define SIM_STEPS_PER_GROUP 1.5e6 /* evaluator lane-steps per group */
#define SIM_MAX_LANES 128     /* lanes of one subgroup request */
#define SIM_BUFFER_SHIFT 40   /* each binding gets its own 2^40-byte range */
#define SIM_NEIGHBOUR_DIMS 2  /* earlier neighbours warmed: in y and in z */

/* Per access of kc (indexed like kc->accesses). */
typedef struct acc_sim {
    double execs, unknown;
    /* addresses drawn from a range: the ranges' hull, clipped to the
     * buffer (the footprint over the dispatch) */
    uint64_t draw_lo, draw_hi;
    int drawn;
    double l1, l1_lines, l1_slots, l2, l2_lines, l2_hit, l2_partial, l2_open, dram, pages, wpages, rmw;
    double wpage_sectors;     /* whole sectors beyond the first written at
                                 a write page opening */
    double bank_passes, bank_ideal; /* workgroup memory, summed */
    double lane_bytes;        /* bytes of the lanes of its requests */
    double request_lanes;     /* lanes of its requests */
    double merged_in;         /* lane executions carried by another
                                 access's merged request */
    double carried;           /* merged requests it led */
    double runs, run_members; /* of those, runs of separate requests
                                 (eval_merge.h): how many, their members */
    double run_stores;        /* store requests of its runs */
    double folded;            /* lane executions the compiler's wider
                                 access replaced (no instruction of their
                                 own) */
    /* translation (model_tlb.h): the L1-missed line requests of scattered
     * loads, line requests of scattered stores and atomics, and the
     * scattered requests' span per workgroup (the current group's hull) */
    double scat_rlines, scat_wlines, span_sum, span_groups;
    uint64_t g_lo, g_hi;
    int g_seen;
    uint32_t step_req;        /* scattered requests in the current step */
} acc_sim;

/* One request of a merge piece (eval_merge.h), held until the piece's
 * last member arrives. */
typedef struct held_req {
    uint32_t inst, n;
    uint32_t inv[SIM_MAX_LANES];
    uint64_t addr[SIM_MAX_LANES];
    uint32_t size[SIM_MAX_LANES];
} held_req;

typedef struct held {          /* a subgroup's piece being gathered */
    uint32_t lead, n, cls;
    eval_access_kind kind;
    held_req r[EV_MERGE_MAX_MEMBERS];
} held;

typedef struct sim {
    const kernel_counts *kc;
    const device_profile *p;
    uint32_t *acc_of_inst;    /* instruction -> kc access index, or ~0 */
    size_t ninst;
    acc_sim *acc;
    cachesim *cs;
    ct_table *global_ct;
    ct_table *slice_ct;       /* ns of work per L2 atomic unit; NULL: not
                                 modelled (profile lacks the constants) */
    ct_table *shared_ct;      /* current group's workgroup memory */
    double shared_busiest, shared_requests;
    double shared_conflict_slots; /* lane slots bank conflicts add */
    uint32_t slot;            /* window position: the group's L1 */
    int warming;              /* running a window's earlier neighbours:
                                 their requests only fill L2 */
    int tlb_on;               /* the profile prices translation misses */
    uint32_t sg_per_group;    /* subgroups of a workgroup: a step's requests */
    uint32_t line;            /* line bytes (sim_geom's cs.line_bytes) */
    uint32_t group_linear;
    int combine, shared_combine;
    /* binding -> address range */
    uint32_t bset[64], bbind[64];
    size_t nbind;
    /* the subgroup request being gathered */
    int pend;
    uint32_t p_inst, p_sg, p_class;
    uint32_t p_last_inv;      /* the last lane added to the request */
    eval_access_kind p_kind;
    uint32_t p_n;
    uint64_t p_addr[SIM_MAX_LANES];
    uint32_t p_size[SIM_MAX_LANES];
    uint32_t p_inv[SIM_MAX_LANES];
    /* a run of separate stores sent as the request: its members' bytes a
     * lane (p_member[k * p_n + lane]); p_members 0: one instruction */
    uint32_t p_members;
    uint32_t p_member[EV_MERGE_MAX_MEMBERS * SIM_MAX_LANES];
    double global_atomic_execs;
    double global_atomic_passes; /* sector passes at the L2 atomic units */
    /* accesses the compiler merges (eval_merge.h), planned on the first
     * window's evaluator; per subgroup the piece being gathered */
    ev_merge mg;
    int mg_planned;
    held **hold;
    uint32_t nhold;
    double merged_requests;   /* requests carrying a merged piece */
    double run_requests;      /* requests carrying an unmerged run */
    /* addresses from buffer contents drawn from their range (model_draw.h);
     * drawing 0: left out of the stream */
    int drawing;
    int branch_guessed;       /* a sampled group took a branch on contents
                                 it did not have (both sides run) */
    int lanes_sampled;        /* a group ran fewer lanes than it has */
    draw_state draw;
    /* the plan's buffers' bytes, once (buffer_extent) */
    uint32_t ext_set[64], ext_bind[64];
    uint64_t ext_bytes[64];
    size_t next;
} sim;

static uint64_t buffer_base(sim *s, uint32_t set, uint32_t binding)
{
    for (size_t i = 0; i < s->nbind; i++)
        if (s->bset[i] == set && s->bbind[i] == binding)
            return (uint64_t)(i + 1) << SIM_BUFFER_SHIFT;
    if (s->nbind < 64) {
        s->bset[s->nbind] = set;
        s->bbind[s->nbind] = binding;
        s->nbind++;
        return (uint64_t)s->nbind << SIM_BUFFER_SHIFT;
    }
    return (uint64_t)65 << SIM_BUFFER_SHIFT; /* the rest share one range */
}

/* The plan's buffer sizes, read once for the simulation. */
static void note_extents(sim *s, const reflection *r, const plan_kernel *k)
{
    for (size_t i = 0; i < k->nbuffers && s->next < 64; i++) {
        const plan_buffer *b = &k->buffers[i];
        uint64_t bytes = 0;
        if (verifier_buffer_bytes(r, k, b, &bytes, NULL))
            continue;
        s->ext_set[s->next] = b->set;
        s->ext_bind[s->next] = b->binding;
        s->ext_bytes[s->next++] = bytes;
    }
}

/* Bytes of the buffer at (set, binding) from the plan; 0 when unknown. */
static uint64_t buffer_extent(const sim *s, uint32_t set, uint32_t binding)
{
    for (size_t i = 0; i < s->next; i++)
        if (s->ext_set[i] == set && s->ext_bind[i] == binding)
            return s->ext_bytes[i];
    return 0;
}

/* The 4-byte words of lanes [l0, l1) of the request (a lane of b bytes
 * touches ceil(b / 4)); returns their number. */
static uint32_t request_words(const sim *s, uint32_t l0, uint32_t l1, uint64_t *words)
{
    uint32_t n = 0;
    for (uint32_t l = l0; l < l1; l++) {
        uint32_t w = (s->p_size[l] + 3) / 4;
        for (uint32_t j = 0; j < w && j < 16; j++)
            words[n++] = s->p_addr[l] / 4 * 4 + 4 * (uint64_t)j;
    }
    return n;
}

/* A workgroup-memory load or store: the bank passes its lanes' 4-byte
 * words take (ct_bank_passes) against the fewest its words allow
 * (ceil(distinct / banks)).  Lanes wider than a word (b bytes) move
 * banks x 4 bytes a pass: with shared_wide_broadcast the request's
 * distinct words decide its passes, priced against its lanes' words (so
 * lanes of two phases on the same words share their passes); otherwise
 * it is served in phases of banks x 4 / b consecutive lanes (NVIDIA: 16
 * for 64-bit, 8 for 128-bit accesses), each phase's conflicts apart. */
static void shared_request(sim *s, acc_sim *as)
{
    uint32_t banks = s->p->shared_banks;
    if (banks < 2)
        return; /* no banks known (lavapipe): no conflicts */
    uint32_t L = s->p->limits.subgroup_size ? s->p->limits.subgroup_size : 32, wide = 4;
    for (uint32_t l = 0; l < s->p_n; l++)
        if (s->p_size[l] > wide)
            wide = s->p_size[l];
    uint64_t words[SIM_MAX_LANES * 16];
    uint32_t distinct = 0;
    if (wide > 4 && s->p->shared_wide_broadcast > 0) {
        uint32_t n = request_words(s, 0, s->p_n, words);
        uint32_t passes = ct_bank_passes(words, n, banks, 4, &distinct);
        as->bank_passes += (double)passes * banks; /* words they move */
        as->bank_ideal += n;                       /* words the lanes take */
        return;
    }
    uint32_t per_phase = wide > 4 ? banks * 4 / wide : SIM_MAX_LANES;
    if (!per_phase)
        per_phase = 1;
    for (uint32_t l0 = 0; l0 < s->p_n;) {
        uint32_t phase = s->p_inv[l0] % L / per_phase, l = l0;
        while (l < s->p_n && s->p_inv[l] % L / per_phase == phase)
            l++;
        uint32_t n = request_words(s, l0, l, words);
        uint32_t passes = ct_bank_passes(words, n, banks, 4, &distinct);
        as->bank_passes += passes;
        as->bank_ideal += (distinct + banks - 1) / banks;
        l0 = l;
    }
}

/* The current step's hull of an access (model_tlb.h): one execution of
 * it by every subgroup of the group, the span its scattered requests
 * reach at once. */
static void tlb_step_done(acc_sim *as)
{
    if (!as->g_seen)
        return;
    as->span_sum += (double)(as->g_hi - as->g_lo);
    as->span_groups += 1;
    as->g_seen = 0;
    as->step_req = 0;
}

/* A buffer request's share of the translation term (model_tlb.h): is it
 * scattered, how far one step of the group's scattered requests reaches,
 * and its line requests at L2: a load's that missed L1 (missed_lines, the
 * cache model's count for this request), a store's or atomic's all (every
 * one reaches L2). */
static void tlb_note(sim *s, acc_sim *as, csim_op op, double missed_lines)
{
    uint32_t line = s->line;
    uint32_t lines;
    if (!tlb_request_scattered(s->p_addr, s->p_size, s->p_n, line, &lines))
        return;
    if (as->step_req >= s->sg_per_group)
        tlb_step_done(as);
    as->step_req++;
    for (uint32_t i = 0; i < s->p_n; i++) {
        uint64_t a = s->p_addr[i], e = a + s->p_size[i];
        if (!as->g_seen || a < as->g_lo)
            as->g_lo = a;
        if (!as->g_seen || e > as->g_hi)
            as->g_hi = e;
        as->g_seen = 1;
    }
    if (op != CSIM_LOAD)
        as->scat_wlines += lines;
    else
        as->scat_rlines += missed_lines;
}

/* The end of a simulated group: its last step per access. */
static void tlb_group_done(sim *s)
{
    for (size_t i = 0; i < s->kc->naccesses; i++)
        tlb_step_done(&s->acc[i]);
}

/* The gathered request s->p_* through the cache model, the bank count or
 * the contention tables. */
static void send_request(sim *s)
{
    uint32_t tag = s->acc_of_inst[s->p_inst];
    if (!s->warming) {
        for (uint32_t l = 0; l < s->p_n; l++)
            s->acc[tag].lane_bytes += s->p_size[l];
        s->acc[tag].request_lanes += s->p_n;
    }
    if (s->warming && (s->p_class == SpvStorageClassWorkgroup ||
                       s->p_kind == EVAL_ACCESS_ATOMIC))
        return; /* an earlier neighbour: only its buffer data matters */
    if (s->p_class == SpvStorageClassWorkgroup &&
        s->p_kind != EVAL_ACCESS_ATOMIC) {
        shared_request(s, &s->acc[tag]);
        return;
    }
    if (s->p_class == SpvStorageClassWorkgroup) {
        ct_request(s->shared_ct, 0, s->p_addr, s->p_n, s->shared_combine, 1);
        /* a k-way bank conflict takes k passes of the instruction's lanes
         * at the rate calibrate measured conflict-free (lane i, word i) */
        if (s->p->shared_banks < 2)
            return; /* no banks known (lavapipe): no conflicts */
        uint32_t words = 0;
        uint32_t passes = ct_bank_passes(s->p_addr, s->p_n, s->p->shared_banks,
                                         4, &words);
        double requests = s->shared_combine ? words : s->p_n;
        double slots = (double)passes * s->p_n;
        if (slots > requests)
            s->shared_conflict_slots += slots - requests;
        return;
    }
    csim_op op = s->p_kind == EVAL_ACCESS_LOAD    ? CSIM_LOAD
               : s->p_kind == EVAL_ACCESS_STORE ? CSIM_STORE
                                                : CSIM_ATOMIC;
    int tlb = s->tlb_on && !s->warming;
    double lines_before = tlb ? csim_tag(s->cs, tag).l2_lines : 0;
    csim_request_run(s->cs, s->slot, op, s->p_addr, s->p_size, s->p_n, tag,
                     s->p_members ? s->p_member : NULL, s->p_members);
    if (tlb)
        tlb_note(s, &s->acc[tag], op,
                 csim_tag(s->cs, tag).l2_lines - lines_before);
    if (op == CSIM_ATOMIC) {
        /* the same-address term counts per word: the words of one line
         * are the unit's work (slice_ct below), not one address's (the
         * atomic probes w8_s1, w32_s1: +69%, +81% when a line was one
         * address) */
        ct_request(s->global_ct, s->group_linear, s->p_addr, s->p_n,
                   s->combine, 0);
        /* a coalesced line is one pass per sector: a pass costs the
         * sector's words at atomic_line_ns */
        uint32_t sec = s->p->sector_bytes ? s->p->sector_bytes : 32;
        ct_unit_costs uc = {s->p->atomic_unit_bytes, s->p->atomic_slice_bytes,
                            sec, s->p->atomic_unit_queues,
                            s->p->atomic_request_ns,
                            sec / 4 * s->p->atomic_line_ns, s->combine};
        s->global_atomic_passes +=
            ct_slice_request(s->slice_ct, s->group_linear, s->p_addr, s->p_n, &uc);
        s->global_atomic_execs += s->p_n;
    }
}

static void set_pending(sim *s, const held_req *r, uint32_t cls,
                        eval_access_kind kind)
{
    s->p_inst = r->inst;
    s->p_n = r->n;
    s->p_class = cls;
    s->p_kind = kind;
    memcpy(s->p_addr, r->addr, r->n * sizeof *r->addr);
    memcpy(s->p_size, r->size, r->n * sizeof *r->size);
    memcpy(s->p_inv, r->inv, r->n * sizeof *r->inv);
}

/* A held piece goes out: as one request when its members have the same
 * lanes and every lane's addresses follow each other (what the compiler
 * proved, eval_merge.h), each lane its member's bytes together; else (a
 * member missing, lanes that diverged) each member as it was. */
static void release_held(sim *s, held *h, int whole)
{
    uint32_t n = h->n;
    h->n = 0;
    int merge = whole && n >= 2;
    for (uint32_t q = 1; q < n && merge; q++) {
        const held_req *a = &h->r[0], *b = &h->r[q];
        if (b->n != a->n)
            merge = 0;
        for (uint32_t l = 0; l < a->n && merge; l++) {
            uint64_t end = h->r[q - 1].addr[l] + h->r[q - 1].size[l];
            merge = b->inv[l] == a->inv[l] && b->addr[l] == end;
        }
    }
    if (!merge) {
        for (uint32_t q = 0; q < n; q++) {
            set_pending(s, &h->r[q], h->cls, h->kind);
            send_request(s);
        }
        return;
    }
    set_pending(s, &h->r[0], h->cls, h->kind);
    /* the compiler issues a run's stores apart: the cache model counts
     * each member's partial stores (cachesim.h csim_request_run) */
    int run_stores = s->mg.run[h->lead] && h->kind == EVAL_ACCESS_STORE;
    for (uint32_t q = 0; run_stores && q < n; q++)
        memcpy(&s->p_member[(size_t)q * s->p_n], h->r[q].size,
               s->p_n * sizeof *s->p_member);
    for (uint32_t q = 1; q < n; q++) {
        for (uint32_t l = 0; l < s->p_n; l++)
            s->p_size[l] += h->r[q].size[l];
        if (!s->warming) {
            acc_sim *mem = &s->acc[s->acc_of_inst[h->r[q].inst]];
            mem->merged_in += h->r[q].n;
            if (!s->mg.run[h->lead])
                mem->folded += h->r[q].n;
        }
    }
    uint32_t pad = s->mg.pad[h->lead]; /* a widened load: its whole window */
    for (uint32_t l = 0; pad && l < s->p_n; l++) {
        s->p_addr[l] -= pad;
        s->p_size[l] = s->mg.bytes[h->lead];
    }
    if (!s->warming) {
        acc_sim *lead = &s->acc[s->acc_of_inst[h->lead]];
        lead->carried += 1;
        if (s->mg.run[h->lead]) {
            s->run_requests += 1;
            lead->runs += 1;
            lead->run_members += n;
            if (h->kind == EVAL_ACCESS_STORE)
                lead->run_stores += n;
        } else {
            s->merged_requests += 1;
        }
    }
    s->p_members = run_stores ? n : 0;
    send_request(s);
    s->p_members = 0;
}

static void release_all_held(sim *s)
{
    for (uint32_t i = 0; i < s->nhold; i++)
        if (s->hold[i] && s->hold[i]->n)
            release_held(s, s->hold[i], 0);
}

static held *held_of(sim *s, uint32_t sg)
{
    if (sg >= 4096)
        return NULL;
    if (sg >= s->nhold) {
        uint32_t n = sg + 1;
        held **h = realloc(s->hold, n * sizeof *h);
        if (!h)
            return NULL;
        memset(h + s->nhold, 0, (n - s->nhold) * sizeof *h);
        s->hold = h;
        s->nhold = n;
    }
    if (!s->hold[sg])
        s->hold[sg] = calloc(1, sizeof **s->hold);
    return s->hold[sg];
}

/* A member of a merge piece: held until the piece is complete (the
 * subgroup's other members come in program order; other subgroups'
 * requests in between keep their own pieces). */
static void hold_request(sim *s, uint32_t lead)
{
    held *h = held_of(s, s->p_sg);
    uint32_t pos = s->mg.pos[s->p_inst];
    if (h && s->mg.loop[lead]) /* the same access, trip after trip */
        pos = h->n && h->lead == lead ? h->n : 0;
    if (!h || pos >= EV_MERGE_MAX_MEMBERS) {
        send_request(s);
        return;
    }
    held_req cur;
    cur.inst = s->p_inst;
    cur.n = s->p_n;
    memcpy(cur.addr, s->p_addr, s->p_n * sizeof *s->p_addr);
    memcpy(cur.size, s->p_size, s->p_n * sizeof *s->p_size);
    memcpy(cur.inv, s->p_inv, s->p_n * sizeof *s->p_inv);
    uint32_t cls = s->p_class;
    eval_access_kind kind = s->p_kind;
    if (h->n && (h->lead != lead || pos != h->n))
        release_held(s, h, 0); /* an earlier piece left incomplete */
    if (pos != h->n) { /* a later member without its first ones */
        set_pending(s, &cur, cls, kind);
        send_request(s);
        return;
    }
    h->r[pos] = cur;
    h->lead = lead;
    h->cls = cls;
    h->kind = kind;
    h->n++;
    if (h->n == s->mg.members[lead])
        release_held(s, h, 1);
}

static void flush_request(sim *s)
{
    if (!s->pend)
        return;
    s->pend = 0;
    if (!s->p_n)
        return;
    uint32_t lead = s->mg.lead && s->p_inst < s->mg.ninst ? s->mg.lead[s->p_inst]
                                                          : EV_MERGE_NONE;
    if (lead == EV_MERGE_NONE || s->p_kind == EVAL_ACCESS_ATOMIC)
        send_request(s);
    else
        hold_request(s, lead);
}

/* Whether access i's unknown addresses may be drawn from their range:
 * the program computes them from a buffer load's value (eval_chase.h).
 * Not from an atomic's returned value: that is an allocation from a
 * counter (stream compaction, an append buffer), dense and in order, no
 * hash. */
static int drawable(const kernel_counts *kc, uint32_t i)
{
    return kc->accesses[i].chase_of && !kc->accesses[i].chase_atomic;
}

static void on_access(void *user, const eval_access *a)
{
    sim *s = user;
    if (a->inst >= s->ninst || s->acc_of_inst[a->inst] == UINT32_MAX)
        return;
    uint32_t cls = a->storage_class;
    int buffer = cls == SpvStorageClassStorageBuffer ||
                 cls == SpvStorageClassUniform ||
                 cls == SpvStorageClassPhysicalStorageBuffer;
    if (!buffer && cls != SpvStorageClassWorkgroup)
        return;
    /* a lane seen again is the instruction's next execution (a loop with
     * one subgroup has no other subgroup's events in between) */
    if (s->pend && (a->inst != s->p_inst || a->subgroup != s->p_sg ||
                    a->kind != s->p_kind || s->p_n == SIM_MAX_LANES ||
                    a->invocation <= s->p_last_inv))
        flush_request(s);
    if (!s->pend) {
        s->pend = 1;
        s->p_inst = a->inst;
        s->p_sg = a->subgroup;
        s->p_kind = a->kind;
        s->p_class = cls;
        s->p_n = 0;
    }
    s->p_last_inv = a->invocation;
    acc_sim *as = &s->acc[s->acc_of_inst[a->inst]];
    int64_t offset = a->offset;
    if (a->offset != a->offset_hi || a->offset < 0) {
        /* address from buffer contents: drawn from its range, or not
         * simulated.  Only where the program computes the address from a
         * buffer load's value (drawable): an interval an unmodelled
         * operation left on lane-derived arithmetic is no hash, and a
         * uniform draw would price an affine access as a scatter */
        uint64_t extent = buffer ? buffer_extent(s, a->set, a->binding) : 0;
        if (!s->drawing || !drawable(s->kc, s->acc_of_inst[a->inst]) ||
            !draw_offset(&s->draw, a, s->acc_of_inst[a->inst], s->slot,
                                        extent, s->warming, &offset)) {
            if (!s->warming)
                as->unknown += 1;
            return;
        }
        uint64_t hi = (uint64_t)a->offset_hi + (a->size ? a->size : 4);
        if (extent && hi > extent)
            hi = extent;
        if (!as->drawn || (uint64_t)a->offset < as->draw_lo)
            as->draw_lo = (uint64_t)a->offset;
        if (!as->drawn || hi > as->draw_hi)
            as->draw_hi = hi;
        as->drawn = 1;
    }
    if (!s->warming)
        as->execs += 1;
    uint64_t base = buffer ? buffer_base(s, a->set, a->binding) : 0;
    s->p_addr[s->p_n] = base + (uint64_t)offset;
    s->p_size[s->p_n] = a->size ? a->size : 4;
    s->p_inv[s->p_n] = a->invocation;
    s->p_n++;
}

/* How many lines one L1 lookup cycle serves when their bytes lie in
 * different parts of the line: calibrate's `l1 spread lines` rate over its
 * `l1 row lines` rate (the same row walk with every lane at one offset),
 * rounded down to a power of two (a quarter of a step of tolerance); 1
 * when either is unknown. */
uint32_t l1_line_groups(const device_profile *p)
{
    double row = p->l1_row_lines_gops, spread = p->l1_spread_lines_gops;
    if (!(row > 0) || !(spread > 0) || !isfinite(row) || !isfinite(spread))
        return 1;
    uint32_t g = 1;
    while (g < 64 && spread / row >= 2.0 * g * 0.8)
        g *= 2;
    return g;
}

/* Geometry of the sample: L1 per group, L2 per window. */
typedef struct sim_geom {
    csim_config cs;
    uint64_t groups, resident, concurrent;
    uint64_t l1_sharing;      /* groups on one unit's L1 at once */
    int ways_assumed;
    unsigned warm_dims;       /* bit 0: z neighbours, bit 1: y (warmed) */
} sim_geom;

static void geometry(const device_profile *p, const reflection *r,
                     uint64_t groups, uint32_t window, sim_geom *g)
{
    memset(g, 0, sizeof *g);
    uint64_t wg = 1;
    for (int d = 0; d < 3; d++) {
        uint64_t v = r->local_size[d] ? r->local_size[d] : 1;
        wg = wg > UINT64_MAX / v ? UINT64_MAX : wg * v;
    }
    uint64_t res = p->max_groups_per_unit ? p->max_groups_per_unit : 16;
    if (p->max_threads_per_unit && p->max_threads_per_unit / wg < res)
        res = p->max_threads_per_unit / wg;
    if (r->shared_bytes && p->shared_per_unit &&
        p->shared_per_unit / r->shared_bytes < res)
        res = p->shared_per_unit / r->shared_bytes;
    if (!res)
        res = 1;
    g->resident = res;
    uint64_t units = p->units ? p->units : 1;
    g->groups = groups;
    g->concurrent = units * res < groups ? units * res : groups;
    g->cs.sector_bytes = p->sector_bytes ? p->sector_bytes : 32;
    /* the model's own assumption when the profile has no line (model.c) */
    g->cs.line_bytes = p->line_bytes ? p->line_bytes : 4 * g->cs.sector_bytes;
    g->cs.l1_ways = p->l1_ways ? p->l1_ways : 16;
    g->cs.l2_ways = p->l2_ways ? p->l2_ways : 16;
    g->ways_assumed = !p->l1_ways || !p->l2_ways;
    g->cs.l1_write_back = p->l1_write_back > 0;
    g->cs.dram_page_bytes = p->dram_page_bytes >= g->cs.line_bytes
                                ? p->dram_page_bytes
                                : 0;
    g->cs.partial_write_fill = p->partial_write_fill > 0;
    g->cs.l1_line_groups = l1_line_groups(p);
    g->cs.fetch_sectors = (uint32_t)(dram_fetch_bytes(p, g->cs.sector_bytes,
                                                      g->cs.line_bytes) /
                                     g->cs.sector_bytes);
    /* the groups that share one unit's L1: the resident ones, or fewer
     * when the dispatch has fewer groups than slots (1024 groups on 132
     * units: 8 on the busiest unit, not the 16 that could be resident) */
    uint64_t sharing = res;
    if (groups && groups < units * res)
        sharing = (groups + units - 1) / units;
    g->l1_sharing = sharing;
    uint64_t l1 = p->l1_bytes;
    if (l1 && p->l1_shared_unified > 0) {
        uint64_t carve = sharing * r->shared_bytes;
        l1 = carve < l1 ? l1 - carve : 0;
    }
    l1 /= sharing;
    g->cs.l1_bytes = l1 >= (uint64_t)g->cs.line_bytes * g->cs.l1_ways
                         ? l1
                         : 0;
    uint64_t l2 = p->l2_bytes ? p->l2_bytes : 4u << 20;
    double share = g->concurrent ? (double)window / (double)g->concurrent : 1;
    if (share > 1)
        share = 1;
    uint64_t min_l2 = (uint64_t)g->cs.line_bytes * g->cs.l2_ways * 4;
    g->cs.l2_bytes = (uint64_t)(l2 * share);
    if (g->cs.l2_bytes < min_l2)
        g->cs.l2_bytes = min_l2;
}

static void linear_to_xyz(const plan_kernel *k, uint64_t i, uint32_t g[3])
{
    uint64_t gx = k->workgroups[0] ? k->workgroups[0] : 1;
    uint64_t gy = k->workgroups[1] ? k->workgroups[1] : 1;
    g[0] = (uint32_t)(i % gx);
    g[1] = (uint32_t)(i / gx % gy);
    g[2] = (uint32_t)(i / gx / gy);
}

/* The window's neighbours one row (y) and one plane (z) of workgroups
 * earlier in dispatch order touch the lines a stencil's halo or a tiled
 * transpose's pages share with it.  When their data is still in L2 when
 * the window runs (the groups between them move less than the L2 holds,
 * from the dispatch's footprint per group), they run first, filling L2
 * only: their counts are forgotten (csim_forget_counts), so the window's
 * halo reads hit where the hardware's do.  g->cs.l2_bytes already holds
 * their share (geometry). */
static void warm_neighbours(sim *s, ev_ctx *c, const plan_kernel *k,
                            const sim_geom *g, uint64_t first, uint32_t n)
{
    if (!g->warm_dims)
        return;
    uint64_t gx = k->workgroups[0] ? k->workgroups[0] : 1;
    uint64_t gy = k->workgroups[1] ? k->workgroups[1] : 1;
    uint64_t back[SIM_NEIGHBOUR_DIMS] = {gx * gy, gx}; /* z first: older */
    int warmed = 0;
    s->warming = 1;
    for (int d = 0; d < SIM_NEIGHBOUR_DIMS; d++) {
        if (!(g->warm_dims >> d & 1) || back[d] > first)
            continue;
        for (uint32_t i = 0; i < n; i++) {
            uint32_t xyz[3];
            linear_to_xyz(k, first - back[d] + i, xyz);
            s->slot = i;
            ev_group out;
            memset(&out, 0, sizeof out);
            ev_group_run(c, xyz, &out);
            flush_request(s);
            release_all_held(s);
            ev_group_free(c, &out);
        }
        warmed = 1;
    }
    s->warming = 0;
    if (warmed)
        csim_forget_counts(s->cs);
}

/* How many of the sample's page openings a group's page outlasts on the
 * device (docs/model.md 4.1a, "Pages the device closes"): the sample runs
 * one group at a time, the device `concurrent` at once, touching
 * concurrent / sharing times the sample's distinct pages (sharing: the
 * groups that touch each page, csim_page_sharing); the device keeps
 * dram_open_pages open, so a group's page survives dram_open_pages x
 * sharing / concurrent of its own openings.  CSIM_OPEN_PAGES (the
 * sample's window alone) when the profile has no dram_open_pages or the
 * device keeps more. */
static uint32_t open_page_window(const device_profile *p, const sim_geom *g,
                                 double sharing)
{
    if (!p->dram_open_pages || !g->concurrent)
        return CSIM_OPEN_PAGES;
    double w = (double)p->dram_open_pages * sharing / (double)g->concurrent;
    return w >= CSIM_OPEN_PAGES ? CSIM_OPEN_PAGES : (uint32_t)w;
}

/* Runs the window of groups [first, first + n) through a fresh cache;
 * returns the number of groups run (the budget may stop it early), -1 on
 * failure. */
static int run_window(sim *s, const spv_module *m, const reflection *r,
                      const plan_kernel *k, const sim_geom *g,
                      uint64_t first, uint32_t n, int *truncated)
{
    int ran = 0;
    eval_options o;
    eval_default_options(&o);
    o.every_iteration = 1;
    o.on_access = on_access;
    o.on_access_user = s;
    o.runner_contents = s->drawing;
    o.step_budget = SIM_STEPS_PER_GROUP * n * (1 + SIM_NEIGHBOUR_DIMS);
    char why[256];
    ev_ctx *c = ev_ctx_new(m, r, k, s->p, &o, why, sizeof why);
    if (!c)
        return -1;
    s->lanes_sampled |= ev_lanes_sampled(c);
    if (!s->mg_planned) {
        ev_merge_plan(c, s->p->merge_buffer_bytes, s->p->merge_shared_bytes,
                      s->p->full_unroll_trips, &s->mg);
        s->mg_planned = 1;
    }
    s->cs = csim_new(&g->cs, n, (uint32_t)s->kc->naccesses);
    if (!s->cs) {
        ev_ctx_free(c);
        return -1;
    }
    draw_window(&s->draw);
    warm_neighbours(s, c, k, g, first, n);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t xyz[3];
        linear_to_xyz(k, first + i, xyz);
        s->slot = i;
        s->group_linear = (uint32_t)(first + i);
        s->shared_ct = ct_new();
        ev_group out;
        memset(&out, 0, sizeof out);
        ev_group_run(c, xyz, &out);
        flush_request(s);
        release_all_held(s);
        if (s->tlb_on)
            tlb_group_done(s);
        ran++;
        if (out.budget_hit)
            *truncated = 1;
        s->branch_guessed |= out.unknown_branch;
        ev_group_free(c, &out);
        ct_busiest sb = ct_get(s->shared_ct);
        if (sb.requests > s->shared_busiest)
            s->shared_busiest = sb.requests;
        s->shared_requests += sb.total_requests;
        ct_free(s->shared_ct);
        s->shared_ct = NULL;
        /* the window's budget (SIM_STEPS_PER_GROUP per group) is spent:
         * the groups run so far stand for it */
        if (ev_steps_left(c) <= 0)
            break;
    }
    csim_flush(s->cs);
    uint32_t keep_open = open_page_window(s->p, g, csim_page_sharing(s->cs));
    double reopen_weight = dram_reopen_weight(s->p, g->cs.sector_bytes,
                                              g->cs.line_bytes);
    for (size_t i = 0; i < s->kc->naccesses; i++) {
        csim_stats t = csim_tag(s->cs, (uint32_t)i);
        double reopened = csim_reopened_pages(s->cs, (uint32_t)i, keep_open);
        s->acc[i].l1 += t.l1_sectors;
        s->acc[i].l1_lines += t.l1_lines;
        s->acc[i].l1_slots += t.l1_slots;
        s->acc[i].l2 += t.l2_sectors;
        s->acc[i].l2_lines += t.l2_lines;
        s->acc[i].l2_hit += t.l2_hit_sectors;
        s->acc[i].l2_partial += t.l2_partial_sectors;
        s->acc[i].l2_open += t.l2_partial_open;
        s->acc[i].dram += t.dram_read_bytes + t.dram_write_bytes;
        /* priced as read openings: the walk's cost in their units */
        s->acc[i].pages += t.dram_pages + reopened * reopen_weight;
        s->acc[i].wpages += t.dram_write_pages;
        s->acc[i].wpage_sectors += t.dram_write_page_sectors;
        s->acc[i].rmw += t.dram_rmw_sectors;
    }
    csim_free(s->cs);
    s->cs = NULL;
    ev_ctx_free(c);
    return ran;
}

/* Window starts: start, middle and end of the dispatch. */
static size_t window_starts(uint64_t groups, uint32_t w, uint64_t *start)
{
    if (groups <= SIM_ALL_BELOW) {
        size_t n = 0;
        for (uint64_t i = 0; i < groups; i += w)
            start[n++] = i;
        return n;
    }
    uint64_t cand[3] = {0, (groups - w) / 2, groups - w};
    size_t n = 0;
    for (int i = 0; i < 3; i++)
        if (n == 0 || cand[i] >= start[n - 1] + w)
            start[n++] = cand[i];
    return n;
}

static void add_assumption(kernel_counts *kc, const char *text)
{
    char **a = realloc(kc->assumptions,
                       (kc->nassumptions + 1) * sizeof *kc->assumptions);
    if (!a)
        return;
    kc->assumptions = a;
    a[kc->nassumptions] = strdup(text);
    if (a[kc->nassumptions])
        kc->nassumptions++;
}

/* Blocks of unit_bytes the global atomics' footprints cover over the
 * whole dispatch (the evaluator's footprint per access), at least 1; with
 * unit_bytes 0 (unknown) one block per address of the access's size. */
static double atomic_blocks(const kernel_counts *kc, uint32_t unit_bytes)
{
    double blocks = 0;
    for (size_t i = 0; i < kc->naccesses; i++) {
        const access_summary *a = &kc->accesses[i];
        if (!a->is_atomic || a->space != SPACE_STORAGE)
            continue;
        double size = a->bytes ? a->bytes : 4;
        double unit = unit_bytes ? unit_bytes : size;
        blocks += ceil(fmax(a->footprint_bytes, size) / unit);
    }
    return fmax(blocks, 1);
}

/* The busiest L2 atomic unit's work over the dispatch, µs: the sample's
 * work per atomic lane execution times the dispatch's executions, spread
 * over the atomic_slice_bytes blocks the atomics' footprints cover, times
 * the skew the sample shows (as for the busiest line below). */
static double slice_busiest_us(const sim *s, const kernel_counts *kc,
                               double atomic_execs)
{
    ct_busiest b = ct_get(s->slice_ct);
    if (!s->slice_ct || s->global_atomic_execs <= 0 || atomic_execs <= 0 ||
        b.addresses <= 0 || b.total_requests <= 0)
        return 0;
    double work = b.total_requests / s->global_atomic_execs * atomic_execs;
    double blocks = atomic_blocks(kc, s->p->atomic_slice_bytes);
    double skew = b.requests / (b.total_requests / b.addresses);
    double busiest = work / blocks * fmax(skew, 1);
    return fmin(busiest, work) * 1e-3;
}

/* A gather (most lanes on a line of their own) over a table the whole
 * dispatch shares: L2 serves the part of it that fits (model_l2share.h),
 * which the window's share of L2 cannot show; its DRAM bytes and pages
 * drop to the misses when the sample's own L2 hits are fewer. */
static void shared_table_hits(const device_profile *p, access_summary *a,
                              const acc_sim *as, const sim_geom *g)
{
    double sec = g->cs.sector_bytes;
    if (a->is_store || a->is_atomic || as->l2 <= 0 ||
        as->l1_lines < 0.5 * as->execs || !(a->footprint_bytes > 0))
        return;
    /* distinct sectors: at most one per lane-sized piece of the footprint
     * (a sparse pattern), so the reuse is never overstated */
    double piece = a->bytes ? fmin((double)a->bytes, sec) : 4;
    double reuse = a->count * a->sim_l2_sectors / (a->footprint_bytes / piece);
    double h = l2_shared_hit_fraction(p, a->footprint_bytes, reuse,
                                      (double)g->cs.line_bytes / sec);
    double seen = as->l2_hit / as->l2;
    if (h <= seen)
        return;
    double keep = (1 - h) / (1 - seen);
    a->sim_dram_bytes *= keep;
    a->sim_dram_pages *= keep;
}

/* Which earlier neighbours a window warms (warm_neighbours): the plane
 * (z) and row (y) of workgroups before it, where the dispatch has them
 * beyond the window and the groups in between move at most what the L2
 * holds for data they share (l2_bytes / l2_partitions; the dispatch's
 * footprint per group as their bytes).  The window's L2 share grows by
 * the neighbours' groups. */
static void neighbour_dims(const kernel_counts *kc, const plan_kernel *k,
                           const device_profile *p, uint32_t w, sim_geom *g)
{
    double foot = 0;
    for (size_t i = 0; i < kc->naccesses; i++)
        if (kc->accesses[i].space == SPACE_STORAGE)
            foot += kc->accesses[i].footprint_bytes;
    if (!(foot > 0) || !kc->workgroups || !p->l2_bytes)
        return;
    double per_group = foot / (double)kc->workgroups;
    double cap = (double)p->l2_bytes / (p->l2_partitions ? p->l2_partitions : 1);
    double gx = k->workgroups[0] ? k->workgroups[0] : 1;
    double gy = k->workgroups[1] ? k->workgroups[1] : 1;
    double gz = k->workgroups[2] ? k->workgroups[2] : 1;
    int n = 0;
    if (gz > 1 && gx * gy > w && gx * gy * per_group <= cap) {
        g->warm_dims |= 1;
        n++;
    }
    if (gy > 1 && gx > w && gx * per_group <= cap) {
        g->warm_dims |= 2;
        n++;
    }
    double l2 = (double)g->cs.l2_bytes * (1 + n);
    g->cs.l2_bytes = (uint64_t)fmin(l2, (double)p->l2_bytes);
}

/* The share of a write page opening's cost saved per whole sector, beyond
 * the first, that the write-back opening it writes: calibrate's isolated
 * store opens its page for one sector, costing the write's share of
 * dram_random_write_bytes (model_dram.c: less the read-modify-write's two
 * sectors and the read's opening, E bytes); an opening that writes b bytes
 * overlaps that cost with its transfer and pays max(0, E + sector - b),
 * which for b up to a line (< E + sector on the H200: E = 110 B) is
 * E - (b - sector): each further sector saves sector / E of an opening
 * (H200 run 6 probes: whole lines stored 2 KiB to 256 KiB apart run
 * within 4% of a copy; one sector's cost per opening said +23%). */
static double write_page_saving(const device_profile *p, double sec,
                                double line)
{
    double rd = p->dram_random_read_bytes, wr = p->dram_random_write_bytes;
    if (!(rd > sec))
        return 0; /* page costs from dram_page_ns: not per byte */
    double fetch = dram_fetch_bytes(p, sec, line);
    double extra_w = wr - 2 * sec - fmax(0, rd - fetch);
    return extra_w > 0 ? sec / extra_w : 0;
}

static void store_results(sim *s, kernel_counts *kc, double sampled,
                          int truncated, const sim_geom *g)
{
    double atomic_execs = 0;
    for (size_t i = 0; i < kc->naccesses; i++) {
        access_summary *a = &kc->accesses[i];
        const acc_sim *as = &s->acc[i];
        a->sim_execs = as->execs;
        a->sim_unknown = as->unknown;
        if (as->drawn && as->draw_hi > as->draw_lo)
            a->footprint_bytes = fmin(a->footprint_bytes, (double)(as->draw_hi - as->draw_lo));
        /* an index the evaluator could not bound counts a distinct address
         * a lane; the buffer bounds it (a histogram's counters) */
        uint64_t extent = a->space == SPACE_STORAGE ? buffer_extent(s, a->set, a->binding) : 0;
        if (extent && a->footprint_bytes > (double)extent)
            a->footprint_bytes = (double)extent;
        if (as->execs > 0) {
            a->sim_l1_sectors = as->l1 / as->execs;
            a->sim_l1_lines = as->l1_slots / as->execs;
            a->sim_l2_sectors = as->l2 / as->execs;
            a->sim_l2_lines = as->l2_lines / as->execs;
            a->sim_l2_partial = as->l2_partial / as->execs;
            a->sim_l2_partial_open = as->l2_open / as->execs;
            a->sim_dram_bytes = as->dram / as->execs;
            a->sim_dram_pages = as->pages / as->execs;
            a->sim_dram_write_pages =
                fmax(0, as->wpages - as->wpage_sectors *
                                         write_page_saving(s->p, g->cs.sector_bytes,
                                                           g->cs.line_bytes)) /
                as->execs;
            a->sim_dram_rmw_sectors = as->rmw / as->execs;
            if (as->bank_ideal > 0)
                a->sim_bank_degree = as->bank_passes / as->bank_ideal;
            a->sim_lane_bytes = as->lane_bytes / as->execs;
            /* a run's members are separate requests: each looks up the
             * lines the cache model saw once, and each store a partial
             * write the run completes */
            if (as->runs > 0)
                a->sim_l1_lines *= as->run_members / as->runs;
            kc->l2_store_runs += a->count * as->run_stores / as->execs;
            kc->instructions -= a->count * as->folded / as->execs;
            a->sim_execs_per_request =
                as->request_lanes > 0 ? as->execs / as->request_lanes : 1;
            a->sim_merge = as->carried > 0                  ? 1
                         : as->merged_in >= 0.5 * as->execs ? 2
                                                            : 0;
            /* the L1-missed lines of the scattered requests themselves:
             * a scattered request has about a line a lane, a contiguous
             * one a few, so a share by request count undercounts them */
            a->sim_tlb_lines = (as->scat_rlines + as->scat_wlines) / as->execs;
            if (as->span_groups > 0)
                a->sim_group_span = as->span_sum / as->span_groups;
            shared_table_hits(s->p, a, as, g);
        }
        /* the dispatch's atomic executions: the evaluator's count, or,
         * where its control flow rested on buffer contents (a trip
         * count from a key: the range's end) and the simulation decided
         * every such branch from the runner's contents, the sampled
         * groups' (b3_atomic_hot384: 2..5 trips a lane counted as 5;
         * 3.48 run).  Only where the sample saw every execution of its
         * groups: sampled lanes, addresses left out undrawn (unknown) or
         * a group the budget stopped leave execs short, where a->count
         * is lane-scaled and complete. */
        int sim_complete = !s->lanes_sampled && as->unknown == 0 &&
                           !truncated;
        if (a->is_atomic && a->space == SPACE_STORAGE)
            atomic_execs += kc->control_from_contents && !s->branch_guessed &&
                                    sim_complete
                                ? as->execs / sampled * (double)g->groups
                                : a->count;
        if (a->is_atomic && as->unknown > 0)
            kc->atomic_addr_unknown = 1;
    }
    /* contention: requests per lane execution from the sample, times the
     * dispatch's atomic executions; the busiest address scaled by how many
     * sampled groups shared it */
    ct_busiest b = ct_get(s->global_ct);
    if (s->global_atomic_execs > 0 && atomic_execs > 0 && b.addresses > 0) {
        double per_exec = b.total_requests / s->global_atomic_execs;
        kc->atomic_requests = atomic_execs * per_exec;
        /* The dispatch's requests over the blocks its atomics touch (the
         * evaluator's footprint over the whole dispatch), times the skew
         * the sample shows (busiest / mean block).  Extrapolating the
         * sample's own busiest block would alias: sampled groups far apart
         * can hit the same block by chance. */
        double blocks = atomic_blocks(kc, 0); /* addresses */
        double skew = b.requests / (b.total_requests / b.addresses);
        if (skew < 1)
            skew = 1;
        kc->atomic_busiest = kc->atomic_requests / blocks * skew;
        if (kc->atomic_busiest > kc->atomic_requests)
            kc->atomic_busiest = kc->atomic_requests;
    }
    kc->atomic_slice_us = slice_busiest_us(s, kc, atomic_execs);
    if (s->global_atomic_execs > 0)
        kc->atomic_passes =
            s->global_atomic_passes / s->global_atomic_execs * atomic_execs;
    kc->shared_atomic_busiest = s->shared_busiest;
    kc->shared_atomic_requests =
        sampled > 0 ? (s->shared_requests + s->shared_conflict_slots) /
                          sampled * (double)g->groups
                    : 0;
}

/* The translation term's misses (model_tlb.h) and what it assumed. */
static void tlb_assume(kernel_counts *kc, const device_profile *p,
                       double resident)
{
    double w = tlb_estimate(kc, p, resident);
    if (!(w > 0))
        return;
    char text[400];
    snprintf(text, sizeof text,
             "translation: scattered requests span %.4g MiB of pages on a "
             "unit (%.0f resident groups), past the %.4g MiB the TLB reaches "
             "(tlb_reach_mib): %.0f%% of their line requests miss, each adding "
             "1/%.4g G/s (tlb_miss_gops) to the L2 line lookups; uniform "
             "requests over the span assumed",
             w / 1048576.0, resident, p->tlb_reach_mib,
             100 * tlb_miss_share(p, w), p->tlb_miss_gops);
    add_assumption(kc, text);
}

/* What the simulation took from the compiler's merge plan (eval_merge.h):
 * the pieces it merges, and apart from them the buffer runs it does not
 * merge, which stay separate requests. */
static void merge_assume(kernel_counts *kc, const device_profile *p,
                         const sim *s)
{
    char text[512];
    if (s->merged_requests > 0) {
        snprintf(text, sizeof text,
                 "adjacent accesses merged as the driver's compiler does "
                 "(merge_buffer_bytes %u, merge_shared_bytes %u): %u "
                 "piece(s) of one invocation's "
                 "adjacent, provably aligned loads or stores (the first at "
                 "line %d) simulated as one request each",
                 p->merge_buffer_bytes, p->merge_shared_bytes, s->mg.pieces,
                 s->mg.first_line);
        add_assumption(kc, text);
    }
    if (s->run_requests > 0) {
        snprintf(text, sizeof text,
                 "adjacent buffer accesses the driver's compiler does not "
                 "merge (merge_buffer_bytes %u, or not provably aligned): "
                 "%u run(s) of one invocation's adjacent loads or stores "
                 "(the first at line %d) issued back to back, their "
                 "sectors simulated together, each access still its own "
                 "request (stores at l2_store_run_gops)",
                 p->merge_buffer_bytes, s->mg.runs, s->mg.first_run_line);
        add_assumption(kc, text);
    }
}

/* One simulation of kc's stream; drawing: addresses from buffer contents
 * drawn from their range (model_draw.h), else left out. */
static void simulate(const spv_module *m, const reflection *r,
                     const plan_kernel *k, const device_profile *p,
                     kernel_counts *kc, int drawing)
{
    sim s;
    memset(&s, 0, sizeof s);
    s.kc = kc;
    s.p = p;
    note_extents(&s, r, k);
    s.drawing = drawing;
    s.ninst = m->ninsts;
    s.combine = p->atomic_combine > 0;
    s.shared_combine = p->atomic_shared_combine > 0;
    s.tlb_on = tlb_miss_share(p, INFINITY) > 0;
    {
        uint64_t wg = (uint64_t)(r->local_size[0] ? r->local_size[0] : 1) *
                      (r->local_size[1] ? r->local_size[1] : 1) *
                      (r->local_size[2] ? r->local_size[2] : 1);
        uint64_t sg = p->limits.subgroup_size ? p->limits.subgroup_size : 32;
        s.sg_per_group = (uint32_t)((wg + sg - 1) / sg);
    }
    s.acc_of_inst = malloc((s.ninst + 1) * sizeof *s.acc_of_inst);
    s.acc = calloc(kc->naccesses, sizeof *s.acc);
    s.global_ct = ct_new();
    if (p->atomic_slice_bytes > 0 && p->atomic_line_ns > 0 &&
        p->atomic_request_ns >= 0)
        s.slice_ct = ct_new(); /* out of memory: the term is left out */
    if (!s.acc_of_inst || !s.acc || !s.global_ct ||
        draw_init(&s.draw, (uint32_t)kc->naccesses,
                  (uint32_t)(r->local_size[0] ? r->local_size[0] : 1) *
                      (r->local_size[1] ? r->local_size[1] : 1) *
                      (r->local_size[2] ? r->local_size[2] : 1),
                  SIM_WINDOW))
        goto out;
    memset(s.acc_of_inst, 0xff, (s.ninst + 1) * sizeof *s.acc_of_inst);
    for (size_t i = 0; i < kc->naccesses; i++)
        if (kc->accesses[i].inst < s.ninst)
            s.acc_of_inst[kc->accesses[i].inst] = (uint32_t)i;

    uint32_t w = kc->workgroups < SIM_WINDOW ? (uint32_t)kc->workgroups
                                             : SIM_WINDOW;
    sim_geom g;
    geometry(p, r, kc->workgroups, w, &g);
    s.line = g.cs.line_bytes;
    neighbour_dims(kc, k, p, w, &g);
    uint64_t starts[SIM_ALL_BELOW];
    size_t nwin = window_starts(kc->workgroups, w, starts);
    int truncated = 0;
    double sampled = 0;
    for (size_t i = 0; i < nwin; i++) {
        uint32_t n = w;
        if (starts[i] + n > kc->workgroups)
            n = (uint32_t)(kc->workgroups - starts[i]);
        int ran = run_window(&s, m, r, k, &g, starts[i], n, &truncated);
        if (ran < 0)
            goto out;
        sampled += ran;
    }
    if (sampled <= 0)
        goto out; /* nothing ran: the static rules stay */
    store_results(&s, kc, sampled, truncated, &g);
    kc->sim = 1;
    kc->sim_groups = sampled;
    kc->sim_truncated = truncated;
    char text[512];
    snprintf(text, sizeof text,
             "traffic simulated through L1/L2 on %.0f of %llu workgroups "
             "(%zu window(s) of up to %u neighbours at the start, middle and "
             "end; L1 %llu B per group with %llu resident per unit, L2 "
             "scaled to %llu B for the window's share of %llu groups running "
             "at once%s) and scaled per access by its executions over the "
             "dispatch%s",
             sampled, (unsigned long long)kc->workgroups, nwin, w,
             (unsigned long long)g.cs.l1_bytes,
             (unsigned long long)g.l1_sharing,
             (unsigned long long)g.cs.l2_bytes,
             (unsigned long long)g.concurrent,
             g.ways_assumed ? "; associativity unknown: 16 ways assumed" : "",
             truncated ? "; a simulated group hit the step budget: its "
                         "first iterations stand for the rest"
                       : "");
    add_assumption(kc, text);
    merge_assume(kc, p, &s);
    tlb_assume(kc, p, (double)g.l1_sharing);
    if (s.slice_ct && s.global_atomic_execs > 0 && !p->atomic_unit_queues)
        add_assumption(kc, "queues of the L2 atomic unit unknown for this "
                           "device (atomic_unit_queues): one assumed");
out:
    for (uint32_t i = 0; i < s.nhold; i++)
        free(s.hold[i]);
    free(s.hold);
    ev_merge_free(&s.mg);
    draw_free(&s.draw);
    free(s.acc_of_inst);
    free(s.acc);
    ct_free(s.global_ct);
    ct_free(s.slice_ct);
}

/* Drops the assumptions kc gained past the first n. */
static void drop_assumptions(kernel_counts *kc, size_t n)
{
    while (kc->nassumptions > n)
        free(kc->assumptions[--kc->nassumptions]);
}

void model_traffic_simulate(const spv_module *m, const reflection *r,
                            const plan_kernel *k, const device_profile *p,
                            kernel_counts *kc)
{
    if (!m || !r || !k || !p || !kc || p->kind != DEVICE_KIND_GPU || kc->conf == CONF_UNKNOWN ||
        !kc->naccesses || !kc->workgroups)
        return;
    /* the counts before any simulation, for a second one */
    kernel_counts before = *kc;
    size_t nacc = kc->naccesses;
    access_summary *acc = malloc(nacc * sizeof *acc);
    if (acc)
        memcpy(acc, kc->accesses, nacc * sizeof *acc);
    simulate(m, r, k, p, kc, 0);
    double unknown = 0;
    for (size_t i = 0; i < nacc; i++)
        unknown += kc->accesses[i].sim_unknown;
    kernel_counts *u = acc && unknown > 0 ? malloc(sizeof *u) : NULL;
    if (!u) {
        free(acc);
        return;
    }
    /* Addresses from buffer contents: the prediction simulates them again
     * with the runner's contents where the plan leaves them random, else
     * drawn from the index's range (model_draw.h); the range's ends keep
     * this first simulation, which leaves them unknown (model.c).  u takes
     * it, borrowing the access names and the line table. */
    *u = *kc;
    u->accesses = malloc(nacc * sizeof *u->accesses);
    if (!u->accesses) {
        free(u);
        free(acc);
        return;
    }
    memcpy(u->accesses, kc->accesses, nacc * sizeof *u->accesses);
    u->assumptions = NULL;
    u->nassumptions = 0;
    u->undrawn = NULL;
    drop_assumptions(kc, before.nassumptions);
    char **kept = kc->assumptions;
    *kc = before;
    kc->assumptions = kept;
    memcpy(kc->accesses, acc, nacc * sizeof *acc);
    free(acc);
    simulate(m, r, k, p, kc, 1);
    for (size_t i = 0; i < nacc; i++) {
        access_summary *a = &kc->accesses[i];
        /* executions it simulated that the first could not follow (the
         * runner's contents can also change which lanes run it) */
        a->sim_drawn = fmax(0, a->sim_execs - u->accesses[i].sim_execs);
        kc->sim_drawn += a->sim_drawn;
    }
    if (!(kc->sim_drawn > 0)) {
        /* nothing drawn (no address computed from a load): the first
         * simulation stands */
        access_summary *keep = kc->accesses;
        char **notes = kc->assumptions;
        size_t nnotes = kc->nassumptions;
        memcpy(keep, u->accesses, nacc * sizeof *keep);
        *kc = *u;
        kc->accesses = keep;
        kc->assumptions = notes;
        kc->nassumptions = nnotes;
        free(u->accesses);
        free(u);
        return;
    }
    kc->undrawn = u;
    char text[480];
    snprintf(text, sizeof text,
             "%.0f simulated lane executions had addresses from buffer "
             "contents: simulated with the contents the runner fills where the "
             "plan leaves them random (seed 0), else drawn uniformly from the "
             "index's range (a hash reduced modulo a count is uniform over it); "
             "the range's ends leave them unknown",
             kc->sim_drawn);
    add_assumption(kc, text);
}
