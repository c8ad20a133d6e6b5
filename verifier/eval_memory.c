/* eval_memory.c - memory: pointers (variable, offset interval) through
 * access chains, loads, stores and atomics by storage class; bounds of
 * fixed arrays and buffers; shared-memory race and initialisation
 * tracking per barrier interval; per-access statistics and byte
 * footprints; the access observer.  Contract in eval_memory.h. */
#include "eval_ctx.h"
#include "alloc.h"
#include "eval_runsort.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/GLSL.std.450.h>
#include <spirv/unified1/spirv.h>

/* ------------------------------------------------------------------ */
/* values and memory                                                    */

ev_val ev_unknown_vals[EV_MAX_FLAT];

void ev_runs_normalize(ev_runs *r)
{
    if (r->n < 2)
        return;
    int sorted = 1;
    for (size_t i = 1; i < r->n && sorted; i++)
        sorted = r->r[i - 1].lo <= r->r[i].lo;
    if (!sorted)
        ev_run_sort(r->r, r->n);
    size_t w = 0;
    for (size_t i = 1; i < r->n; i++) {
        if (r->r[i].lo <= r->r[w].hi) {
            if (r->r[i].hi > r->r[w].hi)
                r->r[w].hi = r->r[i].hi;
        } else {
            r->r[++w] = r->r[i];
        }
    }
    r->n = w + 1;
}

void ev_runs_add(ev_runs *r, int64_t lo, int64_t hi)
{
    if (hi <= lo)
        return;
    if (r->n) {
        ev_run *l = &r->r[r->n - 1];
        if (lo >= l->lo && hi <= l->hi)
            return;
        if (lo <= l->hi && hi >= l->lo) {
            if (lo < l->lo) l->lo = lo;
            if (hi > l->hi) l->hi = hi;
            return;
        }
    }
    if (r->n == r->cap) {
        if (r->cap >= (1u << 20)) {
            ev_runs_normalize(r);
            if (r->n > r->cap / 2) {
                /* still crowded: join sorted neighbours pairwise (the gaps
                 * count as touched: inexact), so that normalising costs
                 * once per cap/2 additions, not on every one (that was
                 * quadratic: a fuzzed module hung here) */
                size_t w = 0;
                for (size_t i = 0; i < r->n; i += 2) {
                    ev_run m = r->r[i];
                    if (i + 1 < r->n && r->r[i + 1].hi > m.hi)
                        m.hi = r->r[i + 1].hi;
                    r->r[w++] = m;
                }
                r->n = w;
                r->inexact = 1;
            }
        } else {
            r->cap = r->cap ? r->cap * 2 : 64;
            r->r = xrealloc(r->r, r->cap * sizeof *r->r);
        }
    }
    r->r[r->n].lo = lo;
    r->r[r->n].hi = hi;
    r->n++;
}

void ev_lane_ids(const ev_ctx *c, uint32_t lane, uint32_t lid[3])
{
    const uint32_t *L = c->info.local;
    lane = c->lane_real[lane];
    lid[0] = lane % L[0];
    lid[1] = (lane / L[0]) % L[1];
    lid[2] = lane / (L[0] * L[1]);
}

void ev_note_oob(const ev_ctx *c, ev_acc *s, uint32_t lane, int64_t ilo,
                 int64_t ihi, int certain)
{
    uint32_t lid[3], g[3];
    ev_lane_ids(c, lane, lid);
    for (int d = 0; d < 3; d++)
        g[d] = c->gid[d] * c->info.local[d] + lid[d];
    if (s->oob_count == 0 || ilo < s->oob_idx_min)
        s->oob_idx_min = ilo;
    if (s->oob_count == 0 || ihi > s->oob_idx_max)
        s->oob_idx_max = ihi;
    for (int d = 0; d < 3; d++) {
        if (s->oob_count == 0 || g[d] < s->oob_gid_min[d])
            s->oob_gid_min[d] = g[d];
        if (s->oob_count == 0 || g[d] > s->oob_gid_max[d])
            s->oob_gid_max[d] = g[d];
    }
    s->oob_count += 1;
    s->oob_certain |= certain;
}

static uint64_t builtin_comp(const ev_ctx *c, int bi, uint32_t comp,
                             uint32_t lane, int *ok)
{
    uint32_t lid[3];
    ev_lane_ids(c, lane, lid);
    uint32_t d = comp < 3 ? comp : 0;
    uint32_t sg = c->info.subgroup;
    *ok = 1;
    switch (bi) {
    case SpvBuiltInLocalInvocationId: return lid[d];
    case SpvBuiltInGlobalInvocationId:
        return (uint64_t)c->gid[d] * c->info.local[d] + lid[d];
    case SpvBuiltInWorkgroupId: return c->gid[d];
    case SpvBuiltInNumWorkgroups: return c->num_groups[d];
    case SpvBuiltInWorkgroupSize: return c->info.local[d];
    case SpvBuiltInLocalInvocationIndex: return c->lane_real[lane];
    case SpvBuiltInSubgroupSize: return sg;
    case SpvBuiltInSubgroupLocalInvocationId: return c->lane_real[lane] % sg;
    case SpvBuiltInSubgroupId: return c->lane_real[lane] / sg;
    case SpvBuiltInNumSubgroups: return (c->info.lanes + sg - 1) / sg;
    default:
        *ok = 0;
        return 0;
    }
}

void ev_add_rec(void **arr, size_t *n, size_t sz, const void *rec)
{
    if (*n >= 256)
        return;
    *arr = xreallocarray(*arr, *n + 1, sz);
    memcpy((char *)*arr + *n * sz, rec, sz);
    (*n)++;
}

