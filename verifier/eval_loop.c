/* eval_loop.c - loop acceleration.  Contract in eval_loop.h. */
#include "eval_ctx.h"
#include "alloc.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/GLSL.std.450.h>
#include <spirv/unified1/spirv.h>

/* ------------------------------------------------------------------ */
/* loop acceleration                                                    */
/*
 * A loop whose iterations repeat the same work with state that moves by a
 * constant step is not executed to the end: after three arrivals at its
 * header with the same lanes, the same instruction counts per iteration,
 * the same memory accesses each moved by a constant per lane, and every
 * branch a comparison of values that move by constant steps, the number
 * of further iterations that must behave alike is solved from those
 * comparisons; they are accounted at once (counts, index ranges, bounds,
 * touched bytes) and the state jumps ahead.  Values that control branches
 * or addresses must move affinely; others that do not are made unknown.
 */

/* Events of one iteration, in execution order:
 *   MEM    a buffer or shared access: a = address (bytes; components for
 *          shared), b = variable, span = width of an inexact address
 *   BRANCH a conditional branch on an integer comparison: a, b = operands
 *   IDX    an index into a fixed-size array (shared, private, function):
 *          a = index, b = array length, op = variable, span as for MEM
 *   BAR    a barrier: a = subgroup (-1: the workgroup), flags 1 when it
 *          orders shared memory
 * Skipped iterations are checked from them: buffer bounds at both ends of
 * each access's affine walk, array indices likewise (a linear index is
 * extreme at an end), and shared accesses and barriers replayed in order
 * through the race and initialisation tracking. */
enum { EVE_MEM = 0, EVE_BRANCH = 1, EVE_IDX = 2, EVE_BAR = 3 };

/* Replayed shared accesses per skip at most: beyond it fewer iterations
 * are skipped at once (the rest run, or are skipped later). */
#define EV_REPLAY_CAP (1u << 21)

typedef struct ev_event {
    uint32_t inst;
    uint16_t lane;
    uint8_t kind;
    uint8_t flags;       /* MEM: 1 store, 2 atomic; BRANCH: compare opcode kind */
    int64_t a, b;        /* MEM: address, var; BRANCH: the two operands */
    uint32_t op, width;  /* BRANCH: opcode and operand width */
    int64_t span;        /* MEM: address interval is [a, a + span] */
} ev_event;

typedef struct ev_evlist {
    ev_event *e;
    size_t n, cap;
} ev_evlist;

typedef struct ev_seg {
    ev_val *base;        /* lane 0's first component */
    size_t lane_stride;
    uint32_t n;
    uint8_t ctrl;
    uint8_t kind;        /* EVK_* of the components (OTHER: mixed) */
    uint8_t width;
    uint8_t sign;
} ev_seg;

struct ev_trk {
    uint32_t header, fn;
    uint32_t lo, hi;     /* instruction range of the loop */
    int eligible;
    ev_seg *seg;
    size_t nseg;
    uint32_t S;          /* components per lane */
    /* history since the last reset */
    uint32_t narr;       /* arrivals recorded (ring of 3) */
    uint32_t nl;
    uint16_t *lanes;
    ev_val *snap[3];
    double *ic[3];
    double bars[3];
    ev_evlist ev[3];     /* events of the iteration that ended at arrival */
    ev_evlist cur;
    int bad[3], bad_cur;
    int armed;
};

static inline void evl_push(ev_evlist *l, const ev_event *e)
{
    if (l->n >= (1u << 18))
        return;
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 256;
        l->e = xrealloc(l->e, l->cap * sizeof *l->e);
    }
    l->e[l->n++] = *e;
}

static int block_in_loop(const spv_module *m, uint32_t b, uint32_t h)
{
    for (int guard = 0; guard < 256 && b != SPV_NONE && b < m->nblocks; guard++) {
        if (b == h)
            return 1;
        b = m->blocks[b].loop_header;
    }
    return 0;
}

static void seg_add(ev_trk *t, ev_val *base, size_t stride, uint32_t n,
                    int ctrl, const ev_type *ty)
{
    t->seg = xrealloc(t->seg, (t->nseg + 1) * sizeof *t->seg);
    ev_seg *s = &t->seg[t->nseg++];
    s->base = base;
    s->lane_stride = stride;
    s->n = n;
    s->ctrl = (uint8_t)ctrl;
    s->kind = ty->kind;
    s->width = ty->width;
    s->sign = ty->sign;
    t->S += n;
}

/* The ids loop t's instructions (lo..hi) can reach a variable through:
 * every operand word of them (a literal that equals an id only adds
 * state), and the bases of the pointers they use that were formed
 * before the loop (access chains, copies: a backward pass from lo over
 * the function, definitions dominating their uses).  A variable the loop
 * never names keeps its value through the loop: it is no state of it,
 * and a function of many loops would otherwise snapshot every variable
 * of the function in each (quadratic memory: 2000 loops, 8 GB). */
