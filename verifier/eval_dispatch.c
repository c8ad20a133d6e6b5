/* eval_dispatch.c - eval_run(): which workgroups of the plan's dispatch to
 * execute and how their results scale to the whole dispatch.
 *
 * Small dispatches are executed completely.  Larger ones are split per
 * dimension into segments of workgroups that behave identically (same
 * instruction counts): a bisection on the group id along each axis finds
 * where the behaviour changes (e.g. the one group a guard 'i < n' cuts, and
 * the empty groups after it).  The product of the segments gives boxes of
 * groups; the corners of every box are executed and their counts scaled by
 * the box size.  Index ranges are the union over executed groups, which is
 * exact when addresses are monotone in the group id (affine indexing).
 * Compulsory bytes: a box's touched byte ranges are those of its first
 * corner translated by a per-dimension step, checked against the other
 * corners; the union over all groups is then exact.  Anything that had to
 * be estimated is stated in counts->assumptions.
 */
#include "eval_int.h"
#include "eval_ctx.h"
#include "eval_chase.h"
#include "eval_compiled.h"
#include "alloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

/* segments per axis at most, and groups an axis that must run every group
 * may run */
#define EV_SEG_MAX 1024
/* interpreted invocation-instructions that extra probes of an axis that
 * is not monotone in the group id may cost (a few milliseconds) */
#define EV_PROBE_STEPS 5e5

typedef struct gcache {
    ev_group *g;
    size_t n, cap;
    size_t max;       /* groups that may run (max_groups, or more for an
                         axis that must run every group) */
    int capped;       /* max reached */
} gcache;

typedef struct seg {
    uint32_t a, b;
} seg;

static ev_group *gc_find(gcache *gc, uint32_t x, uint32_t y, uint32_t z)
{
    for (size_t i = 0; i < gc->n; i++)
        if (gc->g[i].g[0] == x && gc->g[i].g[1] == y && gc->g[i].g[2] == z)
            return &gc->g[i];
    return NULL;
}

/* The executed group (x,y,z), running it if needed; NULL when the group
 * cap or the step budget is exhausted. */
static ev_group *gc_get(ev_ctx *c, const eval_options *o, gcache *gc,
                        uint32_t x, uint32_t y, uint32_t z)
{
    ev_group *g = gc_find(gc, x, y, z);
    if (g)
        return g;
    (void)o;
    if (gc->n >= gc->max || (gc->g && gc->n + 1 >= gc->cap) || ev_steps_left(c) <= 0) {
        gc->capped = 1;
        return NULL;
    }
    if (!gc->g) {
        /* never reallocated: callers hold pointers into it (max may grow
           up to EV_SEG_MAX: axis_segments) */
        gc->cap = (gc->max > EV_SEG_MAX ? gc->max : EV_SEG_MAX) + 1;
        gc->g = xcalloc(gc->cap, sizeof *gc->g);
    }
    uint32_t xyz[3] = {x, y, z};
    ev_group_run(c, xyz, &gc->g[gc->n]);
    return &gc->g[gc->n++];
}

static uint64_t sig_at(ev_ctx *c, const eval_options *o, gcache *gc, int d,
                       uint32_t v, int *ok)
{
    uint32_t xyz[3] = {0, 0, 0};
    xyz[d] = v;
    ev_group *g = gc_get(c, o, gc, xyz[0], xyz[1], xyz[2]);
    *ok = g != NULL;
    return g ? g->sig : 0;
}

/* Change points in (lo, hi]: positions p where sig(p) != sig(p - 1). */
static void bisect(ev_ctx *c, const eval_options *o, gcache *gc, int d,
                   uint32_t lo, uint32_t hi, uint64_t slo, uint64_t shi,
                   uint32_t *cp, size_t *ncp, size_t maxcp, int depth)
{
    if (hi <= lo || *ncp >= maxcp || depth > 40)
        return;
    if (hi == lo + 1) {
        if (slo != shi)
            cp[(*ncp)++] = hi;
        return;
    }
    int ok;
    if (depth == 0 && slo != shi && hi - lo > 3) {
        /* behaviour usually changes right at an edge (the first group, the
           group a guard cuts at the end): try next to both ends first */
        uint64_t s1 = sig_at(c, o, gc, d, lo + 1, &ok);
        if (ok && s1 == shi) {
            cp[(*ncp)++] = lo + 1;
            return;
        }
        uint64_t s2 = ok ? sig_at(c, o, gc, d, hi - 1, &ok) : 0;
        if (ok && s2 == slo) {
            cp[(*ncp)++] = hi;
            return;
        }
    }
    uint32_t mid = lo + (hi - lo) / 2;
    uint64_t sm = sig_at(c, o, gc, d, mid, &ok);
    if (!ok) {
        if (slo != shi)
            cp[(*ncp)++] = hi; /* unknown where exactly: stated below */
        return;
    }
    if (slo == shi && sm == slo)
        return; /* assumed uniform */
    bisect(c, o, gc, d, lo, mid, slo, sm, cp, ncp, maxcp, depth + 1);
    bisect(c, o, gc, d, mid, hi, sm, shi, cp, ncp, maxcp, depth + 1);
}