static void rec_race(ev_ctx *c, uint32_t ia, uint32_t ib, int la, int lb,
                     int ww, uint32_t vi, uint32_t comp)
{
    ev_info *I = &c->info;
    for (size_t i = 0; i < I->nraces; i++)
        if (I->races[i].inst_a == ia && I->races[i].inst_b == ib)
            return;
    int ra = la >= 0 && (uint32_t)la < c->exec_lanes ? (int)c->lane_real[la] : la;
    int rb = lb >= 0 && (uint32_t)lb < c->exec_lanes ? (int)c->lane_real[lb] : lb;
    /* a subgroup barrier the two passed that orders only one subgroup */
    uint32_t sub = EV_NONE;
    if (lb >= 0 && (uint32_t)lb < c->exec_lanes)
        sub = c->sg_bar_inst[ev_sg_of(c, (uint32_t)lb)];
    if (sub == EV_NONE && la >= 0 && (uint32_t)la < c->exec_lanes)
        sub = c->sg_bar_inst[ev_sg_of(c, (uint32_t)la)];
    /* lanes of one subgroup: that barrier would order them, it is simply
     * not between the two accesses; naming it would mislead */
    if (la >= 0 && lb >= 0 && (uint32_t)la < c->exec_lanes && (uint32_t)lb < c->exec_lanes &&
        ev_sg_of(c, (uint32_t)la) == ev_sg_of(c, (uint32_t)lb))
        sub = EV_NONE;
    ev_race_rec r = {ia, ib, sub, ra, rb, ww, vi, comp,
                     {c->gid[0], c->gid[1], c->gid[2]},
                     !c->l_taint[la] && !c->l_taint[lb]};
    ev_add_rec((void **)&I->races, &I->nraces, sizeof r, &r);
}

static void rec_uninit(ev_ctx *c, uint32_t inst, uint32_t vi, uint32_t comp,
                       uint32_t lane)
{
    ev_info *I = &c->info;
    for (size_t i = 0; i < I->nuninit; i++)
        if (I->uninit[i].inst == inst) {
            I->uninit[i].nlanes++;
            return;
        }
    ev_uninit_rec r = {inst, vi, comp, (int)c->lane_real[lane],
                       {c->gid[0], c->gid[1], c->gid[2]},
                       !c->l_taint[lane] && !I->vars[vi].unknown_store, 1};
    ev_add_rec((void **)&I->uninit, &I->nuninit, sizeof r, &r);
}

/* Accesses by lanes la (subgroup barrier count sep_a at the time) and lb
 * are ordered by a subgroup barrier: same subgroup, one executed since. */
static int sg_ordered(const ev_ctx *c, int la, uint32_t sep_a, uint32_t lb)
{
    if (la < 0)
        return 0;
    uint32_t sa = ev_sg_of(c, (uint32_t)la);
    return sa == ev_sg_of(c, lb) && c->sg_epoch[sa] != sep_a;
}

static void shm_read(ev_ctx *c, uint32_t vi, uint32_t comp, uint32_t lane,
                     uint32_t inst, int atomic)
{
    ev_var *v = &c->info.vars[vi];
    ev_shm *s = &v->shm[comp];
    if (ev_shm_read_is_noop(c, s))
        return;
    uint32_t sg = ev_sg_of(c, lane);
    if (!s->init)
        rec_uninit(c, inst, vi, comp, lane);
    if (s->w_epoch == c->epoch && s->w_lane != (int)lane &&
        !(atomic && s->w_atomic) && !sg_ordered(c, s->w_lane, s->w_sep, lane))
        rec_race(c, s->w_inst, inst, s->w_lane, (int)lane, 0, vi, comp);
    /* reads of this subgroup before a subgroup barrier it has executed
     * since are ordered before anything it does now: the record of
     * concurrent readers starts again with this one (a tree level read,
     * ordered, then read and rewritten, is no race) */
    int readers_past = s->r_sg == (int16_t)sg && c->sg_epoch[sg] != s->r_sep;
    if (s->r_epoch == c->epoch && !readers_past) {
        if (s->r_lane != (int)lane)
            s->r_multi = 1;
        if (s->r_sg != (int16_t)sg)
            s->r_sg = -1;
        s->r_atomic &= (uint8_t)atomic;
    } else {
        s->r_epoch = c->epoch;
        s->r_lane = (int16_t)lane;
        s->r_inst = inst;
        s->r_multi = 0;
        s->r_sg = (int16_t)sg;
        s->r_atomic = (uint8_t)atomic;
    }
    s->r_sep = c->sg_epoch[sg];
}

static void shm_write(ev_ctx *c, uint32_t vi, uint32_t comp, uint32_t lane,
                      uint32_t inst, int atomic)
{
    ev_var *v = &c->info.vars[vi];
    ev_shm *s = &v->shm[comp];
    uint32_t sg = ev_sg_of(c, lane);
    int readers_ordered = s->r_sg == (int16_t)sg && c->sg_epoch[sg] != s->r_sep;
    if (s->w_epoch == c->epoch && s->w_lane != (int)lane &&
        !(atomic && s->w_atomic) && !sg_ordered(c, s->w_lane, s->w_sep, lane))
        rec_race(c, s->w_inst, inst, s->w_lane, (int)lane, 1, vi, comp);
    else if (s->r_epoch == c->epoch && (s->r_lane != (int)lane || s->r_multi) &&
             !(atomic && s->r_atomic) && !readers_ordered)
        rec_race(c, s->r_inst, inst,
                 s->r_lane != (int)lane ? s->r_lane : (int)(lane ? 0 : 1),
                 (int)lane, 0, vi, comp);
    v->settled_epoch = 0;
    s->w_epoch = c->epoch;
    s->w_sep = c->sg_epoch[sg];
    s->w_lane = (int16_t)lane;
    s->w_inst = inst;
    s->w_atomic = (uint8_t)atomic;
    s->init = 1;
}

int ev_shm_settled(ev_ctx *c, uint32_t vi)
{
    ev_var *v = &c->info.vars[vi];
    if (!v->shm || v->unknown_store)
        return 0;
    if (v->settled_epoch == c->epoch)
        return 1;
    for (uint32_t k = 0; k < v->nflat; k++)
        if (!v->shm[k].init || v->shm[k].w_epoch == c->epoch)
            return 0;
    v->settled_epoch = c->epoch;
    return 1;
}