static uint8_t *loop_refs(const spv_module *m, const ev_trk *t)
{
    uint8_t *ref = xcalloc(m->bound ? m->bound : 1, 1);
    for (uint32_t i = t->lo; i <= t->hi; i++)
        for (uint32_t k = 0; k < m->insts[i].nops; k++)
            if (m->insts[i].ops[k] < m->bound)
                ref[m->insts[i].ops[k]] = 1;
    uint32_t first = m->funcs[t->fn].first_inst;
    for (uint32_t i = t->lo; i-- > first;) {
        const spv_inst *in = &m->insts[i];
        uint16_t op = in->opcode;
        if (!in->result_id || in->result_id >= m->bound || !ref[in->result_id] ||
            (op != SpvOpAccessChain && op != SpvOpInBoundsAccessChain &&
             op != SpvOpPtrAccessChain && op != SpvOpInBoundsPtrAccessChain &&
             op != SpvOpCopyObject && op != SpvOpPhi && op != SpvOpSelect))
            continue;
        for (uint32_t k = 0; k < in->nops; k++)
            if (in->ops[k] < m->bound)
                ref[in->ops[k]] = 1;
    }
    return ref;
}

/* Every loop's instruction range at once (c->loop_lo / loop_hi): each
 * block widens the range of every block on its loop chain (as
 * block_in_loop walks it) in its own function.  One walk per block, where
 * a scan of the function's blocks per loop was quadratic in the loops. */
static void loop_ranges(ev_ctx *c)
{
    const spv_module *m = c->m;
    c->loop_lo = xcalloc(m->nblocks + 1, sizeof *c->loop_lo);
    c->loop_hi = xcalloc(m->nblocks + 1, sizeof *c->loop_hi);
    for (uint32_t b = 0; b < m->nblocks; b++)
        c->loop_lo[b] = UINT32_MAX;
    for (uint32_t b = 0; b < m->nblocks; b++) {
        uint32_t x = b;
        for (int guard = 0; guard < 256 && x != SPV_NONE && x < m->nblocks; guard++) {
            uint32_t f = m->blocks[x].func;
            const spv_function *fn = f < m->nfuncs ? &m->funcs[f] : NULL;
            if (fn && b >= fn->first_block && b < fn->first_block + fn->nblocks) {
                if (m->blocks[b].first < c->loop_lo[x])
                    c->loop_lo[x] = m->blocks[b].first;
                if (m->blocks[b].last > c->loop_hi[x])
                    c->loop_hi[x] = m->blocks[b].last;
            }
            x = m->blocks[x].loop_header;
        }
    }
}

static ev_trk *trk_get(ev_ctx *c, uint32_t h)
{
    if (c->trk[h])
        return c->trk[h];
    const spv_module *m = c->m;
    ev_trk *t = xcalloc(1, sizeof *t);
    c->trk[h] = t;
    t->header = h;
    t->fn = m->blocks[h].func;
    t->eligible = 1;
    if (!c->loop_lo)
        loop_ranges(c);
    t->lo = c->loop_lo[h];
    t->hi = c->loop_hi[h];
    if (t->lo > t->hi) {
        t->eligible = 0;
        return t;
    }
    for (uint32_t i = t->lo; i <= t->hi; i++) {
        uint32_t op = m->insts[i].opcode;
        if (op == SpvOpFunctionCall || op == SpvOpSwitch || op == SpvOpKill ||
            op == SpvOpTerminateInvocation)
            t->eligible = 0;
    }
    /* state: the function and private variables the loop names, the
     * header's phis */
    ev_info *I = &c->info;
    uint8_t *ref = loop_refs(m, t);
    for (size_t v = 0; v < I->nvars; v++) {
        ev_var *var = &I->vars[v];
        if (!var->mem || (var->cls != EVM_FUNCTION && var->cls != EVM_PRIVATE))
            continue;
        const spv_var *sv = spv_var_of(m, var->id);
        if (var->cls == EVM_FUNCTION && (!sv || sv->func != t->fn))
            continue;
        if (var->id >= m->bound || !ref[var->id])
            continue;
        seg_add(t, var->mem, var->nflat, var->nflat, c->vctrl[v],
                ev_tinfo(c, var->pointee));
    }
    free(ref);
    for (uint32_t i = m->blocks[h].first; i <= m->blocks[h].last; i++) {
        const spv_inst *in = &m->insts[i];
        if (in->opcode != SpvOpPhi || !has_reg(c, in->result_id))
            continue;
        seg_add(t, c->pool + c->reg_off[in->result_id], c->nflat[in->result_id],
                c->nflat[in->result_id], c->ctrl[in->result_id], ev_tinfo(c, in->type_id));
    }
    if ((size_t)t->S * c->exec_lanes > (4u << 20))
        t->eligible = 0;
    return t;
}

static void trk_reset(ev_trk *t)
{
    t->narr = 0;
    t->nl = 0;
    t->cur.n = 0;
    t->bad_cur = 0;
}

void ev_trk_free(ev_trk *t)
{
    if (!t)
        return;
    free(t->seg);
    free(t->lanes);
    for (int k = 0; k < 3; k++) {
        free(t->snap[k]);
        free(t->ic[k]);
        free(t->ev[k].e);
    }
    free(t->cur.e);
    free(t);
}

static void trk_arm(ev_ctx *c, ev_trk *t)
{
    if (t->armed)
        return;
    if (c->narmed >= 16)
        return;
    c->armed[c->narmed++] = t;
    t->armed = 1;
}

static void trk_emit(ev_ctx *c, const ev_event *e)
{
    for (int k = 0; k < c->narmed; k++) {
        ev_trk *t = c->armed[k];
        if (e->inst >= t->lo && e->inst <= t->hi)
            evl_push(&t->cur, e);
    }
}

