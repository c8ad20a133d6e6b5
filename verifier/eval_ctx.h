/* eval_ctx.h - the evaluator's shared state and the contracts of its
 * analyses.  Internal to verifier/eval*.c (eval_int.h is what
 * eval_dispatch.c and checks_dyn.c see).
 *
 * The evaluator is split into analyses, one file each:
 *   eval_types.c    type flattening: a SPIR-V type as a run of scalar
 *                   components (ev_type), constants and layouts decoded
 *                   into components
 *   eval_prepass.c  static prepasses over the module before anything runs:
 *                   variables, accesses, scheduling order, static costs,
 *                   dependence, control/affinity data-flow; context life
 *   eval_values.c   value semantics: unsigned intervals for integers,
 *                   known/unknown floats, GLSL.std.450, subgroup ops
 *   eval_memory.c   memory: access chains, loads/stores/atomics, bounds,
 *                   shared-memory race and initialisation tracking, byte
 *                   footprints, the access observer
 *   eval_loop.c     loop acceleration: repeated iterations summarised
 *   eval_wgdep.c    per workgroup axis: is everything monotone in the
 *                   group id (do probes at the ends cover the middle)
 *   eval.c          the scheduler: lanes in lock-step, barriers, calls
 */
#ifndef CW_EVAL_CTX_H
#define CW_EVAL_CTX_H

#include "alloc.h"
#include "eval_int.h"
#include "half.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct ev_trk ev_trk;

enum { LS_RUN = 0, LS_BAR, LS_RET, LS_DEAD };