void ev_shm_mark_read(ev_ctx *c, uint32_t vi, uint32_t inst, uint32_t lane)
{
    ev_var *v = &c->info.vars[vi];
    if (!v->shm || v->marked_epoch == c->epoch)
        return;
    v->marked_epoch = c->epoch;
    for (uint32_t k = 0; k < v->nflat; k++) {
        ev_shm *s = &v->shm[k];
        s->r_epoch = c->epoch;
        s->r_lane = (int16_t)lane;
        s->r_inst = inst;
        s->r_multi = 1;
        s->r_sg = -1;
        s->r_atomic = 0;
    }
}

void ev_shm_read1(ev_ctx *c, uint32_t inst, uint32_t vi, uint32_t lane, uint32_t comp)
{
    shm_read(c, vi, comp, lane, inst, 0);
}

void ev_shm_replay(ev_ctx *c, uint32_t inst, uint32_t vi, uint32_t lane,
                   int64_t comp, uint32_t ncomp, int store)
{
    ev_var *v = &c->info.vars[vi];
    if (!v->shm)
        return;
    int atomic = c->info.is_atomic[inst];
    if (!atomic && !store && ncomp == 1) {
        /* the common replayed event: one element read */
        if (comp >= 0 && (uint64_t)comp < v->nflat && !ev_shm_read_is_noop(c, &v->shm[comp]))
            shm_read(c, vi, (uint32_t)comp, lane, inst, 0);
        return;
    }
    for (uint32_t k = 0; k < ncomp; k++) {
        int64_t e = comp + k;
        if (e < 0 || (uint64_t)e >= v->nflat)
            continue;
        if (atomic) {
            shm_read(c, vi, (uint32_t)e, lane, inst, 1);
            shm_write(c, vi, (uint32_t)e, lane, inst, 1);
        } else if (store) {
            shm_write(c, vi, (uint32_t)e, lane, inst, 0);
        } else {
            shm_read(c, vi, (uint32_t)e, lane, inst, 0);
        }
    }
}

/* The observer of eval_options.on_access (eval.h). */
static void observe(ev_ctx *c, uint32_t inst, uint32_t vi, uint32_t lane,
                    int64_t lo, int64_t hi, uint32_t size, int store)
{
    const ev_var *v = &c->info.vars[vi];
    uint32_t real = c->lane_real[lane];
    uint32_t sg = c->info.subgroup ? c->info.subgroup : 32;
    eval_access a;
    memcpy(a.workgroup, c->gid, sizeof a.workgroup);
    a.subgroup = real / sg;
    a.invocation = real;
    a.storage_class = v->storage;
    a.set = v->cls == EVM_SHARED ? 0 : v->set;
    a.binding = v->cls == EVM_SHARED ? 0 : v->binding;
    a.offset = lo;
    a.offset_hi = hi;
    a.size = size;
    a.kind = c->info.is_atomic[inst] ? EVAL_ACCESS_ATOMIC
             : store ? EVAL_ACCESS_STORE : EVAL_ACCESS_LOAD;
    a.seq = c->acc_seq++;
    a.inst = inst;
    a.line = ev_inst_line(c->m, inst);
    c->opt.on_access(c->opt.on_access_user, &a);
}

/* Statistics for one lane's access of a byte-addressed buffer. */
static void rec_buf(ev_ctx *c, uint32_t inst, uint32_t vi, uint32_t lane,
                    int64_t lo, int64_t hi, uint32_t size, int store,
                    int atomic)
{
    uint32_t a = c->acc_of_inst[inst];
    ev_var *v = &c->info.vars[vi];
    ev_trk_mem(c, inst, lane, vi, lo, hi, store, atomic);
    if (c->opt.on_access)
        observe(c, inst, vi, lane, lo, hi, size, store);
    c->tmp_off[lane] = lo == hi ? lo : INT64_MIN;
    if (store || atomic)
        c->l_side[lane] = 1;
    if (a == EV_NONE)
        return;
    ev_acc *s = &c->grp->acc[a];
    s->count += 1;
    ev_lane_execs(c, a, lane, 1);
    s->var = vi;
    if (lo != hi)
        s->idx_unknown = 1;
    int64_t buf = v->buf_known ? (int64_t)v->buf_bytes : INT64_MAX / 4;
    int oob = v->buf_known && (lo < 0 || hi + (int64_t)size > buf);
    /* element indices: divide only when an extreme moves (or for OOB) */
    int64_t ilo = 0, ihi = 0;
    int need_lo = !s->idx_any || lo < s->off_min || oob;
    int need_hi = !s->idx_any || hi > s->off_max || oob;
    if (need_lo || need_hi) {
        if (v->rt_stride && lo >= (int64_t)v->rt_base) {
            ilo = (lo - (int64_t)v->rt_base) / v->rt_stride;
            ihi = (hi - (int64_t)v->rt_base) / v->rt_stride;
        } else {
            uint32_t es = size ? size : 1;
            ilo = lo >= 0 ? lo / es : -((-lo + es - 1) / es);
            ihi = hi >= 0 ? hi / es : -((-hi + es - 1) / es);
        }
        if (!s->idx_any || ilo < s->idx_min)
            s->idx_min = ilo;
        if (!s->idx_any || ihi > s->idx_max)
            s->idx_max = ihi;
        if (!s->idx_any || lo < s->off_min)
            s->off_min = lo;
        if (!s->idx_any || hi > s->off_max)
            s->off_max = hi;
        s->idx_any = 1;
    }
    if (oob) {
        /* certain: the one address, or every address the interval allows,
           is outside the buffer, on a path not decided by buffer contents */
        int certain = (lo == hi || hi < 0 || lo + (int64_t)size > buf) && !c->l_taint[lane];
        ev_note_oob(c, s, lane, ilo, ihi, certain);
    }
    if (v->fp_slot >= 0) {
        int64_t flo = lo < 0 ? 0 : lo, fhi = hi + (int64_t)size;
        if (fhi > buf)
            fhi = buf;
        ev_runs *r = &c->grp->fp[v->fp_slot + (store ? 1 : 0)];
        if (lo != hi)
            r->inexact = 1;
        ev_runs_add(r, flo, fhi);
        if (atomic)
            ev_runs_add(&c->grp->fp[v->fp_slot + 1], flo, fhi);
    }
}