void ev_trk_bad(ev_ctx *c, uint32_t inst)
{
    for (int k = 0; k < c->narmed; k++) {
        ev_trk *t = c->armed[k];
        if (inst >= t->lo && inst <= t->hi)
            t->bad_cur = 1;
    }
}

void ev_trk_mem(ev_ctx *c, uint32_t inst, uint32_t lane, uint32_t vi,
                    int64_t lo, int64_t hi, int store, int atomic)
{
    if (!c->narmed)
        return;
    uint8_t na = 0;
    if (lo == hi && c->m->insts[inst].nops && c->m->insts[inst].ops[0] < c->bound &&
        c->na[c->m->insts[inst].ops[0]]) {
        /* an address that is not affine in the loop state cannot be
           extrapolated: neither the bytes a buffer access touches nor the
           shared elements whose races and initialisation are tracked.
           One exception: reads of a shared variable that is settled (all
           initialised, nothing written since the last barrier) are
           race-free and initialised wherever they land; they are counted,
           and every element then counts as read (a later write races). */
        if (c->info.vars[vi].cls != EVM_SHARED || store || atomic ||
            !ev_shm_settled(c, vi)) {
            ev_trk_bad(c, inst);
            return;
        }
        na = 4;
    }
    ev_event e = {inst, (uint16_t)lane, EVE_MEM,
                  (uint8_t)((store ? 1 : 0) | (atomic ? 2 : 0) | na), lo, vi, 0, 0, hi - lo};
    trk_emit(c, &e);
}

/* An upper bound of an index from its defining operation alone, or -1. */
static int64_t static_bound(ev_ctx *c, uint32_t id)
{
    const spv_inst *d = spv_def(c->m, id);
    uint64_t k;
    if (!d || d->nops < 2)
        return -1;
    switch (d->opcode) {
    case SpvOpBitwiseAnd:
        if (spv_const_u64(c->m, d->ops[1], &k) == 0 || spv_const_u64(c->m, d->ops[0], &k) == 0)
            return k > INT64_MAX ? -1 : (int64_t)k;
        return -1;
    case SpvOpUMod:
        if (spv_const_u64(c->m, d->ops[1], &k) == 0 && k > 0)
            return k - 1 > INT64_MAX ? -1 : (int64_t)(k - 1);
        return -1;
    case SpvOpExtInst:
        if (d->nops >= 4 && d->ops[0] == c->m->glsl_std_450 &&
            (d->ops[1] == GLSLstd450UMin || d->ops[1] == GLSLstd450UClamp) &&
            spv_const_u64(c->m, d->ops[d->ops[1] == GLSLstd450UMin ? 3 : 4 < d->nops ? 4 : 3], &k) == 0)
            return k > INT64_MAX ? -1 : (int64_t)k;
        return -1;
    default:
        return -1;
    }
}

void ev_trk_index(ev_ctx *c, uint32_t inst, uint32_t lane, uint32_t vi,
                  uint32_t index_id, int64_t lo, int64_t hi, uint64_t length)
{
    if (!c->narmed)
        return;
    if (index_id < c->bound && (c->reg_off[index_id] == EV_NONE || !c->variant[index_id]))
        return; /* the same in every iteration: the executed ones checked it */
    if (index_id < c->bound && c->na[index_id]) {
        /* not linear in the iteration: in range only when the expression
           itself bounds it (x & M, x % M, min(x, M)) */
        if (static_bound(c, index_id) >= (int64_t)length || static_bound(c, index_id) < 0)
            ev_trk_bad(c, inst);
        return;
    }
    ev_event e = {inst, (uint16_t)lane, EVE_IDX, 0, lo,
                  length > INT64_MAX ? INT64_MAX : (int64_t)length, vi, 0, hi - lo};
    trk_emit(c, &e);
}

void ev_trk_barrier(ev_ctx *c, uint32_t inst, int subgroup)
{
    if (!c->narmed || inst == EV_NONE || inst >= c->m->ninsts)
        return;
    ev_event e = {inst, (uint16_t)(subgroup < 0 ? 0 : subgroup), EVE_BAR,
                  (uint8_t)((c->bar_kind[inst] & EV_BAR_ORDERS) ? 1 : 0), subgroup, 0,
                  0, 0, 0};
    trk_emit(c, &e);
}

static int is_cmp(uint32_t op)
{
    switch (op) {
    case SpvOpIEqual: case SpvOpINotEqual: case SpvOpULessThan:
    case SpvOpSLessThan: case SpvOpULessThanEqual: case SpvOpSLessThanEqual:
    case SpvOpUGreaterThan: case SpvOpSGreaterThan:
    case SpvOpUGreaterThanEqual: case SpvOpSGreaterThanEqual:
        return 1;
    default:
        return 0;
    }
}

static int64_t interp(uint64_t v, unsigned w, int sgn)
{
    return sgn ? sext(v, w) : (int64_t)(v & wmask(w >= 64 ? 63 : w));
}