struct ev_ctx {
    ev_info info;             /* first: ev_ctx_info returns it */
    const spv_module *m;
    eval_options opt;
    uint32_t bound;
    ev_type *types;           /* per id */
    uint8_t *tstate;          /* 0 todo, 1 busy, 2 done */
    const spv_type **vtype;   /* per id: spv_value_type, looked up once
                                 (ev_stype: the interpreter asks it of
                                 most instructions it executes) */
    uint32_t *nflat;          /* per id: components of its value */
    uint32_t *reg_off;        /* per id: offset into pool, EV_NONE */
    ev_val *pool;
    size_t npool;
    uint32_t *const_off;      /* per id: offset into cpool */
    ev_val *cpool;
    size_t ncpool, capcpool;
    uint32_t *var_of_id;      /* per id: ev_vars index */
    uint32_t *acc_of_inst;    /* per instruction: access def index */
    uint32_t *order;          /* per block: scheduling rank */
    uint8_t *dep;             /* per id: DEP_* mask */
    uint8_t *vdep;            /* per var: DEP_* mask */
    uint8_t *push;
    uint32_t push_bytes;
    uint32_t entry_func;
    uint32_t exec_lanes;      /* lanes executed (may be < info.lanes) */
    /* lane state */
    uint32_t *l_block, *l_inst, *l_prev;
    uint8_t *l_state, *l_taint, *l_side;
    uint32_t *l_ret_inst, *l_unk_iter;
    uint32_t nlive;
    uint32_t gid[3];
    uint32_t num_groups[3];
    uint32_t epoch;
    ev_group *grp;
    double steps_total;
    int budget_hit;
    /* scratch */
    int64_t *tmp_off;
    ev_val *tmp_vals;
    size_t ntmp_vals;
    uint16_t *lane_buf;       /* depth x lanes */
    int depth_max;
    uint8_t *noted_inst;      /* per instruction: an assumption noted */
    /* loop acceleration */
    uint8_t *ctrl;            /* per id: feeds a branch or an address */
    uint8_t *vctrl;           /* per var */
    uint8_t *na;              /* per id: a non-affine function of loop state */
    uint8_t *variant;         /* per id: may change between loop iterations */
    uint32_t *lane_real;      /* executed lane -> local invocation index */
    uint16_t *lane_sg;        /* executed lane -> its subgroup */
    uint16_t *run_lanes;      /* lanes executed per workgroup */
    /* per-lane executions of the first EV_CHAIN_LOADS loads (ev_acc.chain):
     * chain_slot maps an access to its slot (EV_NONE: not followed) */
    uint32_t *chain_slot;     /* per access */
    uint32_t *slot_acc;       /* per slot: its access */
    uint32_t nslots;          /* (a load left without one has no chain
                                 count: the model adds its trips as
                                 before, model_path.c) */
    double *lane_execs;       /* per slot x executed lane: its executions
                                 by that lane, valid where lane_stamp is
                                 chain_stamp */
    uint32_t *lane_stamp;     /* per slot x executed lane */
    uint32_t chain_stamp;     /* this group's (eval.c group_chains) */
    uint32_t *acc_stamp;      /* per slot: chain_stamp once run here */
    double *acc_most;         /* per slot: its most executions by a lane */
    uint32_t *acc_star;       /* per slot: that lane */
    uint32_t *run_slots;      /* the slots run in this group, in order */
    uint32_t nrun_slots;
    double *lane_instr;       /* per executed lane: instructions stepped
                                 in this group (counted as info.instr) */
    double *instr_before;     /* per instruction + 1: info.instr summed
                                 over the instructions before it */
    uint32_t nrun;
    int sampled;              /* run_lanes is a sample of the group */
    int64_t *pc_off;          /* per instruction: push offset + 1 cached */
    ev_val *pc_val;           /* per instruction: 4 decoded components */
    struct ev_trk **trk;      /* per block (loop headers) */
    uint32_t *loop_lo, *loop_hi; /* per block: the instruction range of the
                                    blocks of its function whose loop chain
                                    reaches it (eval_loop.c; lo > hi none) */
    struct ev_trk *armed[16];
    int narmed;
    uint64_t acc_seq;         /* observer sequence, per workgroup */
    /* barriers by scope (eval_prepass.c: ev_barrier_kind) */
    uint8_t *bar_kind;        /* per instruction: EV_BAR_* | EV_BAR_ORDERS */
    uint32_t nsub;            /* subgroups per workgroup */
    uint32_t *sg_epoch;       /* per subgroup: subgroup barriers executed */
    uint32_t *sg_bar_inst;    /* per subgroup: the last subgroup barrier since
                                 the last workgroup barrier, EV_NONE */
    /* ifs on buffer contents (eval.c pick_unknown): site numbers in
       order of first decision, the sites flipped from the side that goes
       on, lanes alternating (1, 2: even or odd lanes flipped) */
    uint8_t *unk_site;        /* per instruction: site + 1, 0 none yet */
    unsigned unk_nsites;
    uint32_t unk_mask;
    int unk_mix;
    int unk_per_lane;         /* a decided condition differs per lane */
    int unk_same;             /* the condition being decided is the same in
                                 every lane executing the branch */
};

/* n executions of access a by executed lane `lane` (ev_acc.chain): the
 * lane's count, and the access's most executed lane so far. */
static inline void ev_lane_execs(ev_ctx *c, uint32_t a, uint32_t lane, double n)
{
    uint32_t s = c->chain_slot[a];
    if (s == EV_NONE)
        return;
    size_t i = (size_t)s * c->exec_lanes + lane;
    if (c->lane_stamp[i] != c->chain_stamp) {
        c->lane_stamp[i] = c->chain_stamp;
        c->lane_execs[i] = 0;
    }
    double x = c->lane_execs[i] += n;
    if (c->acc_stamp[s] != c->chain_stamp) {
        c->acc_stamp[s] = c->chain_stamp;
        c->run_slots[c->nrun_slots++] = s;
        c->acc_most[s] = -1;
    }
    if (x > c->acc_most[s]) {
        c->acc_most[s] = x;
        c->acc_star[s] = lane;
    }
}

/* A lane's subgroup within the workgroup. */
static inline uint32_t ev_sg_of(const ev_ctx *c, uint32_t lane)
{
    return c->lane_sg[lane];
}

/* ---- small value helpers (header-only) ---- */

static inline uint64_t wmask(unsigned w)
{
    return w >= 64 ? ~0ull : ((1ull << w) - 1);
}