/* Lane strides and uniformity of one access over the lanes that ran it. */
static void acc_strides(ev_ctx *c, uint32_t inst, const uint16_t *lanes,
                        int n, uint32_t scale)
{
    uint32_t a = c->acc_of_inst[inst];
    if (a == EV_NONE || n <= 0)
        return;
    ev_acc *s = &c->grp->acc[a];
    uint32_t sg = c->info.subgroup ? c->info.subgroup : 32;
    int uniform_run = 1;
    for (int j = 0; j < n; j++) {
        uint32_t l = lanes[j];
        int64_t o = c->tmp_off[l];
        const uint32_t *R = c->lane_real;
        int last_in_sg = j + 1 == n || R[lanes[j + 1]] / sg != R[l] / sg;
        if (j + 1 < n && !last_in_sg) {
            /* the next lane of the subgroup that ran it (not always l + 1:
               a guard may leave gaps); the step per lane between them */
            uint32_t l2 = lanes[j + 1];
            int64_t o2 = c->tmp_off[l2];
            if (o != INT64_MIN && o2 != INT64_MIN) {
                int64_t diff = o2 - o, gap = (int64_t)R[l2] - (int64_t)R[l];
                if (diff != 0)
                    uniform_run = 0;
                if (gap <= 0 || diff % gap != 0)
                    continue;
                int64_t st = diff / gap * (int64_t)scale;
                int k;
                for (k = 0; k < 4; k++)
                    if (s->stride_n[k] > 0 && s->stride[k] == st)
                        break;
                if (k == 4)
                    for (k = 0; k < 4; k++)
                        if (s->stride_n[k] == 0)
                            break;
                if (k < 4) {
                    s->stride[k] = st;
                    s->stride_n[k] += 1;
                }
            } else {
                uniform_run = 0;
            }
        }
        if (last_in_sg) {
            s->execs += 1;
            if (uniform_run)
                s->uniform_execs += 1;
            else
                s->nonuniform = 1;
            uniform_run = 1;
        }
    }
}

/* Every index of [lo, hi] is outside [0, len). */
static int every_out(int64_t lo, int64_t hi, uint64_t len)
{
    return lo == hi ? (lo < 0 || (uint64_t)lo >= len)
                    : (hi < 0 || (lo >= 0 && (uint64_t)lo >= len));
}

void ev_rec_arr(ev_ctx *c, uint32_t inst, uint32_t vi, int64_t lo,
                    int64_t hi, uint64_t len, uint32_t lane, int certain)
{
    ev_info *I = &c->info;
    for (size_t i = 0; i < I->narrs; i++)
        if (I->arrs[i].inst == inst) {
            ev_arr_rec *r = &I->arrs[i];
            if (lo < r->idx_min) r->idx_min = lo;
            if (hi > r->idx_max) r->idx_max = hi;
            r->certain |= certain;
            return;
        }
    ev_arr_rec r = {inst, vi, lo, hi, len, (int)c->lane_real[lane],
                    {c->gid[0], c->gid[1], c->gid[2]}, certain, 0};
    ev_add_rec((void **)&I->arrs, &I->narrs, sizeof r, &r);
}

static void idx_range(const ev_val *v, const ev_type *t, int64_t *lo,
                      int64_t *hi)
{
    unsigned w = t->width ? t->width : 32;
    if (known(v)) {
        *lo = *hi = t->sign ? sext(v->lo, w) : (int64_t)(v->lo & (wmask(w) >> (w >= 64)));
        return;
    }
    uint64_t half = w >= 64 ? (1ull << 62) : (1ull << (w - 1));
    if (!t->sign) {
        *lo = (int64_t)(v->lo > (1ull << 62) ? (1ull << 62) : v->lo);
        *hi = (int64_t)(v->hi > (1ull << 62) ? (1ull << 62) : v->hi);
    } else if (v->hi < half) {
        *lo = (int64_t)v->lo;
        *hi = (int64_t)v->hi;
    } else if (v->lo >= half) {
        *lo = sext(v->lo, w);
        *hi = sext(v->hi, w);
    } else {
        *lo = -(int64_t)half;
        *hi = (int64_t)half - 1;
    }
}

static int64_t sat_mul(int64_t a, int64_t b)
{
    const int64_t lim = (int64_t)1 << 62;
    if (a == 0 || b == 0)
        return 0;
    long double r = (long double)a * (long double)b;
    if (r > (long double)lim) return lim;
    if (r < -(long double)lim) return -lim;
    return a * b;
}

/* Access chain straight off a variable: the types and strides are the
 * same for every lane, so they are worked out once. */
typedef struct ac_step {
    int64_t add, stride;
    uint64_t length;          /* fixed arrays: checked; 0 otherwise */
    uint32_t iid;
    const ev_type *it;
} ac_step;