void ev_trk_branch(ev_ctx *c, uint32_t inst, uint32_t lane, uint32_t cond)
{
    if (!c->narmed)
        return;
    const spv_inst *d = spv_def(c->m, cond);
    if (!d || !is_cmp(d->opcode) || d->nops < 2) {
        /* a constant condition is fine; anything else is not modelled */
        if (!(cond < c->bound && c->const_off[cond] != EV_NONE))
            ev_trk_bad(c, inst);
        return;
    }
    if ((d->ops[0] < c->bound && c->na[d->ops[0]]) ||
        (d->ops[1] < c->bound && c->na[d->ops[1]])) {
        ev_trk_bad(c, inst);
        return;
    }
    const ev_val *a = V(c, d->ops[0], lane), *b = V(c, d->ops[1], lane);
    const ev_type *t = ev_val_type(c, d->ops[0]);
    if (!known(a) || !known(b) || t->kind != EVK_INT || NF(c, d->ops[0]) > 1) {
        ev_trk_bad(c, inst);
        return;
    }
    int sgn = d->opcode == SpvOpSLessThan || d->opcode == SpvOpSLessThanEqual ||
              d->opcode == SpvOpSGreaterThan || d->opcode == SpvOpSGreaterThanEqual;
    ev_event e = {inst, (uint16_t)lane, EVE_BRANCH, (uint8_t)sgn,
                  interp(a->lo, t->width, sgn), interp(b->lo, t->width, sgn),
                  d->opcode, t->width, 0};
    trk_emit(c, &e);
}

/* First t >= 1 at which pred(D0 + t dD) differs from pred(D0); INT64_MAX
 * when never. */
static int64_t flip_lt(int64_t D0, int64_t dD)
{
    if (D0 < 0 && dD > 0)
        return (-D0 + dD - 1) / dD;
    if (D0 >= 0 && dD < 0)
        return D0 / (-dD) + 1;
    return INT64_MAX;
}

static int64_t flip_of(uint32_t op, int64_t D0, int64_t dD)
{
    if (dD == 0)
        return INT64_MAX;
    switch (op) {
    case SpvOpULessThan: case SpvOpSLessThan:
    case SpvOpUGreaterThanEqual: case SpvOpSGreaterThanEqual:
        return flip_lt(D0, dD);
    case SpvOpULessThanEqual: case SpvOpSLessThanEqual:
        return flip_lt(D0 - 1, dD);
    case SpvOpUGreaterThan: case SpvOpSGreaterThan:
        return flip_lt(-D0, -dD);
    case SpvOpIEqual: case SpvOpINotEqual:
        if (D0 == 0)
            return 1;
        if ((-D0) % dD == 0 && (-D0) / dD >= 1)
            return (-D0) / dD;
        return INT64_MAX;
    default:
        return 0;
    }
}

static int64_t range_cap(int64_t v0, int64_t d, unsigned w, int sgn)
{
    /* largest t with v0 + t d inside the type's range */
    if (d == 0)
        return INT64_MAX;
    long double lo = sgn ? -ldexpl(1.0L, (int)w - 1) : 0.0L;
    long double hi = sgn ? ldexpl(1.0L, (int)w - 1) - 1 : ldexpl(1.0L, (int)w) - 1;
    long double t = d > 0 ? (hi - v0) / d : (lo - v0) / d;
    if (t < 0)
        return 0;
    if (t > 9.0e18L)
        return INT64_MAX;
    return (int64_t)t;
}

static void replay_point(ev_ctx *c, const ev_event *e, int64_t addr,
                         int uncertain)
{
    uint32_t a = c->acc_of_inst[e->inst];
    ev_var *v = &c->info.vars[e->b];
    if (a == EV_NONE)
        return;
    ev_acc *s = &c->grp->acc[a];
    uint32_t size = c->info.acc[a].bytes;
    int64_t idx;
    if (v->cls == EVM_SHARED) {
        idx = addr;
    } else if (v->rt_stride && addr >= (int64_t)v->rt_base) {
        idx = (addr - (int64_t)v->rt_base) / v->rt_stride;
    } else {
        uint32_t es = size ? size : 1;
        idx = addr >= 0 ? addr / es : -((-addr + es - 1) / es);
    }
    if (!s->idx_any || addr < s->off_min)
        s->off_min = addr;
    if (!s->idx_any || addr > s->off_max)
        s->off_max = addr;
    if (!s->idx_any || idx < s->idx_min)
        s->idx_min = idx;
    if (!s->idx_any || idx > s->idx_max)
        s->idx_max = idx;
    s->idx_any = 1;
    if ((v->cls == EVM_STORAGE || v->cls == EVM_UNIFORM) && v->buf_known &&
        (addr < 0 || addr + (int64_t)size > (int64_t)v->buf_bytes)) {
        ev_note_oob(c, s, e->lane, idx, idx, !c->l_taint[e->lane] && !uncertain);
    }
}

typedef struct fp_tuple {
    int slot;
    int64_t d, lo, hi, lim;
} fp_tuple;

static int fp_tuple_cmp(const void *x, const void *y)
{
    const fp_tuple *a = x, *b = y;
    if (a->slot != b->slot)
        return a->slot < b->slot ? -1 : 1;
    if (a->d != b->d)
        return a->d < b->d ? -1 : 1;
    return a->lo < b->lo ? -1 : a->lo > b->lo;
}

/* Components one shared MEM event covers. */
static uint32_t event_comps(ev_ctx *c, const ev_event *q)
{
    const ev_var *v = &c->info.vars[q->b];
    uint32_t a = c->acc_of_inst[q->inst];
    const ev_type *et = ev_tinfo(c, v->pointee);
    uint32_t n = a != EV_NONE && et->width ? c->info.acc[a].bytes / ((et->width + 7u) / 8u) : 1;
    return n ? n : 1;
}