static int u32cmp(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static void probe_add(uint32_t *probe, size_t *np, size_t max, uint32_t v, uint32_t G)
{
    if (v >= G || *np >= max)
        return;
    for (size_t i = 0; i < *np; i++)
        if (probe[i] == v)
            return;
    probe[(*np)++] = v;
}

/* Segments of axis d (G groups) within which groups behave alike.  nm: the
 * axis depends on the group id in a way that is not monotone (eval_wgdep.c),
 * so equal ends say nothing about the middle: besides the ends and the
 * middle, the groups that the kernel's constants single out and evenly
 * spaced ones are probed, and the caller states the assumption. */
static size_t segments(ev_ctx *c, const eval_options *o, gcache *gc, int d,
                       uint32_t G, seg *out, size_t max, int nm)
{
    if (G <= 1) {
        out[0].a = out[0].b = 0;
        return 1;
    }
    /* probe the edges and the middle first (edge effects are the common
       case), then bisect only where neighbouring probes differ */
    uint32_t probe[3 + EV_WG_CANDIDATES + 8];
    size_t np = 0, pmax = sizeof probe / sizeof probe[0];
    probe_add(probe, &np, pmax, 0, G);
    if (!nm)
        probe_add(probe, &np, pmax, G / 2, G);
    probe_add(probe, &np, pmax, G - 1, G);
    if (nm) {
        /* more probes while they are cheap: the middle, the groups the
           constants name, the eighths (a long module probes its ends) */
        uint32_t extra[1 + EV_WG_CANDIDATES + 7];
        size_t ne = 0;
        const ev_info *I = ev_ctx_info(c);
        extra[ne++] = G / 2;
        for (int i = 0; i < I->wg_ncand[d]; i++)
            extra[ne++] = I->wg_cand[d][i];
        for (uint32_t q = 1; q < 8; q++)
            extra[ne++] = (uint32_t)((uint64_t)G * q / 8);
        int ok0;
        sig_at(c, o, gc, d, 0, &ok0);
        double spent0 = o->step_budget - ev_steps_left(c);
        double per = gc->n ? spent0 / (double)gc->n : 0;
        for (size_t i = 0; i < ne; i++) {
            double spent = spent0;
            if (spent + per * (double)(np + 1) > EV_PROBE_STEPS)
                break;
            probe_add(probe, &np, pmax, extra[i], G);
        }
    }
    qsort(probe, np, sizeof *probe, u32cmp);
    uint64_t sig[3 + EV_WG_CANDIDATES + 8];
    int ok = 1;
    if (np == 3 && !nm) {
        /* edges alike: the axis is taken as uniform without the middle
           (every branch and address is monotone in the group id here:
           eval_wgdep.c, so equal ends mean equal groups in between) */
        uint64_t s0 = sig_at(c, o, gc, d, probe[0], &ok);
        uint64_t s2 = ok ? sig_at(c, o, gc, d, probe[2], &ok) : 0;
        if (ok && s0 == s2) {
            out[0].a = 0;
            out[0].b = G - 1;
            return 1;
        }
    }
    for (size_t i = 0; i < np && ok; i++)
        sig[i] = sig_at(c, o, gc, d, probe[i], &ok);
    uint32_t cp[64];
    size_t ncp = 0;
    if (ok)
        for (size_t i = 0; i + 1 < np; i++)
            if (sig[i] != sig[i + 1] || probe[i + 1] - probe[i] > 1) {
                if (sig[i] == sig[i + 1])
                    continue; /* assumed uniform between equal probes */
                bisect(c, o, gc, d, probe[i], probe[i + 1], sig[i], sig[i + 1], cp, &ncp,
                       62, 0);
            }
    qsort(cp, ncp, sizeof *cp, u32cmp);
    size_t n = 0;
    uint32_t start = 0;
    for (size_t i = 0; i <= ncp && n < max; i++) {
        uint32_t end = i < ncp ? cp[i] - 1 : G - 1;
        if (i < ncp && (cp[i] == 0 || cp[i] <= start))
            continue;
        out[n].a = start;
        out[n].b = end;
        n++;
        if (i < ncp)
            start = cp[i];
    }
    return n;
}

/* ---- compulsory bytes ---- */

typedef struct ivec {
    ev_run *r;
    size_t n, cap;
} ivec;

static int ivec_push(ivec *v, int64_t lo, int64_t hi)
{
    if (v->n >= (8u << 20))
        return -1;
    if (v->n == v->cap) {
        v->cap = v->cap ? v->cap * 2 : 256;
        v->r = xrealloc(v->r, v->cap * sizeof *v->r);
    }
    v->r[v->n].lo = lo;
    v->r[v->n].hi = hi;
    v->n++;
    return 0;
}

/* Translation step along each dimension from corner a to the corners
 * that differ in one dimension; 0 when not a translation. */
static int translation(const ev_runs *ra, const ev_runs *rb, uint32_t span,
                       int64_t *step)
{
    if (ra->n != rb->n || ra->inexact || rb->inexact)
        return 0;
    if (ra->n == 0) {
        *step = 0;
        return 1;
    }
    int64_t d = rb->r[0].lo - ra->r[0].lo;
    if (span == 0 || d % (int64_t)span != 0)
        return 0;
    for (size_t i = 0; i < ra->n; i++)
        if (rb->r[i].lo - ra->r[i].lo != d || rb->r[i].hi - ra->r[i].hi != d)
            return 0;
    *step = d / (int64_t)span;
    return 1;
}

/* Adds the byte ranges slot s touches in box (corners cg[]) to v.
 * Returns 1 when exact, 0 when a hull had to be used. */
static int box_footprint(const seg *bx, ev_group *const cg[8], int slot,
                         ivec *v, int64_t limit)
{
    const ev_group *a = cg[0];
    if (!a)
        return 0;
    const ev_runs *ra = &a->fp[slot];
    int64_t step[3] = {0, 0, 0};
    uint64_t cnt[3] = {1, 1, 1};
    int exact = !ra->inexact;
    for (int d = 0; d < 3 && exact; d++) {
        uint32_t span = bx[d].b - bx[d].a;
        if (span == 0)
            continue;
        const ev_group *b = cg[1 << d];
        if (!b || !translation(ra, &b->fp[slot], span, &step[d]))
            exact = 0;
        cnt[d] = step[d] ? (uint64_t)span + 1 : 1;
    }
    if (exact) {
        /* the union over the box is the union over x, then over y, then
           over z, of translated copies; merging after each axis keeps it
           small when neighbouring groups touch adjacent bytes */
        ev_runs cur = {NULL, 0, 0, 0};
        cur.cap = ra->n ? ra->n : 1;
        cur.r = xmalloc(cur.cap * sizeof *cur.r);
        if (ra->n)
            memcpy(cur.r, ra->r, ra->n * sizeof *cur.r);
        cur.n = ra->n;
        /* smallest step first: adjacent copies merge before the runs
           multiply along the other axes */
        int ord[3] = {0, 1, 2};
        for (int i = 0; i < 3; i++)
            for (int j = i + 1; j < 3; j++) {
                int64_t si = step[ord[i]] < 0 ? -step[ord[i]] : step[ord[i]];
                int64_t sj = step[ord[j]] < 0 ? -step[ord[j]] : step[ord[j]];
                if (sj < si) {
                    int t = ord[i];
                    ord[i] = ord[j];
                    ord[j] = t;
                }
            }
        for (int oi = 0; oi < 3 && exact; oi++) {
            int d = ord[oi];
            if (cnt[d] <= 1 || cur.n == 0)
                continue;
            double work = (double)cnt[d] * (double)cur.n;
            if (work > 8e6) {
                exact = 0;
                break;
            }
            ev_runs nx = {NULL, 0, 0, 0};
            nx.cap = (size_t)work;
            nx.r = xmalloc(nx.cap * sizeof *nx.r);
            for (uint64_t k = 0; k < cnt[d]; k++) {
                int64_t sh = (int64_t)k * step[d];
                for (size_t i = 0; i < cur.n; i++) {
                    nx.r[nx.n].lo = cur.r[i].lo + sh;
                    nx.r[nx.n].hi = cur.r[i].hi + sh;
                    nx.n++;
                }
            }
            ev_runs_normalize(&nx);
            free(cur.r);
            cur = nx;
        }
        if (exact) {
            for (size_t i = 0; i < cur.n; i++) {
                int64_t lo = cur.r[i].lo, hi = cur.r[i].hi;
                if (lo < 0) lo = 0;
                if (hi > limit) hi = limit;
                if (lo < hi && ivec_push(v, lo, hi)) {
                    exact = 0;
                    break;
                }
            }
            free(cur.r);
            if (exact)
                return 1;
        } else {
            free(cur.r);
        }
    }
    /* the hull of what the corners touched */
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (int k = 0; k < 8; k++) {
        if (!cg[k])
            continue;
        const ev_runs *r = &cg[k]->fp[slot];
        if (r->n) {
            if (r->r[0].lo < lo) lo = r->r[0].lo;
            if (r->r[r->n - 1].hi > hi) hi = r->r[r->n - 1].hi;
        }
    }
    if (lo < hi)
        ivec_push(v, lo, hi < limit ? hi : limit);
    return ra->n == 0 && lo >= hi;
}

static double ivec_total_bitmap(ivec *v, int64_t limit)
{
    if (limit <= 0 || limit > ((int64_t)64 << 20) || v->n < 64)
        return -1;
    size_t words = (size_t)((limit + 63) / 64);
    uint64_t *bm = calloc(words, sizeof *bm);
    if (!bm)
        return -1;
    for (size_t i = 0; i < v->n; i++) {
        int64_t lo = v->r[i].lo < 0 ? 0 : v->r[i].lo;
        int64_t hi = v->r[i].hi > limit ? limit : v->r[i].hi;
        while (lo < hi && (lo & 63)) {
            bm[lo >> 6] |= 1ull << (lo & 63);
            lo++;
        }
        while (hi - lo >= 64) {
            bm[lo >> 6] = ~0ull;
            lo += 64;
        }
        while (lo < hi) {
            bm[lo >> 6] |= 1ull << (lo & 63);
            lo++;
        }
    }
    double t = 0;
    for (size_t w = 0; w < words; w++)
        t += (double)__builtin_popcountll(bm[w]);
    free(bm);
    return t;
}

static double ivec_total(ivec *v)
{
    ev_runs r = {v->r, v->n, v->cap, 0};
    ev_runs_normalize(&r);
    double t = 0;
    for (size_t i = 0; i < r.n; i++)
        t += (double)(r.r[i].hi - r.r[i].lo);
    return t;
}

/* ---- merging ---- */

static void acc_merge(ev_acc *dst, const ev_acc *s, double w, int first)
{
    (void)first;
    dst->count += s->count * w;
    dst->chain += s->chain * w;
    for (int k = 0; k < CW_CHAIN_PEERS && s->peer[k]; k++) {
        int j = 0;
        while (j < CW_CHAIN_PEERS && dst->peer[j] && dst->peer[j] != s->peer[k])
            j++;
        if (j == CW_CHAIN_PEERS)
            continue; /* a fifth load on the chain: left out */
        dst->peer[j] = s->peer[k];
        dst->peer_execs[j] += s->peer_execs[k] * w;
    }
    if (s->idx_any) {
        if (!dst->idx_any || s->idx_min < dst->idx_min)
            dst->idx_min = s->idx_min;
        if (!dst->idx_any || s->idx_max > dst->idx_max)
            dst->idx_max = s->idx_max;
        dst->idx_any = 1;
    }
    dst->idx_unknown |= s->idx_unknown;
    for (int k = 0; k < 4; k++) {
        if (s->stride_n[k] <= 0)
            continue;
        int j;
        for (j = 0; j < 4; j++)
            if (dst->stride_n[j] > 0 && dst->stride[j] == s->stride[k])
                break;
        if (j == 4)
            for (j = 0; j < 4; j++)
                if (dst->stride_n[j] == 0)
                    break;
        if (j < 4) {
            dst->stride[j] = s->stride[k];
            dst->stride_n[j] += s->stride_n[k] * w;
        }
    }
    dst->nonuniform |= s->nonuniform;
    dst->uniform_execs += s->uniform_execs * w;
    dst->execs += s->execs * w;
    if (s->var != EV_NONE && s->count > 0)
        dst->var = s->var;
}

static void oob_merge(ev_acc *dst, const ev_acc *s)
{
    if (s->oob_count <= 0)
        return;
    if (dst->oob_count == 0 || s->oob_idx_min < dst->oob_idx_min)
        dst->oob_idx_min = s->oob_idx_min;
    if (dst->oob_count == 0 || s->oob_idx_max > dst->oob_idx_max)
        dst->oob_idx_max = s->oob_idx_max;
    for (int d = 0; d < 3; d++) {
        if (dst->oob_count == 0 || s->oob_gid_min[d] < dst->oob_gid_min[d])
            dst->oob_gid_min[d] = s->oob_gid_min[d];
        if (dst->oob_count == 0 || s->oob_gid_max[d] > dst->oob_gid_max[d])
            dst->oob_gid_max[d] = s->oob_gid_max[d];
    }
    dst->oob_count += s->oob_count;
    dst->oob_certain |= s->oob_certain;
    if (dst->var == EV_NONE)
        dst->var = s->var;
}

static char *strdup_or(const char *s, const char *dflt)
{
    return cw_strdup(s && *s ? s : dflt);
}

static const char *binding_name(const ev_info *I, const ev_var *v)
{
    if (I->r)
        for (size_t i = 0; i < I->r->nbindings; i++)
            if (I->r->bindings[i].set == v->set &&
                I->r->bindings[i].binding == v->binding &&
                I->r->bindings[i].name && I->r->bindings[i].name[0])
                return I->r->bindings[i].name;
    return v->name;
}

static void add_assumption(kernel_counts *kc, const char *s)
{
    for (size_t i = 0; i < kc->nassumptions; i++)
        if (strcmp(kc->assumptions[i], s) == 0)
            return;
    kc->assumptions = xrealloc(kc->assumptions,
                              (kc->nassumptions + 1) * sizeof *kc->assumptions);
    kc->assumptions[kc->nassumptions++] = cw_strdup(s);
}

void eval_counts_free(kernel_counts *c)
{
    if (!c)
        return;
    if (c->undrawn) {
        free(c->undrawn->accesses);
        free(c->undrawn);
    }
    for (size_t i = 0; i < c->naccesses; i++)
        free(c->accesses[i].var);
    free(c->accesses);
    free(c->lines);
    for (size_t i = 0; i < c->nassumptions; i++)
        free(c->assumptions[i]);
    free(c->assumptions);
    memset(c, 0, sizeof *c);
}

/* The step budget of a second count when the first one ran out: a few
 * seconds of evaluation at most (a 2048^3 register-blocked GEMM's
 * workgroups take ~100 M lane-steps to count whole; 3.6 s of CPU for the
 * blind set's b_gemm_rb8x4).  No wall-clock bound: with one (15 s until
 * 2026-12-01) a loaded machine kept the first, lower-bound count and the
 * same kernel read 94.6 us instead of 433.7; a prediction must not depend
 * on how busy the machine is.  The fuzz target's dispatch (8 workgroups)
 * is never recounted. */
#define EV_RETRY_STEPS 128e6

int eval_run(const spv_module *m, const reflection *r, const plan_kernel *k,
             const device_profile *p, kernel_counts *counts,
             kernel_report *kr)
{
    eval_options o;
    eval_default_options(&o);
    int rc = eval_run_opts(m, r, k, p, &o, counts, kr);
    /* the step budget ran out (counts are lower bounds): count again with
     * a larger one so that a long workgroup (a GEMM's k loop) is counted
     * whole; the dynamic checks keep the first run's findings.  No recount
     * when the first count was already bounded by the clock. */
    /* the recount's budget in proportion to the share of the units the
     * dispatch fills (a workgroup per unit: all of it): a dispatch of half
     * the units is recounted with half of it, one too small to give the
     * recount twice the first budget keeps the bounded first count (the
     * fuzz harness's 8 workgroups: recounts that ran out too cost ~4x the
     * time) */
    uint32_t units = p && p->units ? p->units : 1;
    double retry = EV_RETRY_STEPS * fmin(1, (double)counts->workgroups / units);
    if (rc == 0 && counts->budget_hit && retry >= 2 * o.step_budget) {
        kernel_counts again;
        o.step_budget = retry;
        /* kept only when it finished: a recount cut short by its budget
         * is no better than the first count */
        if (eval_run_opts(m, r, k, p, &o, &again, NULL) == 0 && !again.budget_hit) {
            eval_counts_free(counts);
            *counts = again;
        } else {
            eval_counts_free(&again);
        }
    }
    return rc;
}

/* slot_of[line] = index into kc->lines + 1 (lines up to nslot) */
static void line_add(kernel_counts *kc, uint32_t *slot_of, size_t nslot, int line,
                     double flops, double bytes, double instr)
{
    if (line <= 0 || (flops == 0 && bytes == 0 && instr == 0))
        return;
    if ((size_t)line < nslot && slot_of[line]) {
        line_cost *lc = &kc->lines[slot_of[line] - 1];
        lc->flops += flops;
        lc->bytes += bytes;
        lc->instructions += instr;
        return;
    }
    for (size_t i = 0; (size_t)line >= nslot && i < kc->nlines; i++)
        if (kc->lines[i].line == line) {
            kc->lines[i].flops += flops;
            kc->lines[i].bytes += bytes;
            kc->lines[i].instructions += instr;
            return;
        }
    if ((size_t)line < nslot)
        slot_of[line] = (uint32_t)kc->nlines + 1;
    kc->lines = xrealloc(kc->lines, (kc->nlines + 1) * sizeof *kc->lines);
    line_cost *lc = &kc->lines[kc->nlines++];
    lc->line = line;
    lc->flops = flops;
    lc->bytes = bytes;
    lc->instructions = instr;
}

/* head then the non-zero lines ("; folded at line(s) 12, 14"), "" when
 * none */
static void lines_text(char *out, size_t cap, const char *head, const int *lines)
{
    size_t n = 0;
    for (int k = 0; k < 4 && lines[k] > 0 && n + 16 < cap; k++)
        n += (size_t)snprintf(out + n, cap - n, "%s%d", k == 0 ? head : ", ", lines[k]);
}

/* The assumption that says what the compiled counts took out. */
static void compiled_note(kernel_counts *kc, const ev_compiled *e, double counted,
                          double active)
{
    char buf[400];
    if (!e->active) {
        if (e->why[0]) {
            snprintf(buf, sizeof buf, "instructions counted as written (%s)", e->why);
            add_assumption(kc, buf);
        }
        return;
    }
    double inv = active > 0 ? active : 1;
    char fl[64] = "", ho[64] = "";
    lines_text(fl, sizeof fl, "; folded at line(s) ", e->folded_lines);
    lines_text(ho, sizeof ho, "; hoisted at line(s) ", e->hoisted_lines);
    snprintf(buf, sizeof buf,
             "executed counts as the driver's compiler leaves them (profile "
             "full_unroll_trips): %u of %u loop(s) fully unrolled, arithmetic on "
             "constants and their counters folded, loop-invariant arithmetic and "
             "push-constant reads hoisted: %.4g counted instructions per invocation "
             "-> %.4g executed%s%s",
             e->unrolled, e->loops, counted / inv, kc->instructions / inv, fl, ho);
    add_assumption(kc, buf);
}

/* Private arrays in local memory (eval_compiled.h): kept in the counts
 * for the finding, and said in the assumptions, since the model does not
 * price their accesses (docs/model.md section 8). */
static void local_note(const ev_ctx *c, kernel_counts *kc, const ev_compiled *e,
                       double active)
{
    if (!e->active || !(e->local_execs > 0))
        return;
    kc->local_accesses = e->local_execs;
    memcpy(kc->local_lines, e->local_lines, sizeof kc->local_lines);
    const char *name = e->local_var < c->info.nvars ? c->info.vars[e->local_var].name : NULL;
    snprintf(kc->local_var, sizeof kc->local_var, "%s", name && *name ? name : "(unnamed)");
    lines_text(kc->local_where, sizeof kc->local_where, "", e->local_lines);
    char buf[400];
    snprintf(buf, sizeof buf,
             "private array '%s' indexed by a value that does not fold at "
             "line(s) %s: the driver places it in local memory; its %.4g loads "
             "and stores per invocation are not priced (the prediction may be low)",
             kc->local_var, kc->local_where, e->local_execs / (active > 0 ? active : 1));
    add_assumption(kc, buf);
}

static int line_cmp(const void *a, const void *b)
{
    const line_cost *x = a, *y = b;
    return x->line - y->line;
}

/* Does executed group g go out of bounds anywhere? */
static int group_oob(const ev_info *I, const ev_group *g)
{
    for (size_t a = 0; a < I->nacc; a++)
        if (g->acc[a].oob_count > 0)
            return 1;
    return 0;
}

/* Within a class of workgroups only the corners run; when one corner goes
 * out of bounds and the other does not, bisect along that axis for the
 * first (last) offending group, so the reported invocation and index
 * ranges cover every group in between. */
static void refine_oob(ev_ctx *c, const eval_options *o, gcache *gc,
                       const seg *bx, ev_group *const cg[8])
{
    const ev_info *I = ev_ctx_info(c);
    for (int d = 0; d < 3; d++) {
        const ev_group *lo = cg[0], *hi = cg[1 << d];
        if (!lo || !hi || bx[d].b - bx[d].a < 2)
            continue;
        int ol = group_oob(I, lo), oh = group_oob(I, hi);
        if (ol == oh)
            continue;
        uint32_t a = bx[d].a, b = bx[d].b; /* ol at a, oh at b */
        uint32_t base[3] = {lo->g[0], lo->g[1], lo->g[2]};
        while (b - a > 1) {
            uint32_t mid = a + (b - a) / 2;
            base[d] = mid;
            ev_group *g = gc_get(c, o, gc, base[0], base[1], base[2]);
            if (!g)
                break;
            if (group_oob(I, g) == oh)
                b = mid;
            else
                a = mid;
        }
    }
}

/* bytes to *store when the access writes (an atomic does both), to *load
 * when it reads */
static void add_by_direction(const ev_access_def *d, double bytes, double *store,
                             double *load)
{
    if (d->is_store || d->is_atomic)
        *store += bytes;
    if (!d->is_store)
        *load += bytes;
}

/* The per-access summaries of kc (storage, uniform and shared accesses)
 * and the bytes they move, per class and per line. */
/* Which accesses take their address from a buffer load's value
 * (eval_chase.h): chase_of names the most executed such load. */
static void chase_steps(const spv_module *m, kernel_counts *kc)
{
    ev_chase ch;
    /* instruction -> its access + 1 (0: none) */
    size_t *access_of = calloc(m->ninsts ? m->ninsts : 1, sizeof *access_of);
    if (!access_of || ev_chase_init(&ch, m)) {
        free(access_of);
        return;
    }
    for (size_t a = 0; a < kc->naccesses; a++)
        if (kc->accesses[a].inst < m->ninsts)
            access_of[kc->accesses[a].inst] = a + 1;
    for (size_t a = 0; a < kc->naccesses; a++) {
        uint32_t src[8];
        size_t n = ev_chase_sources(&ch, m, kc->accesses[a].inst, src, 8);
        double most = -1;
        for (size_t k = 0; k < n; k++) {
            size_t b = src[k] < m->ninsts ? access_of[src[k]] : 0;
            if (!b--)
                continue;
            kc->accesses[a].chase_atomic |= kc->accesses[b].is_atomic;
            if (kc->accesses[b].count > most) {
                most = kc->accesses[b].count;
                kc->accesses[a].chase_of = b + 1;
            }
        }
    }
    free(access_of);
    ev_chase_free(&ch);
}

static void summarise_accesses(const ev_info *I, const ev_acc *acc, kernel_counts *kc,
                               uint32_t *slot_of, size_t nslot)
{
    kc->accesses = xcalloc(I->nacc + 1, sizeof *kc->accesses);
    size_t *summary_of = xcalloc(I->nacc + 1, sizeof *summary_of);
    for (size_t a = 0; a < I->nacc; a++) {
        const ev_access_def *d = &I->acc[a];
        const ev_acc *s = &acc[a];
        uint32_t vi = s->var != EV_NONE ? s->var : d->var;
        if (vi == EV_NONE || vi >= I->nvars)
            continue;
        const ev_var *v = &I->vars[vi];
        double bytes = s->count * d->bytes;
        switch (v->cls) {
        case EVM_STORAGE:
            add_by_direction(d, bytes, &kc->storage_store_bytes, &kc->storage_load_bytes);
            break;
        case EVM_UNIFORM:
            kc->uniform_load_bytes += bytes;
            break;
        case EVM_SHARED:
            add_by_direction(d, bytes, &kc->shared_store_bytes, &kc->shared_load_bytes);
            break;
        default:
            break;
        }
        if (v->cls == EVM_PUSH)
            continue;
        line_add(kc, slot_of, nslot, d->line, 0, bytes, 0);
        summary_of[a] = kc->naccesses + 1;
        access_summary *as = &kc->accesses[kc->naccesses++];
        as->space = v->cls == EVM_STORAGE ? SPACE_STORAGE
                  : v->cls == EVM_UNIFORM ? SPACE_UNIFORM : SPACE_SHARED;
        as->set = v->set;
        as->binding = v->binding;
        as->var = strdup_or(v->cls == EVM_SHARED ? v->name : binding_name(I, v),
                            v->cls == EVM_SHARED ? "shared" : "buffer");
        as->is_store = d->is_store;
        as->is_atomic = d->is_atomic;
        as->bytes = d->bytes;
        as->count = s->count;
        as->chain_execs = s->chain;
        double best = 0;
        for (int q = 0; q < 4; q++)
            if (s->stride_n[q] > best) {
                best = s->stride_n[q];
                as->lane_stride_bytes = s->stride[q];
                as->stride_known = 1;
            }
        as->uniform = s->execs > 0 && s->uniform_execs >= s->execs;
        if (as->uniform) {
            as->stride_known = 1;
            as->lane_stride_bytes = 0;
        }
        as->index_known = s->idx_any && !s->idx_unknown;
        as->index_min = s->idx_min;
        as->index_max = s->idx_max;
        double span = s->idx_any ? (double)(s->idx_max - s->idx_min + 1) *
                                       (v->cls == EVM_SHARED ? 1 : d->elem_bytes)
                                 : 0;
        if (v->cls == EVM_SHARED)
            span *= d->bytes ? d->bytes : 4;
        as->footprint_bytes = span < bytes ? span : bytes;
        as->span_bytes = span;
        as->line = d->line;
        as->inst = d->inst;
    }
    /* each longest chain's other loads, as summary indices */
    for (size_t a = 0; a < I->nacc; a++) {
        if (!summary_of[a])
            continue;
        access_summary *as = &kc->accesses[summary_of[a] - 1];
        int n = 0;
        for (int k = 0; k < CW_CHAIN_PEERS && acc[a].peer[k]; k++) {
            size_t b = summary_of[acc[a].peer[k] - 1];
            if (!b)
                continue;
            as->chain_peer[n] = b;
            as->chain_peer_execs[n++] = acc[a].peer_execs[k];
        }
    }
    free(summary_of);
}

/* Compulsory bytes read and written, from the touched byte ranges (or,
 * where those are not a translation, the hull of the index ranges). */
static void compulsory_bytes(const ev_info *I, const ev_acc *acc, ivec *fpv,
                             const int *fp_exact, kernel_counts *kc)
{
    for (int s = 0; s < I->nfp; s++) {
        const ev_var *bv = NULL;
        for (size_t vi = 0; vi < I->nvars; vi++)
            if (I->vars[vi].fp_slot == (s & ~1))
                bv = &I->vars[vi];
        double t = ivec_total_bitmap(&fpv[s], bv && bv->buf_known ?
                                                  (int64_t)bv->buf_bytes : 0);
        if (t < 0)
            t = ivec_total(&fpv[s]);
        if (!fp_exact[s] && bv) {
            /* a class whose touched bytes are not a translation: the hull
               of the accesses' index ranges over the dispatch */
            int64_t lo = INT64_MAX, hi = INT64_MIN;
            double moved = 0; /* the bytes the accesses move: a sparse
                                 walk (a sector of each line) touches
                                 no more than these of its hull */
            for (size_t a = 0; a < I->nacc; a++) {
                const ev_access_def *d = &I->acc[a];
                uint32_t vi = acc[a].var != EV_NONE ? acc[a].var : d->var;
                if (vi >= I->nvars || I->vars[vi].fp_slot != (s & ~1) || !acc[a].idx_any)
                    continue;
                int dir_store = d->is_store || d->is_atomic;
                int dir_load = !d->is_store;
                if (!((s & 1) ? dir_store : dir_load))
                    continue;
                int64_t st = bv->rt_stride ? bv->rt_stride : (d->bytes ? d->bytes : 1);
                int64_t b0 = bv->rt_stride ? (int64_t)bv->rt_base : 0;
                int64_t l = b0 + acc[a].idx_min * st, h = b0 + acc[a].idx_max * st + d->bytes;
                if (l < lo) lo = l;
                if (h > hi) hi = h;
                moved += acc[a].count * (d->bytes ? d->bytes : 1);
            }
            if (lo < 0)
                lo = 0;
            if (bv->buf_known && hi > (int64_t)bv->buf_bytes)
                hi = (int64_t)bv->buf_bytes;
            if (hi > lo && (double)(hi - lo) > t)
                t = (double)(hi - lo);
            /* hulls (of the groups' runs or of the index ranges) hold no
               more distinct bytes than the accesses move */
            if (moved > 0 && t > moved)
                t = moved;
        }
        if (s & 1)
            kc->compulsory_write_bytes += t;
        else
            kc->compulsory_read_bytes += t;
    }
}
/* Groups an axis that must run every group may bring the cache to: as
 * many as 64 MiB of per-group results hold, at most 1024. */
static size_t wg_group_cap(const ev_info *I, const eval_options *o)
{
    size_t per = (I->ninsts + 1) * sizeof(double) + (I->nacc + 1) * sizeof(ev_acc) +
                 ((size_t)I->nfp + 1) * sizeof(ev_runs) + 256;
    size_t cap = ((size_t)64 << 20) / per;
    if (cap > EV_SEG_MAX)
        cap = EV_SEG_MAX;
    return cap > o->max_groups ? cap : o->max_groups;
}

/* a * b, at most UINT32_MAX (only compared with a group cap) */
static uint64_t sat_mul(uint64_t a, uint64_t b)
{
    uint64_t r = a * b;
    return a > UINT32_MAX || b > UINT32_MAX || r > UINT32_MAX ? UINT32_MAX : r;
}

/* Distinct corner coordinates of an axis's segments. */
static uint64_t corner_coords(const seg *s, size_t n)
{
    uint64_t k = 0;
    for (size_t i = 0; i < n; i++)
        k += s[i].a == s[i].b ? 1 : 2;
    return k;
}

/* The segments of every axis.  An axis whose middle groups the ends do not
 * speak for (info.wg_nm) runs every group when that fits the cache with
 * the other axes' corners; otherwise it is probed more densely and the
 * assumption is stated. */
static void axis_segments(ev_ctx *c, const eval_options *o, gcache *gc, const uint32_t G[3],
                          seg *sv[3], size_t ns[3])
{
    const ev_info *I = ev_ctx_info(c);
    uint64_t runs = 1;
    for (int d = 0; d < 3; d++) {
        if (I->wg_nm & (1u << d))
            continue;
        ns[d] = segments(c, o, gc, d, G[d], sv[d], 64, 0);
        runs = sat_mul(runs, corner_coords(sv[d], ns[d]));
    }
    for (int d = 0; d < 3; d++)
        if (I->wg_nm & (1u << d))
            runs = sat_mul(runs, G[d]);
    size_t cap = wg_group_cap(I, o);
    /* and when half the step budget left pays for them at the cost of the
       groups run so far (one probe first when none has run) */
    if (I->wg_nm && gc->n == 0)
        gc_get(c, o, gc, 0, 0, 0);
    double steps = 0;
    for (size_t i = 0; i < gc->n; i++)
        steps += gc->g[i].steps;
    steps = gc->n ? steps / (double)gc->n : 0;
    int every = I->wg_nm && runs + gc->n <= cap &&
                (double)runs * steps <= 0.5 * ev_steps_left(c);
    if (every && runs + gc->n > gc->max)
        gc->max = (size_t)runs + gc->n;
    static const char axis[3] = {'x', 'y', 'z'};
    for (int d = 0; d < 3; d++) {
        if (!(I->wg_nm & (1u << d)))
            continue;
        if (every) {
            for (uint32_t i = 0; i < G[d]; i++)
                sv[d][i].a = sv[d][i].b = i;
            ns[d] = G[d];
            continue;
        }
        ns[d] = segments(c, o, gc, d, G[d], sv[d], 64, 1);
        uint32_t ii = I->wg_nm_inst[d];
        ev_note(c, "gl_WorkGroupID.%c: line %d has %s, so the %u workgroups along %c "
                   "are probed (ends, middle, eighths, groups its constants name) and "
                   "the others assumed to behave like their neighbours",
                axis[d], ii == EV_NONE ? 0 : ev_inst_line(I->m, ii), I->wg_nm_why[d], G[d],
                axis[d]);
    }
}

int eval_run_opts(const spv_module *m, const reflection *r,
                  const plan_kernel *k, const device_profile *p,
                  const eval_options *o, kernel_counts *kc,
                  kernel_report *kr)
{
    memset(kc, 0, sizeof *kc);
    kc->fp_chains = 1;
    kc->conf = CONF_UNKNOWN;
    char why[256];
    eval_options opt;
    if (o)
        opt = *o;
    else
        eval_default_options(&opt);
    ev_ctx *c = ev_ctx_new(m, r, k, p, &opt, why, sizeof why);
    uint32_t G[3] = {1, 1, 1};
    for (int d = 0; d < 3; d++)
        G[d] = k ? k->workgroups[d] : 1;
    /* checked products: 2^32 groups per axis would wrap */
    uint64_t ngroups = (uint64_t)G[0] * G[1];
    ngroups = G[2] && ngroups > UINT64_MAX / G[2] ? UINT64_MAX : ngroups * G[2];
    kc->workgroups = ngroups;
    if (!c) {
        add_assumption(kc, why);
        return -1;
    }
    ev_info *I = ev_ctx_info(c);
    kc->invocations = I->lanes && ngroups > UINT64_MAX / I->lanes ? UINT64_MAX
                                                                   : ngroups * I->lanes;
    if (ngroups == 0) {
        kc->conf = CONF_EXACT;
        ev_ctx_free(c);
        return 0;
    }

    gcache gc = {0};
    gc.max = opt.max_groups;
    /* boxes: product of per-dimension segments */
    seg *sx = xcalloc(EV_SEG_MAX, sizeof *sx), *sy = xcalloc(EV_SEG_MAX, sizeof *sy),
        *sz = xcalloc(EV_SEG_MAX, sizeof *sz);
    size_t nx, ny, nz;
    int all = ngroups <= opt.all_groups_below;
    if (all) {
        nx = G[0]; ny = G[1]; nz = G[2];
        for (uint32_t i = 0; i < G[0]; i++) sx[i].a = sx[i].b = i;
        for (uint32_t i = 0; i < G[1]; i++) sy[i].a = sy[i].b = i;
        for (uint32_t i = 0; i < G[2]; i++) sz[i].a = sz[i].b = i;
    } else {
        seg *sv[3] = {sx, sy, sz};
        size_t ns[3];
        axis_segments(c, &opt, &gc, G, sv, ns);
        nx = ns[0]; ny = ns[1]; nz = ns[2];
    }
    size_t nboxes = nx * ny * nz;
    double *icount = xcalloc(m->ninsts + 1, sizeof *icount);
    ev_acc *acc = xcalloc(I->nacc + 1, sizeof *acc);
    ivec *fpv = xcalloc((size_t)I->nfp + 1, sizeof *fpv);
    int *fp_exact = xcalloc((size_t)I->nfp + 1, sizeof *fp_exact);
    for (size_t a = 0; a < I->nacc; a++)
        acc[a].var = EV_NONE;
    for (int s = 0; s < I->nfp; s++)
        fp_exact[s] = 1;
    double active = 0, barriers = 0, covered = 0;
    double instr_most = 0, instr_mean = 0; /* the lanes' instructions */
    int corner_mismatch = 0, missing = 0;
    for (size_t bz = 0; bz < nz; bz++)
        for (size_t by = 0; by < ny; by++)
            for (size_t bxi = 0; bxi < nx; bxi++) {
                seg bx[3] = {sx[bxi], sy[by], sz[bz]};
                double size = (double)(bx[0].b - bx[0].a + 1) *
                              (bx[1].b - bx[1].a + 1) * (bx[2].b - bx[2].a + 1);
                ev_group *cg[8];
                int ncorner = 0;
                for (int q = 0; q < 8; q++) {
                    uint32_t x = q & 1 ? bx[0].b : bx[0].a;
                    uint32_t y = q & 2 ? bx[1].b : bx[1].a;
                    uint32_t z = q & 4 ? bx[2].b : bx[2].a;
                    int dup = 0;
                    for (int t = 0; t < q; t++)
                        if (cg[t] && cg[t]->g[0] == x && cg[t]->g[1] == y &&
                            cg[t]->g[2] == z)
                            dup = 1;
                    cg[q] = gc_get(c, &opt, &gc, x, y, z);
                    if (dup) {
                        /* same group as an earlier corner */
                        continue;
                    }
                    if (cg[q])
                        ncorner++;
                }
                if (ncorner == 0) {
                    missing = 1;
                    continue;
                }
                /* distinct executed corners share the box's weight */
                const ev_group *seen[8];
                int ns = 0;
                for (int q = 0; q < 8; q++) {
                    if (!cg[q])
                        continue;
                    int dup = 0;
                    for (int t = 0; t < ns; t++)
                        dup |= seen[t] == cg[q];
                    if (dup)
                        continue;
                    seen[ns++] = cg[q];
                }
                double w = size / ns;
                covered += size;
                for (int t = 0; t < ns; t++) {
                    const ev_group *g = seen[t];
                    if (g->sig != seen[0]->sig)
                        corner_mismatch = 1;
                    for (size_t i = 0; i < m->ninsts; i++)
                        icount[i] += g->icount[i] * w;
                    for (size_t a = 0; a < I->nacc; a++)
                        acc_merge(&acc[a], &g->acc[a], w, 0);
                    active += g->active * w;
                    barriers += g->barriers * w;
                    instr_most += g->lane_instr_most * w;
                    instr_mean += g->lane_instr_mean * w;
                }
                refine_oob(c, &opt, &gc, bx, cg);
                for (int s = 0; s < I->nfp; s++) {
                    const ev_var *v = NULL;
                    for (size_t vi = 0; vi < I->nvars; vi++)
                        if (I->vars[vi].fp_slot == (s & ~1))
                            v = &I->vars[vi];
                    int64_t limit = v && v->buf_known ? (int64_t)v->buf_bytes
                                                      : INT64_MAX / 4;
                    if (!box_footprint(bx, cg, s, &fpv[s], limit))
                        fp_exact[s] = 0;
                }
            }
    /* groups the budget left unexecuted: scaled from the executed ones */
    if (covered > 0 && covered + 0.5 < (double)ngroups) {
        double sc = (double)ngroups / covered;
        for (size_t i = 0; i < m->ninsts; i++)
            icount[i] *= sc;
        for (size_t a = 0; a < I->nacc; a++) {
            acc[a].count *= sc;
            acc[a].chain *= sc;
            for (int q = 0; q < CW_CHAIN_PEERS; q++)
                acc[a].peer_execs[q] *= sc;
            acc[a].execs *= sc;
            acc[a].uniform_execs *= sc;
        }
        active *= sc;
        barriers *= sc;
    }
    /* OOB facts from every executed group (they are real groups) */
    for (size_t gi = 0; gi < gc.n; gi++)
        for (size_t a = 0; a < I->nacc; a++) {
            oob_merge(&acc[a], &gc.g[gi].acc[a]);
            const ev_acc *s = &gc.g[gi].acc[a];
            if (s->idx_any) {
                if (!acc[a].idx_any || s->idx_min < acc[a].idx_min)
                    acc[a].idx_min = s->idx_min;
                if (!acc[a].idx_any || s->idx_max > acc[a].idx_max)
                    acc[a].idx_max = s->idx_max;
                acc[a].idx_any = 1;
            }
        }

    /* ---- totals ---- */
    size_t nslot = 1;
    for (size_t i = 0; i < m->ninsts; i++)
        if (m->insts[i].line > 0 && (size_t)m->insts[i].line + 1 > nslot)
            nslot = (size_t)m->insts[i].line + 1;
    if (nslot > (1u << 22))
        nslot = 1u << 22;
    uint32_t *slot_of = xcalloc(nslot, sizeof *slot_of);
    /* a count that is not a finite number (0 invocations run) is 0, never
       converted as such (undefined) */
    kc->active_invocations = !(active >= 0) ? 0 : active >= 1.8e19 ? UINT64_MAX
                                                 : (uint64_t)(active + 0.5);
    kc->barriers = barriers;
    /* the longest invocation's instructions over the average's (1 when
     * every lane runs alike; scaling leaves the ratio as it is) */
    kc->chain_instr_ratio = instr_mean > 0 && instr_most > instr_mean * (1 + 1e-9)
                                ? instr_most / instr_mean : 1;
    /* what the driver's compiler executes of the counted arithmetic
     * (eval_compiled.h; all weights 1 unless the profile says how it
     * unrolls) */
    ev_compiled comp;
    ev_compiled_weights(c, p, icount, &comp);
    double counted_instr = 0;
    for (size_t i = 0; i < m->ninsts; i++) {
        double n = icount[i];
        if (n == 0)
            continue;
        counted_instr += n * I->instr[i];
        /* arithmetic at its executed count; accesses, atomics and
         * subgroup operations as counted */
        n *= comp.w[i];
        kc->flops_fp16 += n * I->flops16[i];
        kc->flops_fp32 += n * I->flops32[i];
        kc->flops_fp64 += n * I->flops64[i];
        kc->sfu_ops += n * I->sfu[i];
        kc->int_ops += n * I->intops[i];
        kc->instructions += n * I->instr[i];
        if (comp.ctl[i]) {
            kc->loop_ctl_instructions += n * I->instr[i];
            kc->loop_ctl_int_ops += n * I->intops[i];
        }
        n = icount[i];
        /* subgroup operations (one per lane execution, for the model's
         * latency path: docs/model.md 4.1); Elect is a mask test */
        if (m->insts[i].opcode > SpvOpGroupNonUniformElect &&
            m->insts[i].opcode <= SpvOpGroupNonUniformQuadSwap)
            kc->subgroup_ops += n;
        if (I->is_atomic[i])
            kc->atomics += n;
        if (c->bar_kind[i] == (EV_BAR_SUBGROUP | EV_BAR_ORDERS))
            kc->subgroup_barriers += n;
        line_add(kc, slot_of, nslot, m->insts[i].line,
                 n * comp.w[i] * (I->flops16[i] + I->flops32[i] + I->flops64[i]), 0,
                 n * comp.w[i] * I->instr[i]);
    }
    for (size_t t = 0; t < comp.ntrip; t++)
        kc->loop_trips += icount[comp.trip_inst[t]];
    compiled_note(kc, &comp, counted_instr, active);
    local_note(c, kc, &comp, active);
    summarise_accesses(I, acc, kc, slot_of, nslot);
    for (size_t a = 0; a < kc->naccesses; a++) {
        uint32_t in = kc->accesses[a].inst;
        kc->accesses[a].copies = in < m->ninsts ? comp.copies[in] : 1;
    }
    chase_steps(m, kc);
    ev_compiled_free(&comp);
    compulsory_bytes(I, acc, fpv, fp_exact, kc);
    free(slot_of);
    if (kc->nlines) /* qsort with a NULL array is undefined even for 0 items */
        qsort(kc->lines, kc->nlines, sizeof *kc->lines, line_cmp);
    kc->fp_chains = ev_fp_chains(c, icount);

    /* ---- confidence ---- */
    char buf[512];
    if (gc.capped || missing || covered + 0.5 < (double)ngroups) {
        snprintf(buf, sizeof buf,
                 "%zu of %llu workgroups executed; the others assumed to "
                 "behave like their neighbours", gc.n,
                 (unsigned long long)ngroups);
        ev_note(c, "%s", buf);
    }
    if (corner_mismatch)
        ev_note(c, "workgroups at the corners of a class differ; counts "
                   "averaged over them");
    for (size_t gi = 0; gi < gc.n; gi++)
        if (gc.g[gi].budget_hit) {
            kc->budget_hit = 1;
            ev_note(c, "step budget of %.0f interpreted instructions exhausted: "
                       "counts are lower bounds", opt.step_budget);
            break;
        }
    for (int s = 0; s < I->nfp; s++)
        if (!fp_exact[s]) {
            const ev_var *v = NULL;
            for (size_t vi = 0; vi < I->nvars; vi++)
                if (I->vars[vi].fp_slot == (s & ~1))
                    v = &I->vars[vi];
            ev_note(c, "compulsory bytes %s %s estimated from the index range",
                    s & 1 ? "written to" : "read from",
                    v ? binding_name(I, v) ? binding_name(I, v) : "a buffer" : "a buffer");
        }
    for (size_t i = 0; i < I->nnotes; i++)
        add_assumption(kc, I->notes[i]);
    kc->conf = I->estimated ? CONF_ESTIMATED : CONF_EXACT;
    kc->control_from_contents = I->control_from_contents;

    if (kr)
        checks_dyn_report(I, acc, kr);

    for (size_t gi = 0; gi < gc.n; gi++)
        ev_group_free(c, &gc.g[gi]);
    free(gc.g);
    for (int s = 0; s < I->nfp; s++)
        free(fpv[s].r);
    free(fpv);
    free(fp_exact);
    free(sx);
    free(sy);
    free(sz);
    free(icount);
    free(acc);
    ev_ctx_free(c);
    (void)nboxes;
    return 0;
}