static int exec_access_chain_var(ev_ctx *c, uint32_t ii, const spv_inst *in,
                                 uint32_t t0, const uint16_t *lanes, int n)
{
    const spv_module *m = c->m;
    uint32_t vi = c->var_of_id[in->ops[0]];
    const ev_var *v = &c->info.vars[vi];
    int layout = v->cls == EVM_STORAGE || v->cls == EVM_UNIFORM || v->cls == EVM_PUSH;
    ac_step st[16];
    uint32_t ns = 0, t = t0;
    int64_t fixed = 0;
    for (uint32_t k = 1; k < in->nops; k++) {
        const spv_type *ty = spv_type_of(m, t);
        uint32_t iid = in->ops[k];
        if (!ty)
            return 0;
        switch (ty->kind) {
        case SPV_T_STRUCT: {
            if (has_reg(c, iid) || iid >= c->bound || c->const_off[iid] == EV_NONE)
                return 0;
            const ev_val *iv = V(c, iid, 0);
            if (!known(iv) || iv->lo >= ty->nmembers)
                return 0;
            uint32_t mi = (uint32_t)iv->lo;
            if (layout) {
                fixed += ty->members[mi].offset;
            } else {
                uint32_t d = ev_flat_member_offset(c, ty, mi);
                if (d == EV_NONE)
                    return 0;
                fixed += d;
            }
            t = ty->members[mi].type;
            break;
        }
        case SPV_T_ARRAY: case SPV_T_RUNTIME_ARRAY: case SPV_T_VECTOR:
        case SPV_T_MATRIX: {
            int64_t stride;
            if (ty->kind == SPV_T_VECTOR) {
                stride = layout ? ev_scalar_bytes(c, ty->elem) : 1;
            } else if (ty->kind == SPV_T_MATRIX) {
                if (layout) {
                    uint64_t cs = 0;
                    spv_type_size(m, ty->elem, &cs);
                    stride = (int64_t)cs;
                } else {
                    stride = ev_tinfo(c, ty->elem)->flat;
                }
            } else if (layout) {
                uint64_t es = ty->array_stride;
                if (!es)
                    spv_type_size(m, ty->elem, &es);
                stride = (int64_t)es;
            } else {
                uint32_t f = ev_tinfo(c, ty->elem)->flat;
                if (f == EV_NONE)
                    return 0;
                stride = f;
            }
            const spv_type *itst = spv_value_type(m, iid);
            st[ns].add = 0;
            st[ns].stride = stride;
            st[ns].length = ty->kind == SPV_T_ARRAY ? ty->length : 0;
            st[ns].iid = iid;
            st[ns].it = ev_tinfo(c, itst ? itst->id : 0);
            ns++;
            t = ty->elem;
            break;
        }
        default:
            return 0;
        }
    }
    uint32_t res = in->result_id;
    for (int j = 0; j < n; j++) {
        uint32_t lane = lanes[j];
        int64_t olo = fixed, ohi = fixed;
        for (uint32_t k = 0; k < ns; k++) {
            int64_t ilo, ihi;
            idx_range(V(c, st[k].iid, lane), st[k].it, &ilo, &ihi);
            if (st[k].length && (ilo < 0 || ihi >= (int64_t)st[k].length))
                ev_rec_arr(c, ii, vi, ilo, ihi, st[k].length, lane,
                           every_out(ilo, ihi, st[k].length) && !c->l_taint[lane]);
            if (st[k].length && c->narmed)
                ev_trk_index(c, ii, lane, vi, st[k].iid, ilo, ihi, st[k].length);
            olo += sat_mul(ilo, st[k].stride);
            ohi += sat_mul(ihi, st[k].stride);
        }
        ev_val *r = RV(c, res, lane);
        r[0] = kv(vi);
        r[1].lo = (uint64_t)olo;
        r[1].hi = (uint64_t)ohi;
    }
    return 1;
}

void ev_exec_access_chain(ev_ctx *c, uint32_t ii, const spv_inst *in,
                              const uint16_t *lanes, int n)
{
    const spv_module *m = c->m;
    uint32_t res = in->result_id;
    if (!has_reg(c, res) || in->nops < 1 || c->nflat[res] != 2)
        return;
    uint32_t base = in->ops[0];
    const spv_type *bt = spv_value_type(m, base);
    uint32_t t0 = bt && bt->kind == SPV_T_POINTER ? bt->elem : 0;
    int ptr_chain = in->opcode == SpvOpPtrAccessChain;
    if (!ptr_chain && base < c->bound && c->var_of_id[base] != EV_NONE &&
        in->nops <= 17 && exec_access_chain_var(c, ii, in, t0, lanes, n))
        return;
    for (int j = 0; j < n; j++) {
        uint32_t lane = lanes[j];
        const ev_val *p = Vn(c, base, lane, 2);
        ev_val *r = RV(c, res, lane);
        uint64_t vi = p[0].lo;
        int64_t olo = (int64_t)p[1].lo, ohi = (int64_t)p[1].hi;
        if (ptr_chain || !known(&p[0]) || vi >= c->info.nvars) {
            r[0] = kv(EV_NONE);
            r[1] = kv(0);
            continue;
        }
        const ev_var *v = &c->info.vars[vi];
        int layout = v->cls == EVM_STORAGE || v->cls == EVM_UNIFORM ||
                     v->cls == EVM_PUSH;
        uint32_t t = t0;
        int bad = 0;
        for (uint32_t k = 1; k < in->nops && !bad; k++) {
            const spv_type *st = spv_type_of(m, t);
            uint32_t iid = in->ops[k];
            const ev_val *iv = V(c, iid, lane);
            const spv_type *itst = spv_value_type(m, iid);
            const ev_type *it = ev_tinfo(c, itst ? itst->id : 0);
            int64_t ilo, ihi;
            idx_range(iv, it, &ilo, &ihi);
            if (!st) { bad = 1; break; }
            switch (st->kind) {
            case SPV_T_STRUCT: {
                if (ilo != ihi || ilo < 0 || (uint64_t)ilo >= st->nmembers) {
                    bad = 1;
                    break;
                }
                uint32_t mi = (uint32_t)ilo;
                int64_t d = layout ? st->members[mi].offset
                                   : ev_flat_member_offset(c, st, mi);
                if (!layout && d == EV_NONE) { bad = 1; break; }
                olo += d;
                ohi += d;
                t = st->members[mi].type;
                break;
            }
            case SPV_T_ARRAY: case SPV_T_RUNTIME_ARRAY: {
                int64_t stride;
                if (layout) {
                    uint64_t es = st->array_stride;
                    if (!es)
                        spv_type_size(m, st->elem, &es);
                    stride = (int64_t)es;
                } else {
                    uint32_t f = ev_tinfo(c, st->elem)->flat;
                    if (f == EV_NONE) { bad = 1; break; }
                    stride = f;
                }
                if (st->kind == SPV_T_ARRAY && st->length &&
                    (ilo < 0 || ihi >= (int64_t)st->length)) {
                    /* a hull that only partly leaves the array is a
                       "could not prove" case; one wholly outside it is
                       out of range whatever the value */
                    int certain = every_out(ilo, ihi, st->length) && !c->l_taint[lane];
                    ev_rec_arr(c, ii, (uint32_t)vi, ilo, ihi, st->length, lane,
                               certain);
                }
                if (st->kind == SPV_T_ARRAY && st->length && c->narmed)
                    ev_trk_index(c, ii, lane, (uint32_t)vi, iid, ilo, ihi, st->length);
                olo += sat_mul(ilo, stride);
                ohi += sat_mul(ihi, stride);
                t = st->elem;
                break;
            }
            case SPV_T_VECTOR: {
                int64_t stride = layout ? ev_scalar_bytes(c, st->elem) : 1;
                olo += sat_mul(ilo, stride);
                ohi += sat_mul(ihi, stride);
                t = st->elem;
                break;
            }
            case SPV_T_MATRIX: {
                int64_t stride;
                if (layout) {
                    uint64_t cs = 0;
                    spv_type_size(m, st->elem, &cs);
                    stride = (int64_t)cs;
                } else {
                    stride = ev_tinfo(c, st->elem)->flat;
                }
                olo += sat_mul(ilo, stride);
                ohi += sat_mul(ihi, stride);
                t = st->elem;
                break;
            }
            default:
                bad = 1;
            }
        }
        if (bad) {
            r[0] = kv(EV_NONE);
            r[1] = kv(0);
        } else {
            r[0] = kv(vi);
            r[1].lo = (uint64_t)olo;
            r[1].hi = (uint64_t)ohi;
        }
    }
}