/* Replay work per iteration (shared components and barriers); 0 when the
 * loop touches no shared memory and has no barrier to replay. */
static double replay_cost(ev_ctx *c, const ev_evlist *ce)
{
    double w = 0;
    int shared = 0;
    for (size_t k = 0; k < ce->n; k++) {
        const ev_event *q = &ce->e[k];
        if (q->kind == EVE_MEM && c->info.vars[q->b].cls == EVM_SHARED && !q->span &&
            !(q->flags & 4)) {
            w += event_comps(c, q);
            shared = 1;
        } else if (q->kind == EVE_BAR) {
            w += 1;
        }
    }
    return shared ? w : 0;
}

/* Fixed-size array indices of the skipped iterations 1..K: each is linear
 * in the iteration, so its extremes are at the two ends. */
static void check_indices(ev_ctx *c, const ev_evlist *pe, const ev_evlist *ce, int64_t K)
{
    for (size_t k = 0; k < ce->n; k++) {
        const ev_event *q = &ce->e[k];
        if (q->kind != EVE_IDX)
            continue;
        int64_t d = q->a - pe->e[k].a;
        int64_t e1 = q->a + d, eK = q->a + K * d;
        int64_t lo = e1 < eK ? e1 : eK, hi = (e1 < eK ? eK : e1) + q->span;
        if (lo >= 0 && hi < q->b)
            continue;
        /* the out-of-range part of the walk */
        int64_t olo = lo < 0 ? lo : q->b, ohi = hi >= q->b ? hi : -1;
        if (lo < 0 && hi >= q->b)
            ohi = hi;
        ev_rec_arr(c, q->inst, q->op, olo, ohi, (uint64_t)q->b, q->lane,
                   !q->span && !c->l_taint[q->lane]);
    }
}

/* The skipped iterations' shared accesses and barriers, in order, through
 * the race and initialisation tracking. */
static void replay_shared(ev_ctx *c, const ev_evlist *pe, const ev_evlist *ce, int64_t K)
{
    /* the components of each shared event, once */
    uint32_t *nc = xcalloc(ce->n + 1, sizeof *nc);
    int barrier = 0;
    for (size_t k = 0; k < ce->n; k++)
        barrier |= ce->e[k].kind == EVE_BAR && (ce->e[k].flags & 1);
    for (size_t k = 0; k < ce->n; k++) {
        const ev_event *q = &ce->e[k];
        /* with no barrier in the iteration (one barrier interval), an
           address that does not move touches the same elements with the
           same invocation in every iteration: its tracking state from the
           executed iterations stays current, nothing to replay */
        if (q->kind == EVE_MEM && !q->span && !(q->flags & 4) &&
            c->info.vars[q->b].cls == EVM_SHARED && (barrier || q->a != pe->e[k].a))
            nc[k] = event_comps(c, q);
    }
    /* only the events that replay anything, in one array for the loop
       below: its element at iteration s, its step, one-element reads */
    typedef struct {
        const ev_event *q;
        int64_t at, step;
        const ev_shm *read1;  /* a one-element read of this array, or NULL */
        uint64_t nflat;
        uint32_t nc;
        int bar;
    } live_ev;
    live_ev *lv = xmalloc((ce->n + 1) * sizeof *lv);
    size_t nl = 0;
    for (size_t k = 0; k < ce->n; k++) {
        const ev_event *q = &ce->e[k];
        if (q->kind == EVE_BAR ? (q->flags & 1) == 0 : nc[k] == 0)
            continue;
        live_ev *L = &lv[nl++];
        L->q = q;
        L->step = q->a - pe->e[k].a;
        L->at = q->a;
        L->bar = q->kind == EVE_BAR;
        L->nc = nc[k];
        L->read1 = NULL;
        L->nflat = 0;
        if (!L->bar && nc[k] == 1 && !(q->flags & 1) && !c->info.is_atomic[q->inst]) {
            L->read1 = c->info.vars[q->b].shm;
            L->nflat = c->info.vars[q->b].nflat;
        }
    }
    for (int64_t s = 1; s <= K && nl; s++)
        for (live_ev *L = lv; L < lv + nl; L++) {
            const ev_event *q = L->q;
            if (L->bar) {
                if (q->a < 0) {
                    c->epoch++;
                    for (uint32_t g = 0; g < c->nsub; g++)
                        c->sg_bar_inst[g] = EV_NONE;
                } else if ((uint64_t)q->a < c->nsub) {
                    c->sg_epoch[q->a]++;
                    c->sg_bar_inst[q->a] = q->inst;
                }
                continue;
            }
            int64_t at = (L->at += L->step); /* q->a + s * step */
            if (L->read1) {
                if (at >= 0 && (uint64_t)at < L->nflat && !ev_shm_read_is_noop(c, &L->read1[at]))
                    ev_shm_read1(c, q->inst, (uint32_t)q->b, q->lane, (uint32_t)at);
                continue;
            }
            ev_shm_replay(c, q->inst, (uint32_t)q->b, q->lane, at, L->nc, q->flags & 1);
        }
    free(lv);
    free(nc);
}