static inline int64_t sext(uint64_t v, unsigned w)
{
    if (w >= 64)
        return (int64_t)v;
    uint64_t sign = 1ull << (w - 1);
    v &= wmask(w);
    return (int64_t)((v ^ sign) - sign);
}

static inline int known(const ev_val *v) { return v->lo == v->hi; }

static inline ev_val kv(uint64_t x) { ev_val v = {x, x}; return v; }

static inline ev_val unk_of(const ev_type *t)
{
    ev_val v;
    if (t && t->kind == EVK_INT) {
        v.lo = 0;
        v.hi = wmask(t->width);
    } else {
        v.lo = 0;
        v.hi = ~0ull;
    }
    return v;
}

/* ---- half floats ---- */

static inline double getf(uint64_t bits, unsigned w)
{
    if (w == 64) {
        double d;
        memcpy(&d, &bits, 8);
        return d;
    }
    if (w == 16)
        return cw_half_to_float((uint16_t)bits);
    uint32_t b = (uint32_t)bits;
    float f;
    memcpy(&f, &b, 4);
    return f;
}

static inline uint64_t putf(double d, unsigned w)
{
    if (w == 64) {
        uint64_t b;
        memcpy(&b, &d, 8);
        return b;
    }
    if (w == 16)
        return cw_float_to_half((float)d);
    float f = (float)d;
    uint32_t b;
    memcpy(&b, &f, 4);
    return b;
}

static inline ev_val *RV(ev_ctx *c, uint32_t id, uint32_t lane)
{
    return c->pool + c->reg_off[id] + (size_t)lane * c->nflat[id];
}

extern ev_val ev_unknown_vals[EV_MAX_FLAT];

static inline const ev_val *V(const ev_ctx *c, uint32_t id, uint32_t lane)
{
    if (id < c->bound) {
        if (c->reg_off[id] != EV_NONE)
            return c->pool + c->reg_off[id] + (size_t)lane * c->nflat[id];
        if (c->const_off[id] != EV_NONE)
            return c->cpool + c->const_off[id];
    }
    return ev_unknown_vals;
}

/* V() for an operand that must hold at least `need` components; anything
 * shorter (only in modules that did not validate) reads as unknown. */
static inline const ev_val *Vn(const ev_ctx *c, uint32_t id, uint32_t lane,
                               uint32_t need)
{
    if (id < c->bound && c->nflat[id] >= need)
        return V(c, id, lane);
    return ev_unknown_vals;
}

static inline uint32_t NF(const ev_ctx *c, uint32_t id)
{
    return id < c->bound ? c->nflat[id] : 0;
}

/* Barrier kinds (OpControlBarrier by execution scope). */
enum { EV_BAR_NOT = 0, EV_BAR_WORKGROUP = 1, EV_BAR_SUBGROUP = 2,
       EV_BAR_INVOCATION = 3, EV_BAR_KIND = 3, EV_BAR_ORDERS = 4 };

/* spv_value_type(c->m, id), from the context's table. */
static inline const spv_type *ev_stype(const ev_ctx *c, uint32_t id)
{
    return id < c->bound ? c->vtype[id] : NULL;
}

static inline int has_reg(const ev_ctx *c, uint32_t id)
{
    return id && id < c->bound && c->reg_off[id] != EV_NONE;
}

/* ------------------------------------------------------------------ */
/* arithmetic                                                           */

static inline ev_val full_int(unsigned w) { ev_val v = {0, wmask(w)}; return v; }

static inline ev_val unk_bool(void) { ev_val v = {0, 1}; return v; }

static inline ev_val unk_float(void) { ev_val v = {0, ~0ull}; return v; }

static inline unsigned bits_for(uint64_t x)
{
    unsigned b = 0;
    while (x) {
        b++;
        x >>= 1;
    }
    return b;
}

#include "eval_types.h"
#include "eval_prepass.h"
#include "eval_values.h"
#include "eval_memory.h"
#include "eval_loop.h"

#endif