/* ------------------------------------------------------------------ */
/* loads, stores, atomics                                               */

static uint32_t shared_scale(ev_ctx *c, uint32_t vi)
{
    const ev_var *v = &c->info.vars[vi];
    const ev_type *t = ev_tinfo(c, v->pointee);
    return t->width ? (uint32_t)(t->width + 7) / 8 : 4;
}

static void rec_shared(ev_ctx *c, uint32_t inst, uint32_t vi, uint32_t lane,
                       int64_t lo, int64_t hi, int store)
{
    uint32_t a = c->acc_of_inst[inst];
    c->tmp_off[lane] = lo == hi ? lo : INT64_MIN;
    if (store)
        c->l_side[lane] = 1;
    if (a == EV_NONE)
        return; /* the store half of an atomic: one access, one event */
    ev_trk_mem(c, inst, lane, vi, lo, hi, store, 0);
    if (c->opt.on_access) {
        int64_t sc = shared_scale(c, vi);
        observe(c, inst, vi, lane, lo * sc, hi * sc, c->info.acc[a].bytes, store);
    }
    ev_acc *s = &c->grp->acc[a];
    s->count += 1;
    ev_lane_execs(c, a, lane, 1);
    s->var = vi;
    if (lo != hi)
        s->idx_unknown = 1;
    if (!s->idx_any || lo < s->idx_min)
        s->idx_min = lo;
    if (!s->idx_any || hi > s->idx_max)
        s->idx_max = hi;
    s->idx_any = 1;
}

/* The runner's random contents of v at byte olo (eval_options
 * .runner_contents): a window of the bytes the nf components can span,
 * peeked (bufinit_peek), decoded as the plan's image would be. */
static void peek_contents(ev_ctx *c, const ev_var *v, uint32_t tid, int64_t olo,
                          ev_val *out, uint32_t nf)
{
    uint8_t win[256];
    uint64_t eb = v->peek_elem.bytes ? v->peek_elem.bytes : 4;
    if (olo < 0 || !v->buf_known || (uint64_t)olo >= v->buf_bytes)
        return;
    uint64_t from = (uint64_t)olo - (uint64_t)olo % eb;
    uint64_t len = (uint64_t)olo - from + (uint64_t)nf * 8;
    if (len > sizeof win)
        len = sizeof win;
    if (len > v->buf_bytes - from)
        len = v->buf_bytes - from;
    if (bufinit_peek(win, from, len, v->buf_bytes, v->peek_elem, v->peek, 0))
        return;
    uint32_t pos = 0;
    ev_decode_layout(c, tid, win, len, (int64_t)((uint64_t)olo - from), out, &pos, nf, 0);
}