/* Tries to skip iterations at an arrival; returns 1 when it did. */
static int trk_try_skip(ev_ctx *c, ev_trk *t, const uint16_t *lanes, int n)
{
    int i0 = (int)((t->narr - 3) % 3), i1 = (int)((t->narr - 2) % 3),
        i2 = (int)((t->narr - 1) % 3);
    if (t->bad[i1] || t->bad[i2])
        return 0;
    /* same work per iteration */
    size_t R = (size_t)(t->hi - t->lo + 1);
    for (size_t k = 0; k < R; k++)
        if (t->ic[i1][k] - t->ic[i0][k] != t->ic[i2][k] - t->ic[i1][k])
            return 0;
    const ev_evlist *pe = &t->ev[i1], *ce = &t->ev[i2];
    if (pe->n != ce->n || ce->n >= (1u << 18) - 1)
        return 0;
    int64_t K = INT64_MAX;
    int any_branch_moves = 0;
    for (size_t k = 0; k < ce->n; k++) {
        const ev_event *p = &pe->e[k], *q = &ce->e[k];
        if (p->inst != q->inst || p->lane != q->lane || p->kind != q->kind ||
            ((p->kind == EVE_MEM || p->kind == EVE_IDX) &&
             (p->b != q->b || p->span != q->span || p->op != q->op)) ||
            (p->kind == EVE_BAR && p->a != q->a))
            return 0;
        if (q->kind == EVE_BRANCH) {
            int64_t dA = q->a - p->a, dB = q->b - p->b;
            int64_t f = flip_of(q->op, q->a - q->b, dA - dB);
            if (f == 0)
                return 0;
            if (dA - dB != 0)
                any_branch_moves = 1;
            if (f != INT64_MAX && f - 1 < K)
                K = f - 1;
            int64_t rc = range_cap(q->a, dA, q->width, q->flags & 1);
            if (rc < K) K = rc;
            rc = range_cap(q->b, dB, q->width, q->flags & 1);
            if (rc < K) K = rc;
        }
    }
    if (!any_branch_moves || K < 2)
        return 0;
    /* the state must move affinely where it matters */
    uint32_t S = t->S;
    const ev_val *s0 = t->snap[i0], *s1 = t->snap[i1], *s2 = t->snap[i2];
    for (int j = 0; j < n; j++) {
        size_t base = (size_t)j * S, pos = 0;
        for (size_t g = 0; g < t->nseg; g++) {
            const ev_seg *sg = &t->seg[g];
            for (uint32_t q = 0; q < sg->n; q++, pos++) {
                const ev_val *a = &s0[base + pos], *b = &s1[base + pos],
                             *d = &s2[base + pos];
                if (!sg->ctrl)
                    continue;
                if (!known(a) || !known(b) || !known(d)) {
                    if (a->lo == b->lo && b->lo == d->lo && a->hi == b->hi &&
                        b->hi == d->hi)
                        continue; /* unchanged unknown */
                    return 0;
                }
                if (sg->kind != EVK_INT) {
                    if (a->lo != b->lo || b->lo != d->lo)
                        return 0;
                    continue;
                }
                unsigned w = sg->width ? sg->width : 32;
                int64_t x0 = interp(a->lo, w, sg->sign), x1 = interp(b->lo, w, sg->sign),
                        x2 = interp(d->lo, w, sg->sign);
                if (x1 - x0 != x2 - x1)
                    return 0;
                int64_t rc = range_cap(x2, x2 - x1, w, sg->sign);
                if (rc < K)
                    K = rc;
            }
        }
    }
    if (K < 2)
        return 0;
    if (K > (int64_t)1 << 40)
        K = (int64_t)1 << 40;
    /* shared accesses are replayed one by one: bounded per skip */
    double per_iter = replay_cost(c, ce);
    if (per_iter > 0 && per_iter * (double)K > EV_REPLAY_CAP) {
        K = (int64_t)(EV_REPLAY_CAP / per_iter);
        if (K < 2)
            return 0;
    }
    double Kd = (double)K;
    check_indices(c, pe, ce, K);
    if (per_iter > 0) {
        replay_shared(c, pe, ce, K);
        c->steps_total += per_iter * Kd;
    } else {
        c->epoch += (uint32_t)(t->bars[i2] - t->bars[i1]) * (K > 1000000 ? 1000000 : (uint32_t)K);
    }

    /* account the skipped iterations */
    double stepped = 0;
    for (size_t k = 0; k < R; k++) {
        c->grp->icount[t->lo + k] += Kd * (t->ic[i2][k] - t->ic[i1][k]);
        stepped += Kd * (t->ic[i2][k] - t->ic[i1][k]) * c->info.instr[t->lo + k];
    }
    for (int j = 0; j < n && stepped > 0; j++) /* the arriving lanes, alike */
        c->lane_instr[lanes[j]] += stepped / n;
    c->grp->barriers += Kd * (t->bars[i2] - t->bars[i1]);
    for (size_t k = 0; k < ce->n; k++) {
        const ev_event *q = &ce->e[k];
        if (q->kind != EVE_MEM)
            continue;
        int64_t d = q->a - pe->e[k].a;
        uint32_t a = c->acc_of_inst[q->inst];
        if (a != EV_NONE) {
            c->grp->acc[a].count += Kd;
            ev_lane_execs(c, a, q->lane, Kd);
        }
        if (q->flags & 3)
            c->l_side[q->lane] = 1;
        if (q->flags & 4) {
            ev_shm_mark_read(c, (uint32_t)q->b, q->inst, q->lane);
            continue; /* not affine: counted only */
        }
        replay_point(c, q, q->a + d, q->span != 0);
        replay_point(c, q, q->a + (int64_t)K * d, q->span != 0);
        if (q->span) {
            replay_point(c, q, q->a + d + q->span, 1);
            replay_point(c, q, q->a + (int64_t)K * d + q->span, 1);
        }
    }
    /* touched bytes: the iteration's byte ranges, merged per (buffer
       direction, step), then laid down once per skipped iteration */
    {
        size_t nt = 0;
        fp_tuple *tu = xmalloc((ce->n + 1) * sizeof *tu); /* filled before use */
        for (size_t k = 0; k < ce->n; k++) {
            const ev_event *q = &ce->e[k];
            if (q->kind != EVE_MEM || (q->flags & 4))
                continue;
            const ev_var *v = &c->info.vars[q->b];
            if (v->fp_slot < 0)
                continue;
            uint32_t a = c->acc_of_inst[q->inst];
            uint32_t size = a != EV_NONE ? c->info.acc[a].bytes : 4;
            int64_t d = q->a - pe->e[k].a;
            int slot = v->fp_slot + ((q->flags & 1) ? 1 : 0);
            tu[nt].slot = slot;
            tu[nt].d = d;
            tu[nt].lo = q->a;
            tu[nt].hi = q->a + (int64_t)size + q->span;
            tu[nt].lim = v->buf_known ? (int64_t)v->buf_bytes : INT64_MAX / 4;
            nt++;
            if (q->flags & 2) {
                tu[nt] = tu[nt - 1];
                tu[nt].slot = v->fp_slot + 1;
                nt++;
                if (nt + 2 > ce->n + 1) {
                    tu = xrealloc(tu, (nt + ce->n + 2) * sizeof *tu);
                }
            }
        }
        qsort(tu, nt, sizeof *tu, fp_tuple_cmp);
        size_t w = 0;
        for (size_t i = 0; i < nt; i++) {
            if (w && tu[w - 1].slot == tu[i].slot && tu[w - 1].d == tu[i].d &&
                tu[i].lo <= tu[w - 1].hi) {
                if (tu[i].hi > tu[w - 1].hi)
                    tu[w - 1].hi = tu[i].hi;
            } else {
                tu[w++] = tu[i];
            }
        }
        nt = w;
        double work = 0;
        for (size_t i = 0; i < nt; i++) {
            int64_t ext = tu[i].hi - tu[i].lo;
            work += (tu[i].d >= -ext && tu[i].d <= ext) ? 1 : Kd;
        }
        int64_t tmax = K;
        if (work > 4e6) {
            tmax = (int64_t)(4e6 / (double)(nt ? nt : 1));
            if (tmax < 1)
                tmax = 1;
        }
        for (size_t i = 0; i < nt; i++) {
            fp_tuple *t2 = &tu[i];
            int64_t ext = t2->hi - t2->lo, d = t2->d;
            ev_runs *r = &c->grp->fp[t2->slot];
            if (d >= -ext && d <= ext) {
                /* a contiguous walk: one range */
                int64_t lo = d >= 0 ? t2->lo + d : t2->lo + K * d;
                int64_t hi = (d >= 0 ? t2->lo + K * d : t2->lo + d) + ext;
                ev_runs_add(r, lo < 0 ? 0 : lo, hi > t2->lim ? t2->lim : hi);
                continue;
            }
            for (int64_t st = 1; st <= tmax; st++) {
                int64_t lo = t2->lo + st * d, hi = lo + ext;
                if (lo < 0) lo = 0;
                if (hi > t2->lim) hi = t2->lim;
                ev_runs_add(r, lo, hi);
            }
            if (tmax < K)
                r->inexact = 1;
        }
        free(tu);
    }
    /* outer loops see the skipped events as their own */
    for (int k = 0; k < c->narmed; k++) {
        ev_trk *o = c->armed[k];
        if (o == t || !(t->lo >= o->lo && t->hi <= o->hi))
            continue;
        if ((double)o->cur.n + Kd * (double)ce->n > (double)(1u << 18)) {
            o->bad_cur = 1;
            continue;
        }
        /* room for all of them at once (fits the 2^18 cap: checked above) */
        size_t need = o->cur.n + (size_t)K * ce->n;
        if (need > o->cur.cap) {
            o->cur.cap = need;
            o->cur.e = xrealloc(o->cur.e, need * sizeof *o->cur.e);
        }
        ev_event *dst = o->cur.e + o->cur.n;
        for (int64_t s = 1; s <= K; s++)
            for (size_t e = 0; e < ce->n; e++) {
                ev_event q = ce->e[e];
                q.a += s * (q.a - pe->e[e].a);
                if (q.kind == EVE_BRANCH)
                    q.b += s * (q.b - pe->e[e].b);
                *dst++ = q;
            }
        o->cur.n = need;
    }
    /* shared elements stored in the skipped iterations hold data we did
       not compute */
    for (size_t k = 0; k < ce->n; k++) {
        const ev_event *q = &ce->e[k];
        if (q->kind != EVE_MEM || !(q->flags & 1))
            continue;
        ev_var *v = &c->info.vars[q->b];
        if (v->cls != EVM_SHARED || !v->mem)
            continue;
        if (q->span)
            v->unknown_store = 1; /* as when executed: "might have written" */
        int64_t d = q->a - pe->e[k].a;
        uint32_t a = c->acc_of_inst[q->inst];
        const ev_type *et = ev_tinfo(c, v->pointee);
        uint32_t ncomp = a != EV_NONE && et->width ?
                         c->info.acc[a].bytes / ((et->width + 7u) / 8u) : 1;
        if (ncomp == 0)
            ncomp = 1;
        int64_t steps = d == 0 ? 1 : K;
        if (steps > (int64_t)v->nflat)
            steps = v->nflat;
        for (int64_t s2i = 1; s2i <= steps; s2i++) {
            int64_t at = q->a + s2i * d;
            for (uint32_t cc = 0; cc < ncomp + (uint32_t)(q->span < 4096 ? q->span : 4096); cc++)
                if (at + cc >= 0 && (uint64_t)(at + cc) < v->nflat)
                    v->mem[at + cc] = unk_of(NULL); /* initialised by the replay */
        }
    }
    /* jump the state */
    for (int j = 0; j < n; j++) {
        size_t base = (size_t)j * S, pos = 0;
        for (size_t g = 0; g < t->nseg; g++) {
            const ev_seg *sg = &t->seg[g];
            ev_val *live = sg->base + (size_t)lanes[j] * sg->lane_stride;
            for (uint32_t q = 0; q < sg->n; q++, pos++) {
                const ev_val *b = &s1[base + pos], *d = &s2[base + pos];
                if (known(b) && known(d) && sg->kind == EVK_INT) {
                    unsigned w = sg->width ? sg->width : 32;
                    uint64_t step = d->lo - b->lo;
                    live[q] = kv((d->lo + step * (uint64_t)K) & wmask(w));
                } else if (!(b->lo == d->lo && b->hi == d->hi)) {
                    live[q] = sg->kind == EVK_INT ? full_int(sg->width ? sg->width : 32)
                                                  : unk_of(NULL);
                }
            }
        }
    }
    c->grp->skipped += Kd;
    return 1;
}