static void load_lane(ev_ctx *c, uint32_t ii, uint32_t ptr, uint32_t tid,
                      ev_val *out, uint32_t nf, uint32_t lane, int atomic,
                      int *kind_out, uint32_t *var_out)
{
    const ev_val *p = Vn(c, ptr, lane, 2);
    *kind_out = -1;
    if (!known(&p[0]) || p[0].lo >= c->info.nvars) {
        ev_fill_unknown(c, tid, out, nf);
        return;
    }
    uint32_t vi = (uint32_t)p[0].lo;
    ev_var *v = &c->info.vars[vi];
    int64_t olo = (int64_t)p[1].lo, ohi = (int64_t)p[1].hi;
    *kind_out = v->cls;
    *var_out = vi;
    switch (v->cls) {
    case EVM_FUNCTION: case EVM_PRIVATE:
        if (v->mem && olo == ohi && olo >= 0 && (uint64_t)olo + nf <= v->nflat)
            memcpy(out, v->mem + (size_t)lane * v->nflat + olo, nf * sizeof *out);
        else
            ev_fill_unknown(c, tid, out, nf);
        break;
    case EVM_SHARED:
        rec_shared(c, ii, vi, lane, olo, ohi, atomic);
        if (v->mem && olo == ohi && olo >= 0 && (uint64_t)olo + nf <= v->nflat) {
            memcpy(out, v->mem + olo, nf * sizeof *out);
            for (uint32_t k = 0; k < nf; k++) {
                if (!v->shm[olo + k].init)
                    out[k] = unk_of(ev_tinfo(c, tid));
                shm_read(c, vi, (uint32_t)olo + k, lane, ii, atomic);
            }
        } else {
            ev_fill_unknown(c, tid, out, nf);
        }
        break;
    case EVM_INPUT:
        for (uint32_t k = 0; k < nf; k++) {
            int ok = 0;
            uint64_t x = olo == ohi ? builtin_comp(c, v->builtin,
                                                   (uint32_t)(olo + k), lane, &ok)
                                    : 0;
            out[k] = ok ? kv(x) : unk_of(ev_tinfo(c, tid));
        }
        break;
    case EVM_PUSH:
        if (c->opt.on_access && c->acc_of_inst[ii] != EV_NONE)
            observe(c, ii, vi, lane, olo, ohi, c->info.acc[c->acc_of_inst[ii]].bytes, 0);
        if (olo == ohi && c->push) {
            /* the plan's values never change: decode once per instruction */
            if (nf <= 4 && ii < c->m->ninsts && c->pc_off[ii] == olo + 1) {
                memcpy(out, c->pc_val + (size_t)ii * 4, nf * sizeof *out);
                break;
            }
            uint32_t pos = 0;
            ev_fill_unknown(c, tid, out, nf);
            ev_decode_layout(c, tid, c->push, c->push_bytes, olo, out, &pos, nf, 0);
            if (nf <= 4 && ii < c->m->ninsts) {
                memcpy(c->pc_val + (size_t)ii * 4, out, nf * sizeof *out);
                c->pc_off[ii] = olo + 1;
            }
        } else {
            ev_fill_unknown(c, tid, out, nf);
        }
        break;
    case EVM_STORAGE: case EVM_UNIFORM: {
        uint32_t a = c->acc_of_inst[ii];
        uint32_t sz = a != EV_NONE ? c->info.acc[a].bytes : 4;
        rec_buf(c, ii, vi, lane, olo, ohi, sz, 0, atomic);
        ev_fill_unknown(c, tid, out, nf);
        if (v->image && olo == ohi && !atomic) {
            /* contents the plan gives (a buffer the kernel only reads) */
            uint32_t pos = 0;
            ev_decode_layout(c, tid, v->image, v->image_bytes, olo, out, &pos, nf, 0);
        } else if (v->peek && olo == ohi && !atomic) {
            peek_contents(c, v, tid, olo, out, nf);
        }
        break;
    }
    default:
        ev_fill_unknown(c, tid, out, nf);
    }
}

static void store_lane(ev_ctx *c, uint32_t ii, uint32_t ptr, const ev_val *val,
                       uint32_t nf, uint32_t lane, int atomic, int *kind_out,
                       uint32_t *var_out)
{
    const ev_val *p = Vn(c, ptr, lane, 2);
    *kind_out = -1;
    if (!known(&p[0]) || p[0].lo >= c->info.nvars)
        return;
    uint32_t vi = (uint32_t)p[0].lo;
    ev_var *v = &c->info.vars[vi];
    int64_t olo = (int64_t)p[1].lo, ohi = (int64_t)p[1].hi;
    *kind_out = v->cls;
    *var_out = vi;
    switch (v->cls) {
    case EVM_FUNCTION: case EVM_PRIVATE: {
        if (!v->mem)
            break;
        ev_val *base = v->mem + (size_t)lane * v->nflat;
        if (olo == ohi && olo >= 0 && (uint64_t)olo + nf <= v->nflat) {
            memcpy(base + olo, val, nf * sizeof *val);
        } else if (olo != ohi) {
            int64_t a = olo < 0 ? 0 : olo, b = ohi + nf;
            if (b > (int64_t)v->nflat)
                b = v->nflat;
            for (int64_t k = a; k < b; k++)
                base[k] = unk_of(NULL);
        }
        break;
    }
    case EVM_SHARED:
        rec_shared(c, ii, vi, lane, olo, ohi, 1);
        if (!v->mem)
            break;
        if (olo == ohi && olo >= 0 && (uint64_t)olo + nf <= v->nflat) {
            memcpy(v->mem + olo, val, nf * sizeof *val);
            for (uint32_t k = 0; k < nf; k++)
                shm_write(c, vi, (uint32_t)olo + k, lane, ii, atomic);
        } else if (olo != ohi) {
            v->unknown_store = 1;
            int64_t a = olo < 0 ? 0 : olo, b = ohi + nf;
            if (b > (int64_t)v->nflat)
                b = v->nflat;
            for (int64_t k = a; k < b; k++)
                v->mem[k] = unk_of(NULL);
        }
        break;
    case EVM_STORAGE: case EVM_UNIFORM: {
        uint32_t a = c->acc_of_inst[ii];
        uint32_t sz = a != EV_NONE ? c->info.acc[a].bytes : 4;
        rec_buf(c, ii, vi, lane, olo, ohi, sz, 1, atomic);
        break;
    }
    default:
        break;
    }
}

static ev_val atomic_apply(uint32_t op, ev_val old, ev_val a, ev_val b,
                           const ev_type *t)
{
    unsigned w = t->width ? t->width : 32;
    uint64_t mk = wmask(w);
    if (!known(&old) || !known(&a))
        return unk_of(t);
    uint64_t x = old.lo, y = a.lo;
    switch (op) {
    case SpvOpAtomicIIncrement: return kv((x + 1) & mk);
    case SpvOpAtomicIDecrement: return kv((x - 1) & mk);
    case SpvOpAtomicIAdd: return kv((x + y) & mk);
    case SpvOpAtomicISub: return kv((x - y) & mk);
    case SpvOpAtomicUMin: return kv(x < y ? x : y);
    case SpvOpAtomicUMax: return kv(x > y ? x : y);
    case SpvOpAtomicSMin: return kv(sext(x, w) < sext(y, w) ? x : y);
    case SpvOpAtomicSMax: return kv(sext(x, w) > sext(y, w) ? x : y);
    case SpvOpAtomicAnd: return kv(x & y);
    case SpvOpAtomicOr: return kv(x | y);
    case SpvOpAtomicXor: return kv(x ^ y);
    case SpvOpAtomicExchange: return a;
    case SpvOpAtomicCompareExchange:
        if (!known(&b))
            return unk_of(t);
        return x == b.lo ? a : old;
    case SpvOpAtomicFAddEXT:
        return kv(putf(getf(x, w) + getf(y, w), w));
    default:
        return unk_of(t);
    }
}

void ev_exec_memory(ev_ctx *c, uint32_t ii, const spv_inst *in,
                        const uint16_t *lanes, int n)
{
    uint32_t op = in->opcode;
    int kind = -1;
    uint32_t var = EV_NONE;
    if (in->nops < 1)
        return;
    uint32_t ptr = in->ops[0];
    const spv_type *pt = ev_stype(c, ptr);
    uint32_t vt = pt && pt->kind == SPV_T_POINTER ? pt->elem : in->type_id;
    uint32_t nf = ev_tinfo(c, vt)->flat;
    if (nf == EV_NONE || nf == 0)
        nf = 1;
    if ((size_t)nf > c->ntmp_vals / 2)
        nf = (uint32_t)(c->ntmp_vals / 2);
    ev_val *tmp = c->tmp_vals, *tmp2 = c->tmp_vals + nf;
    /* the common case of unoptimised code: a whole function variable */
    if ((op == SpvOpLoad || (op == SpvOpStore && in->nops >= 2)) && ptr < c->bound &&
        c->var_of_id[ptr] != EV_NONE) {
        ev_var *v = &c->info.vars[c->var_of_id[ptr]];
        if ((v->cls == EVM_FUNCTION || v->cls == EVM_PRIVATE) && v->mem && v->nflat == nf) {
            if (op == SpvOpStore) {
                for (int j = 0; j < n; j++)
                    memcpy(v->mem + (size_t)lanes[j] * nf, Vn(c, in->ops[1], lanes[j], nf),
                           nf * sizeof(ev_val));
                return;
            }
            if (has_reg(c, in->result_id) && c->nflat[in->result_id] == nf) {
                for (int j = 0; j < n; j++)
                    memcpy(RV(c, in->result_id, lanes[j]), v->mem + (size_t)lanes[j] * nf,
                           nf * sizeof(ev_val));
                return;
            }
        }
    }
    for (int j = 0; j < n; j++) {
        uint32_t lane = lanes[j];
        switch (op) {
        case SpvOpLoad: {
            ev_val *out = has_reg(c, in->result_id) &&
                          c->nflat[in->result_id] == nf ? RV(c, in->result_id, lane)
                                                        : tmp;
            load_lane(c, ii, ptr, in->type_id, out, nf, lane, 0, &kind, &var);
            break;
        }
        case SpvOpStore:
            if (in->nops >= 2)
                store_lane(c, ii, ptr, Vn(c, in->ops[1], lane, nf), nf, lane, 0,
                           &kind, &var);
            break;
        case SpvOpCopyMemory:
            if (in->nops >= 2) {
                const spv_type *st = spv_value_type(c->m, in->ops[1]);
                uint32_t sv = st && st->kind == SPV_T_POINTER ? st->elem : 0;
                load_lane(c, EV_NONE == c->acc_of_inst[ii] ? ii : ii, in->ops[1],
                          sv, tmp, nf, lane, 0, &kind, &var);
                store_lane(c, ii, ptr, tmp, nf, lane, 0, &kind, &var);
            }
            break;
        case SpvOpAtomicStore:
            if (in->nops >= 4)
                store_lane(c, ii, ptr, V(c, in->ops[3], lane), 1, lane, 1,
                           &kind, &var);
            break;
        default: { /* read-modify-write atomics and AtomicLoad */
            const ev_type *t = ev_tinfo(c, in->type_id);
            load_lane(c, ii, ptr, in->type_id, tmp, 1, lane, 1, &kind, &var);
            ev_val old = tmp[0];
            if (op != SpvOpAtomicLoad) {
                ev_val a = kv(0), b = kv(0);
                if (op == SpvOpAtomicCompareExchange && in->nops >= 6) {
                    a = V(c, in->ops[4], lane)[0];
                    b = V(c, in->ops[5], lane)[0];
                } else if (in->nops >= 4) {
                    a = V(c, in->ops[3], lane)[0];
                }
                tmp2[0] = atomic_apply(op, old, a, b, t);
                if (kind == EVM_SHARED || kind == EVM_FUNCTION ||
                    kind == EVM_PRIVATE) {
                    int k2;
                    uint32_t v2;
                    /* the store half of the atomic: not a second access */
                    uint32_t save = c->acc_of_inst[ii];
                    c->acc_of_inst[ii] = EV_NONE;
                    store_lane(c, ii, ptr, tmp2, 1, lane, 1, &k2, &v2);
                    c->acc_of_inst[ii] = save;
                } else if (kind == EVM_STORAGE) {
                    c->l_side[lane] = 1;
                }
            }
            if (has_reg(c, in->result_id))
                RV(c, in->result_id, lane)[0] =
                    kind == EVM_SHARED ? old : unk_of(t);
        }
        }
    }
    if (var != EV_NONE && (kind == EVM_STORAGE || kind == EVM_UNIFORM))
        acc_strides(c, ii, lanes, n, 1);
    else if (var != EV_NONE && kind == EVM_SHARED)
        acc_strides(c, ii, lanes, n, shared_scale(c, var));
}