/* Called when lanes start a loop header block (after its phis). */
void ev_trk_arrive(ev_ctx *c, uint32_t b, const uint16_t *lanes, int n)
{
    const spv_module *m = c->m;
    if (!c->trk || m->blocks[b].merge != SPV_MERGE_LOOP || c->opt.every_iteration)
        return;
    ev_trk *t = trk_get(c, b);
    if (!t->eligible)
        return;
    uint32_t prev = c->l_prev[lanes[0]];
    int back = prev != EV_NONE && block_in_loop(m, prev, b);
    int same = back && t->narr > 0 && t->nl == (uint32_t)n &&
               memcmp(t->lanes, lanes, (size_t)n * sizeof *lanes) == 0;
    if (!same) {
        trk_reset(t);
        t->lanes = xrealloc(t->lanes, (size_t)(n ? n : 1) * sizeof *t->lanes);
        memcpy(t->lanes, lanes, (size_t)n * sizeof *lanes);
        t->nl = (uint32_t)n;
        trk_arm(c, t);
    }
    /* close the iteration that just ended */
    int slot = (int)(t->narr % 3);
    ev_evlist tmp = t->ev[slot];
    t->ev[slot] = t->cur;
    t->cur = tmp;
    t->cur.n = 0;
    t->bad[slot] = t->bad_cur || !same;
    t->bad_cur = 0;
    size_t R = (size_t)(t->hi - t->lo + 1);
    if (!t->ic[slot])
        t->ic[slot] = xcalloc(R, sizeof(double));
    memcpy(t->ic[slot], c->grp->icount + t->lo, R * sizeof(double));
    t->bars[slot] = c->grp->barriers;
    if (!t->snap[slot])
        t->snap[slot] = xcalloc((size_t)t->S * c->exec_lanes + 1, sizeof(ev_val));
    for (int j = 0; j < n; j++) {
        size_t pos = (size_t)j * t->S;
        for (size_t g = 0; g < t->nseg; g++) {
            const ev_seg *sg = &t->seg[g];
            memcpy(t->snap[slot] + pos, sg->base + (size_t)lanes[j] * sg->lane_stride,
                   sg->n * sizeof(ev_val));
            pos += sg->n;
        }
    }
    t->narr++;
    if (t->narr >= 3 && trk_try_skip(c, t, lanes, n)) {
        /* the state moved: start a new history from here */
        t->narr = 0;
        trk_reset(t);
        t->nl = (uint32_t)n;
        memcpy(t->lanes, lanes, (size_t)n * sizeof *lanes);
        int s0 = 0;
        memcpy(t->ic[s0], c->grp->icount + t->lo, R * sizeof(double));
        t->bars[s0] = c->grp->barriers;
        for (int j = 0; j < n; j++) {
            size_t pos = (size_t)j * t->S;
            for (size_t g = 0; g < t->nseg; g++) {
                const ev_seg *sg = &t->seg[g];
                memcpy(t->snap[s0] + pos, sg->base + (size_t)lanes[j] * sg->lane_stride,
                       sg->n * sizeof(ev_val));
                pos += sg->n;
            }
        }
        t->bad[s0] = 1; /* the first recorded iteration after a jump */
        t->narr = 1;
    }
}

void ev_trk_group_start(ev_ctx *c)
{
    for (int k = 0; k < c->narmed; k++)
        c->armed[k]->armed = 0;
    c->narmed = 0;
    if (c->trk)
        for (size_t b = 0; b < c->m->nblocks; b++)
            if (c->trk[b])
                trk_reset(c->trk[b]);
}
