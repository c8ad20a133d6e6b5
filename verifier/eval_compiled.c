/* eval_compiled.c - executed-count weights: loops the driver unrolls,
 * values it folds, instructions it hoists (eval_compiled.h). */
#include "eval_compiled.h"
#include "eval_ctx.h"
#include "eval_prepass.h"

#include <spirv/unified1/GLSL.std.450.h>
#include <spirv/unified1/spirv.h>

#include <math.h>

#define MAX_LOOPS 64
#define MAX_TRIPS (1u << 20)  /* a constant-trip loop longer is not searched */
#define MAX_PASSES 32
#define MAX_INSTS 400000u

typedef struct loop {
    uint32_t h, cond, cont, merge; /* blocks */
    int parent;                    /* loop index, -1 outermost */
    int const_trips;               /* trips is a compile-time constant */
    uint64_t trips;
    int unrolled;
    uint32_t cmp, upd, cbr;        /* control instructions, EV_NONE */
    uint32_t iv_var;               /* function variable of the induction */
    uint32_t iv_phi;               /* or its OpPhi result id */
    int64_t start, step;           /* of a constant-trip induction */
} loop;

typedef struct an {
    ev_ctx *c;
    const spv_module *m;
    loop L[MAX_LOOPS];
    int nl;
    int *lidx;        /* per block: loop index if a loop header, else -1 */
    uint64_t *bmask;  /* per block: loops containing it */
    uint64_t *vm;     /* per id: loops it varies in */
    uint8_t *rt;      /* per id: RT_RUN, RT_PARAM, RT_MEM */
    uint64_t *vvm;    /* per variable */
    uint8_t *vrt;
    uint64_t *carried;/* per variable: loops it is carried around */
    /* calls, inlined by the driver's compiler: per function, whether it
     * reads or writes memory that may change between trips (then a call's
     * result varies like a load), and its returned values' variance; per
     * id, a parameter the callee stores through */
    uint8_t *impure;
    uint64_t *ret_vm;
    uint8_t *ret_rt;
    uint8_t *pwritten;
} an;

static uint64_t bit(int l) { return l >= 0 ? 1ull << l : 0; }

/* what a value depends on besides constants (an.rt, an.vrt bits) */
#define RT_RUN 1u   /* anything not a compile-time constant */
#define RT_PARAM 2u /* a parameter of the function it is in */
#define RT_MEM 4u   /* memory that may change (a load, an atomic, a call) */

static int dominates(const spv_module *m, uint32_t a, uint32_t b)
{
    for (int g = 0; b != SPV_NONE && g < 100000; g++) {
        if (a == b)
            return 1;
        b = m->blocks[b].idom;
    }
    return 0;
}

static uint32_t var_cls(const an *A, uint32_t vi)
{
    return vi == EV_NONE ? EVM_OTHER : (uint32_t)A->c->info.vars[vi].cls;
}

/* the function variable an instruction's pointer operand is, directly */
static uint32_t direct_var(const an *A, uint32_t ptr)
{
    if (ptr >= A->c->bound)
        return EV_NONE;
    uint32_t vi = A->c->var_of_id[ptr];
    uint32_t k = var_cls(A, vi);
    return k == EVM_FUNCTION || k == EVM_PRIVATE ? vi : EV_NONE;
}

/* the OpFunctionParameter a pointer is (through access chains), or 0 */
static uint32_t param_root(const an *A, uint32_t ptr)
{
    for (int g = 0; g < 64; g++) {
        const spv_inst *d = spv_def(A->m, ptr);
        if (!d)
            return 0;
        if (d->opcode == SpvOpFunctionParameter)
            return d->result_id;
        if ((d->opcode != SpvOpAccessChain && d->opcode != SpvOpInBoundsAccessChain &&
             d->opcode != SpvOpCopyObject) || !d->nops)
            return 0;
        ptr = d->ops[0];
    }
    return 0;
}

/* a parameter pointing to an invocation's own variables (Function or
 * Private storage): inlined, it is the caller's variable */
static int local_param(const an *A, uint32_t param)
{
    const spv_type *t = param ? spv_value_type(A->m, param) : NULL;
    return t && t->kind == SPV_T_POINTER &&
           (t->storage == SpvStorageClassFunction || t->storage == SpvStorageClassPrivate);
}

static int is_cmp(uint32_t op)
{
    return op == SpvOpIEqual || op == SpvOpINotEqual || op == SpvOpULessThan ||
           op == SpvOpSLessThan || op == SpvOpULessThanEqual ||
           op == SpvOpSLessThanEqual || op == SpvOpUGreaterThan ||
           op == SpvOpSGreaterThan || op == SpvOpUGreaterThanEqual ||
           op == SpvOpSGreaterThanEqual;
}

static int cmp_eval(uint32_t op, uint32_t a, uint32_t b)
{
    int32_t sa = (int32_t)a, sb = (int32_t)b;
    switch (op) {
    case SpvOpIEqual: return a == b;
    case SpvOpINotEqual: return a != b;
    case SpvOpULessThan: return a < b;
    case SpvOpSLessThan: return sa < sb;
    case SpvOpULessThanEqual: return a <= b;
    case SpvOpSLessThanEqual: return sa <= sb;
    case SpvOpUGreaterThan: return a > b;
    case SpvOpSGreaterThan: return sa > sb;
    case SpvOpUGreaterThanEqual: return a >= b;
    default: return sa >= sb;
    }
}

static int in_loop(const an *A, uint32_t b, int l)
{
    return b != SPV_NONE && (A->bmask[b] & bit(l)) != 0;
}

/* value = iv + step (or step + iv, iv - step) with a constant step */
static int step_of(const an *A, uint32_t val, uint32_t iv_var, uint32_t iv_phi,
                   uint32_t *inst, int64_t *step)
{
    const spv_inst *d = spv_def(A->m, val);
    if (!d || (d->opcode != SpvOpIAdd && d->opcode != SpvOpISub) || d->nops < 2)
        return -1;
    for (int k = 0; k < 2; k++) {
        uint32_t x = d->ops[k], y = d->ops[1 - k];
        const spv_inst *xd = spv_def(A->m, x);
        int is_iv = iv_phi ? x == iv_phi
                           : xd && xd->opcode == SpvOpLoad && xd->nops &&
                                 direct_var(A, xd->ops[0]) == iv_var;
        int64_t s;
        if (!is_iv || spv_const_i64(A->m, y, &s) != 0)
            continue;
        if (d->opcode == SpvOpISub) {
            if (k != 0)
                return -1;
            s = -s;
        }
        *inst = (uint32_t)(d - A->m->insts);
        *step = s;
        return 0;
    }
    return -1;
}

/* the value stored to variable vi that reaches the loop's header from
 * outside: the last store to it in the nearest dominating block that has
 * one */
static uint32_t init_store_value(const an *A, uint32_t vi, uint32_t h)
{
    const spv_module *m = A->m;
    for (uint32_t b = m->blocks[h].idom; b != SPV_NONE; b = m->blocks[b].idom) {
        const spv_block *bb = &m->blocks[b];
        for (uint32_t i = bb->last + 1; i-- > bb->first;) {
            const spv_inst *in = &m->insts[i];
            if (in->opcode == SpvOpStore && in->nops >= 2 &&
                A->c->var_of_id[in->ops[0] < A->c->bound ? in->ops[0] : 0] == vi)
                return in->ops[1];
        }
    }
    return 0;
}

/* The loop's induction: the compare of its exit branch, its update and
 * start.  Sets the control instructions and, when start, step and bound
 * are constants, the trip count. */
static void find_induction(an *A, int l)
{
    const spv_module *m = A->m;
    loop *L = &A->L[l];
    const spv_block *H = &m->blocks[L->h];
    uint32_t cb = L->h;
    if (m->insts[H->last].opcode == SpvOpBranch && H->nsucc == 1)
        cb = H->succ[0];
    const spv_inst *br = &m->insts[m->blocks[cb].last];
    if (br->opcode != SpvOpBranchConditional || br->nops < 3 || !in_loop(A, cb, l))
        return;
    uint32_t merge_label = m->blocks[L->merge].label;
    int exit_on_true;
    if (br->ops[1] == merge_label)
        exit_on_true = 1;
    else if (br->ops[2] == merge_label)
        exit_on_true = 0;
    else
        return;
    /* one exit: no other block of the loop leaves it */
    for (uint32_t b = m->funcs[H->func].first_block;
         b < m->funcs[H->func].first_block + m->funcs[H->func].nblocks; b++) {
        if (!in_loop(A, b, l))
            continue;
        uint16_t op = m->insts[m->blocks[b].last].opcode;
        if (op == SpvOpReturn || op == SpvOpReturnValue || op == SpvOpKill ||
            op == SpvOpTerminateInvocation || op == SpvOpUnreachable)
            return;
        for (uint32_t s = 0; s < m->blocks[b].nsucc; s++)
            if (!in_loop(A, m->blocks[b].succ[s], l) && b != cb)
                return;
    }
    const spv_inst *cmp = spv_def(m, br->ops[0]);
    if (!cmp || !is_cmp(cmp->opcode) || cmp->nops < 2)
        return;
    for (int side = 0; side < 2; side++) {
        uint32_t ivv = cmp->ops[side], bound = cmp->ops[1 - side];
        const spv_inst *d = spv_def(m, ivv);
        if (!d)
            continue;
        uint32_t var = EV_NONE, phi = 0, init = 0, upd_val = 0;
        if (d->opcode == SpvOpLoad && d->nops && (var = direct_var(A, d->ops[0])) != EV_NONE) {
            /* exactly one store inside the loop: the update */
            int n_in = 0;
            for (size_t i = m->funcs[H->func].first_inst; i < m->funcs[H->func].end_inst; i++) {
                const spv_inst *in = &m->insts[i];
                if (in->opcode != SpvOpStore || in->nops < 2 ||
                    ev_root_var(A->c, in->ops[0]) != var)
                    continue;
                if (direct_var(A, in->ops[0]) != var)
                    return; /* a part of it stored: not a plain counter */
                if (in_loop(A, in->block, l)) {
                    n_in++;
                    upd_val = in->ops[1];
                }
            }
            if (n_in != 1)
                continue;
            init = init_store_value(A, var, L->h);
        } else if (d->opcode == SpvOpPhi && d->block == L->h && d->nops == 4) {
            phi = d->result_id;
            for (int k = 0; k < 2; k++) {
                uint32_t pb = spv_block_of_label(m, d->ops[2 * k + 1]);
                if (in_loop(A, pb, l))
                    upd_val = d->ops[2 * k];
                else
                    init = d->ops[2 * k];
            }
        } else {
            continue;
        }
        uint32_t upd = EV_NONE;
        int64_t step;
        if (!upd_val || step_of(A, upd_val, var, phi, &upd, &step) != 0 || step == 0)
            continue;
        L->cmp = (uint32_t)(cmp - m->insts);
        L->upd = upd;
        L->cbr = m->blocks[cb].last;
        L->cond = cb;
        L->iv_var = var;
        L->iv_phi = phi;
        uint64_t i0, k;
        if (!init || spv_const_u64(m, init, &i0) != 0 || spv_const_u64(m, bound, &k) != 0)
            return;
        uint32_t iv = (uint32_t)i0, kk = (uint32_t)k;
        uint64_t n = 0;
        for (;;) {
            int cv = side == 0 ? cmp_eval(cmp->opcode, iv, kk) : cmp_eval(cmp->opcode, kk, iv);
            if (cv == exit_on_true)
                break;
            if (++n > MAX_TRIPS)
                return;
            iv += (uint32_t)step;
        }
        L->const_trips = 1;
        L->trips = n;
        L->start = (int64_t)(int32_t)(uint32_t)i0;
        L->step = step;
        return;
    }
}

static int find_loops(an *A)
{
    const spv_module *m = A->m;
    A->lidx = xcalloc(m->nblocks ? m->nblocks : 1, sizeof *A->lidx);
    A->bmask = xcalloc(m->nblocks ? m->nblocks : 1, sizeof *A->bmask);
    for (size_t b = 0; b < m->nblocks; b++) {
        A->lidx[b] = -1;
        const spv_block *bb = &m->blocks[b];
        if (!bb->reachable || bb->merge != SPV_MERGE_LOOP)
            continue;
        if (A->nl == MAX_LOOPS)
            return -1;
        loop *L = &A->L[A->nl];
        L->h = (uint32_t)b;
        L->cont = bb->continue_block;
        L->merge = bb->merge_block;
        L->cmp = L->upd = L->cbr = EV_NONE;
        L->iv_var = EV_NONE;
        A->lidx[b] = A->nl++;
    }
    for (int l = 0; l < A->nl; l++) {
        uint32_t up = m->blocks[A->L[l].h].idom;
        uint32_t ph = up != SPV_NONE ? m->blocks[up].loop_header : SPV_NONE;
        A->L[l].parent = ph != SPV_NONE ? A->lidx[ph] : -1;
        if (ph != SPV_NONE && A->lidx[ph] < 0)
            return -1;
    }
    for (size_t b = 0; b < m->nblocks; b++) {
        if (!m->blocks[b].reachable)
            continue;
        uint32_t h = m->blocks[b].loop_header;
        if (h != SPV_NONE && A->lidx[h] < 0)
            return -1; /* a natural loop without OpLoopMerge */
        for (int l = h != SPV_NONE ? A->lidx[h] : -1, g = 0; l >= 0 && g < MAX_LOOPS;
             l = A->L[l].parent, g++)
            A->bmask[b] |= bit(l);
    }
    return 0;
}

/* a variable is carried around loop l when it is stored in l and some
 * read of it in l is not preceded, in the same trip, by a store of the
 * whole variable */
static void carried_vars(an *A)
{
    const spv_module *m = A->m;
    size_t nv = A->c->info.nvars;
    uint64_t *stored = xcalloc(nv + 1, sizeof *stored);
    /* the whole-variable stores of each variable, as a list */
    uint32_t *first = xcalloc(nv + 1, sizeof *first);
    uint32_t *next = xcalloc(m->ninsts + 1, sizeof *next);
    for (size_t v = 0; v <= nv; v++)
        first[v] = EV_NONE;
    for (size_t i = m->ninsts; i-- > 0;) {
        const spv_inst *in = &m->insts[i];
        if (in->opcode == SpvOpStore && in->nops >= 2 && in->block != SPV_NONE) {
            uint32_t vi = ev_root_var(A->c, in->ops[0]);
            if (vi != EV_NONE && vi < nv)
                stored[vi] |= A->bmask[in->block];
            if (vi != EV_NONE && vi < nv && direct_var(A, in->ops[0]) == vi) {
                next[i] = first[vi];
                first[vi] = (uint32_t)i;
            }
        }
    }
    for (size_t i = 0; i < m->ninsts; i++) {
        const spv_inst *ld = &m->insts[i];
        if (ld->opcode != SpvOpLoad || !ld->nops || ld->block == SPV_NONE)
            continue;
        uint32_t vi = ev_root_var(A->c, ld->ops[0]);
        if (vi == EV_NONE || vi >= nv || !(stored[vi] & A->bmask[ld->block]))
            continue;
        uint64_t cand = stored[vi] & A->bmask[ld->block] & ~A->carried[vi];
        for (int l = 0; l < A->nl && cand; l++) {
            if (!(cand & bit(l)))
                continue;
            int killed = 0;
            for (uint32_t j = first[vi]; j != EV_NONE && !killed; j = next[j]) {
                const spv_inst *st = &m->insts[j];
                if (!in_loop(A, st->block, l))
                    continue;
                killed = st->block == ld->block ? j < i
                                                : dominates(m, st->block, ld->block);
            }
            if (!killed)
                A->carried[vi] |= bit(l);
        }
    }
    free(stored);
    free(first);
    free(next);
}

static int pure_op(const spv_module *m, const spv_inst *in)
{
    uint32_t op = in->opcode;
    if (op == SpvOpExtInst)
        return in->nops >= 1 && in->ops[0] == m->glsl_std_450;
    return (op >= SpvOpVectorExtractDynamic && op <= SpvOpTranspose) ||
           (op >= SpvOpConvertFToU && op <= SpvOpSMulExtended) ||
           (op >= SpvOpAny && op <= SpvOpBitCount);
}

/* instructions that neither read nor write memory and are not arithmetic */
static int benign_op(uint32_t op)
{
    switch (op) {
    case SpvOpLabel: case SpvOpLine: case SpvOpNoLine: case SpvOpNop:
    case SpvOpSelectionMerge: case SpvOpLoopMerge: case SpvOpBranch:
    case SpvOpBranchConditional: case SpvOpSwitch: case SpvOpReturn:
    case SpvOpReturnValue: case SpvOpUnreachable: case SpvOpFunction:
    case SpvOpFunctionParameter: case SpvOpFunctionEnd: case SpvOpVariable:
    case SpvOpPhi: case SpvOpAccessChain: case SpvOpInBoundsAccessChain:
    case SpvOpCopyObject: case SpvOpBitcast: case SpvOpUndef:
    case SpvOpFunctionCall: /* its callee is looked at apart */
        return 1;
    default:
        return 0;
    }
}

/* Calls: the driver's compiler inlines every function.  A function is
 * impure when it reads memory other than the invocation's own variables,
 * builtins and push constants, writes anything but its own variables and
 * its parameters, or calls an impure function: its call's result may then
 * differ on every trip, like a load.  A parameter the callee stores
 * through is marked (the caller's variable changes at the call). */
static void calls_prepare(an *A)
{
    const spv_module *m = A->m;
    ev_ctx *c = A->c;
    A->impure = xcalloc(m->nfuncs + 1, 1);
    A->ret_vm = xcalloc(m->nfuncs + 1, sizeof *A->ret_vm);
    A->ret_rt = xcalloc(m->nfuncs + 1, 1);
    A->pwritten = xcalloc(c->bound + 1, 1);
    for (size_t i = 0; i < m->ninsts; i++) {
        const spv_inst *in = &m->insts[i];
        if (in->func >= m->nfuncs)
            continue;
        uint32_t op = in->opcode;
        int bad = 0;
        if ((op == SpvOpLoad || op == SpvOpStore) && in->nops) {
            uint32_t ptr = in->ops[0] < c->bound ? in->ops[0] : 0;
            uint32_t prm = param_root(A, ptr);
            if (prm) {
                bad = !local_param(A, prm);
                if (op == SpvOpStore && prm < c->bound)
                    A->pwritten[prm] = 1;
            } else {
                uint32_t k = var_cls(A, ev_root_var(c, ptr));
                bad = !(k == EVM_FUNCTION ||
                        (op == SpvOpLoad && (k == EVM_PRIVATE || k == EVM_INPUT || k == EVM_PUSH)));
            }
        } else if (!pure_op(m, in) && !benign_op(op)) {
            bad = 1;
        }
        if (bad)
            A->impure[in->func] = 1;
    }
    for (int round = 0, more = 1; more && round < MAX_PASSES; round++) {
        more = 0;
        for (size_t i = 0; i < m->ninsts; i++) {
            const spv_inst *in = &m->insts[i];
            if (in->opcode != SpvOpFunctionCall || in->func >= m->nfuncs || A->impure[in->func])
                continue;
            const spv_function *g = in->nops ? spv_func_of(m, in->ops[0]) : NULL;
            if (!g || A->impure[g - m->funcs]) {
                A->impure[in->func] = 1;
                more = 1;
            }
        }
    }
}

/* union of (v, r) into id's variance; 1 when it grew */
static int widen(an *A, uint32_t id, uint64_t v, uint8_t r)
{
    if ((A->vm[id] | v) == A->vm[id] && (A->rt[id] | r) == A->rt[id])
        return 0;
    A->vm[id] |= v;
    A->rt[id] |= r;
    return 1;
}

/* A call, inlined: each argument's variance flows into its parameter (a
 * pointer to a variable of the caller as the variable's value: the
 * callee's loads through it read that variable), a variable the callee
 * stores through may change on every trip around the call, and the call's
 * result varies as the callee's returned values do when the callee is
 * pure.  0: an impure or unknown callee (its result is then a load's). */
static int call_flow(an *A, const spv_inst *in, uint64_t here, uint64_t *v, uint8_t *r,
                     int *changed)
{
    const spv_module *m = A->m;
    ev_ctx *c = A->c;
    const spv_function *g = in->nops ? spv_func_of(m, in->ops[0]) : NULL;
    if (!g)
        return 0;
    for (uint32_t k = 0; k < g->nparams && k + 1 < in->nops; k++) {
        uint32_t arg = in->ops[k + 1], prm = g->params[k];
        if (arg >= c->bound || prm >= c->bound)
            continue;
        uint64_t av = A->vm[arg];
        uint8_t ar = A->rt[arg];
        uint32_t vi = ev_root_var(c, arg);
        uint32_t kc = var_cls(A, vi);
        int local = kc == EVM_FUNCTION || kc == EVM_PRIVATE;
        if (local) {
            av |= A->vvm[vi];
            ar |= A->vrt[vi];
        }
        *changed |= widen(A, prm, av, (uint8_t)((ar & RT_RUN) | RT_PARAM));
        if (!A->pwritten[prm])
            continue;
        uint32_t outer = param_root(A, arg);
        if (local && ((A->vvm[vi] | here) != A->vvm[vi] || !(A->vrt[vi] & RT_RUN))) {
            A->vvm[vi] |= here;
            A->vrt[vi] |= RT_RUN;
            *changed = 1;
        } else if (!local && outer && !A->pwritten[outer]) {
            A->pwritten[outer] = 1; /* through the caller's own parameter */
            *changed = 1;
        }
    }
    if (A->impure[g - m->funcs])
        return 0;
    /* the returned values' dependence on the callee's parameters is the
     * arguments' own */
    uint8_t args = 0;
    for (uint32_t k = 1; k < in->nops; k++)
        if (in->ops[k] < c->bound) {
            uint32_t vi = ev_root_var(c, in->ops[k]);
            uint32_t kc = var_cls(A, vi);
            args |= A->rt[in->ops[k]] |
                    (kc == EVM_FUNCTION || kc == EVM_PRIVATE ? A->vrt[vi] : 0);
        }
    uint8_t rr = A->ret_rt[g - m->funcs];
    *v = A->ret_vm[g - m->funcs];
    *r = (uint8_t)((rr & RT_RUN) | (rr & RT_PARAM ? args : 0));
    return 1;
}

/* the operands that are ids (not literals: the extended instruction's
 * number, composite indices, shuffle components) */
static uint32_t first_id_operand(const spv_inst *in)
{
    return in->opcode == SpvOpExtInst ? 2 : 0;
}

static uint32_t id_operands(const spv_inst *in)
{
    uint32_t n = in->nops;
    switch (in->opcode) {
    case SpvOpCompositeExtract: return n < 1 ? n : 1;
    case SpvOpCompositeInsert: case SpvOpVectorShuffle: return n < 2 ? n : 2;
    default: return n;
    }
}

/* What deciding to run block b depends on: the conditions (and switch
 * selectors) of the selection constructs it sits inside, walking up its
 * dominators to `stop` (included; SPV_NONE: the function's entry).  A
 * variable stored there, or a phi fed from there, holds a value chosen by
 * those conditions even when every value it could hold is a constant: a
 * helper's `if (p > 3u) r = 1.5; else r = 2.5;` makes r vary with p. */
static void control_of(const an *A, uint32_t b, uint32_t stop, uint64_t *v, uint8_t *r)
{
    const spv_module *m = A->m;
    const ev_ctx *c = A->c;
    uint32_t d = b;
    for (int g = 0; d != SPV_NONE && d != stop && g < 100000; g++) {
        d = m->blocks[d].idom;
        if (d == SPV_NONE)
            break;
        const spv_block *D = &m->blocks[d];
        const spv_inst *t = &m->insts[D->last];
        if (D->merge == SPV_MERGE_SELECTION && D->merge_block != SPV_NONE &&
            D->merge_block != b && !dominates(m, D->merge_block, b) &&
            (t->opcode == SpvOpBranchConditional || t->opcode == SpvOpSwitch) && t->nops &&
            t->ops[0] < c->bound) {
            *v |= A->vm[t->ops[0]];
            *r |= A->rt[t->ops[0]];
        }
    }
}

/* one pass of the variance data-flow; 1 when something changed */
static int variance_pass(an *A)
{
    const spv_module *m = A->m;
    ev_ctx *c = A->c;
    int changed = 0;
    for (size_t i = 0; i < m->ninsts; i++) {
        const spv_inst *in = &m->insts[i];
        if (in->func == SPV_NONE || in->block == SPV_NONE)
            continue;
        uint64_t v = 0;
        uint8_t r = 0;
        uint64_t here = A->bmask[in->block];
        if (in->opcode == SpvOpStore && in->nops >= 2) {
            uint32_t vi = ev_root_var(c, in->ops[0]);
            uint32_t k = var_cls(A, vi);
            if ((k == EVM_FUNCTION || k == EVM_PRIVATE) && in->ops[1] < c->bound &&
                in->ops[0] < c->bound) {
                uint64_t nv = A->vvm[vi] | A->vm[in->ops[1]] | A->vm[in->ops[0]] |
                              A->carried[vi];
                uint8_t nr = A->vrt[vi] | A->rt[in->ops[1]] | A->rt[in->ops[0]];
                control_of(A, in->block, SPV_NONE, &nv, &nr);
                if (nv != A->vvm[vi] || nr != A->vrt[vi]) {
                    A->vvm[vi] = nv;
                    A->vrt[vi] = nr;
                    changed = 1;
                }
            }
            continue;
        }
        if (in->opcode == SpvOpReturnValue && in->nops && in->ops[0] < c->bound &&
            in->func < m->nfuncs) {
            uint64_t rv = A->ret_vm[in->func] | A->vm[in->ops[0]];
            uint8_t rr = A->ret_rt[in->func] | A->rt[in->ops[0]];
            if (rv != A->ret_vm[in->func] || rr != A->ret_rt[in->func]) {
                A->ret_vm[in->func] = rv;
                A->ret_rt[in->func] = rr;
                changed = 1;
            }
            continue;
        }
        if (!in->result_id || in->result_id >= c->bound ||
            in->opcode == SpvOpVariable || in->opcode == SpvOpLabel)
            continue;
        if (in->opcode == SpvOpLoad && in->nops) {
            uint32_t p = in->ops[0] < c->bound ? in->ops[0] : 0;
            uint32_t vi = ev_root_var(c, p);
            uint32_t k = var_cls(A, vi);
            uint32_t prm = param_root(A, p);
            v = A->vm[p];
            r = (uint8_t)(RT_RUN | (A->rt[p] & RT_PARAM));
            if (k == EVM_FUNCTION || k == EVM_PRIVATE) {
                v |= A->vvm[vi];
                r = A->vrt[vi] | A->rt[p];
                /* a module-scope variable the program writes is an input
                 * of every call that reads it: it may differ between two
                 * calls (not computed once an invocation) */
                if (k == EVM_PRIVATE && in->func != c->entry_func && (A->vrt[vi] & RT_RUN))
                    r |= RT_PARAM;
            } else if (prm && local_param(A, prm) && !A->pwritten[prm]) {
                r = A->rt[p]; /* the caller's variable (call_flow) */
            } else if (k != EVM_INPUT && k != EVM_PUSH) {
                v |= here; /* memory may change between trips */
                r |= RT_MEM;
                if (prm)
                    r |= RT_PARAM;
            }
        } else if (in->opcode == SpvOpFunctionCall && call_flow(A, in, here, &v, &r, &changed)) {
            /* a pure callee's result: its returned values' variance */
        } else if (in->opcode == SpvOpPhi) {
            int differ = 0;
            for (uint32_t k = 0; k + 1 < in->nops; k += 2) {
                uint32_t x = in->ops[k] < c->bound ? in->ops[k] : 0;
                differ |= in->ops[k] != in->ops[0];
                v |= A->vm[x];
                r |= A->rt[x];
                int l = A->lidx[in->block];
                if (l >= 0 && in_loop(A, spv_block_of_label(m, in->ops[k + 1]), l))
                    v |= bit(l);
            }
            /* at a selection's merge: which value arrives is the
             * selection's choice (a loop header's first trip or not is
             * the loop bit above) */
            if (differ && A->lidx[in->block] < 0)
                for (uint32_t k = 1; k < in->nops; k += 2) {
                    uint32_t pb = spv_block_of_label(m, in->ops[k]);
                    if (pb != SPV_NONE)
                        control_of(A, pb, m->blocks[in->block].idom, &v, &r);
                }
        } else if (pure_op(m, in) || in->opcode == SpvOpAccessChain ||
                   in->opcode == SpvOpInBoundsAccessChain ||
                   in->opcode == SpvOpCopyObject || in->opcode == SpvOpBitcast) {
            for (uint32_t k = first_id_operand(in); k < id_operands(in); k++)
                if (in->ops[k] < c->bound) {
                    v |= A->vm[in->ops[k]];
                    r |= A->rt[in->ops[k]];
                }
        } else {
            /* memory, atomics, calls, subgroup operations, parameters:
             * may differ on every trip */
            v = here;
            r = RT_RUN | RT_MEM;
            for (uint32_t k = 0; k < in->nops; k++)
                if (in->ops[k] < c->bound) {
                    v |= A->vm[in->ops[k]];
                    r |= A->rt[in->ops[k]] & RT_PARAM;
                }
        }
        uint32_t id = in->result_id;
        if ((A->vm[id] | v) != A->vm[id] || (A->rt[id] | r) != A->rt[id]) {
            A->vm[id] |= v;
            A->rt[id] |= r;
            changed = 1;
        }
    }
    return changed;
}

/* entries into loop l over the dispatch, from the evaluator's counts (the
 * preheader's branch, else header visits less back edges); 0 unknown */
static double entries_of(const an *A, int l, const double *icount)
{
    const spv_module *m = A->m;
    const loop *L = &A->L[l];
    uint32_t pre = m->blocks[L->h].idom;
    if (pre != SPV_NONE && m->insts[m->blocks[pre].last].opcode == SpvOpBranch)
        return icount[m->blocks[pre].last];
    if (L->cont != SPV_NONE && m->insts[m->blocks[L->cont].last].opcode == SpvOpBranch)
        return icount[m->blocks[L->h].last] - icount[m->blocks[L->cont].last];
    return 0;
}

static void mark_control(an *A, ev_compiled *e)
{
    const spv_module *m = A->m;
    e->trip_inst = xcalloc((size_t)A->nl + 1, sizeof *e->trip_inst);
    for (int l = 0; l < A->nl; l++) {
        loop *L = &A->L[l];
        if (L->unrolled || L->cmp == EV_NONE || L->cont == SPV_NONE)
            continue;
        e->ctl[L->cmp] = e->ctl[L->upd] = e->ctl[L->cbr] = 1;
        const spv_block *H = &m->blocks[L->h];
        if (L->cond != L->h)
            e->ctl[H->last] = 1;
        const spv_block *C = &m->blocks[L->cont];
        if (m->insts[C->last].opcode == SpvOpBranch)
            e->ctl[C->last] = 1;
        for (uint32_t k = 0; k < C->npred; k++) {
            uint32_t pb = C->pred[k];
            if (in_loop(A, pb, l) && m->insts[m->blocks[pb].last].opcode == SpvOpBranch)
                e->ctl[m->blocks[pb].last] = 1;
        }
        e->trip_inst[e->ntrip++] = C->last;
        e->kept_known++;
    }
}

/* remembers a source line in a short list (distinct, first four) */
static void note_line(int *lines, int line)
{
    for (int k = 0; k < 4 && line > 0; k++) {
        if (lines[k] == line)
            return;
        if (lines[k] == 0) {
            lines[k] = line;
            return;
        }
    }
}

/* Whether value id is a compile-time constant once the loops in U are
 * unrolled: no run-time input and no variance in a kept loop. */
static int folds(const an *A, uint32_t id, uint64_t U)
{
    return !(A->rt[id] & RT_RUN) && !(A->vm[id] & ~U);
}

static void weigh(an *A, ev_compiled *e, const double *icount, uint64_t U)
{
    const spv_module *m = A->m;
    /* the entry's runs: its first block's terminator's executions */
    double once = 0;
    if (A->c->entry_func < m->nfuncs && m->funcs[A->c->entry_func].nblocks)
        once = icount[m->blocks[m->funcs[A->c->entry_func].first_block].last];
    for (size_t i = 0; i < m->ninsts; i++) {
        const spv_inst *in = &m->insts[i];
        if (in->block == SPV_NONE)
            continue;
        uint32_t b = in->block;
        int inner = m->blocks[b].loop_header != SPV_NONE ? A->lidx[m->blocks[b].loop_header] : -1;
        /* the copies unrolling makes of it, out to the first kept loop:
           independent loads among them are in flight together */
        double cp = 1;
        for (int l = inner, g = 0; l >= 0 && g < MAX_LOOPS && (U & bit(l));
             l = A->L[l].parent, g++)
            cp *= (double)A->L[l].trips;
        e->copies[i] = (float)cp;
        /* every call is inlined: no call, no return but the entry's */
        if (in->opcode == SpvOpFunctionCall ||
            ((in->opcode == SpvOpReturnValue || in->opcode == SpvOpReturn) &&
             in->func != A->c->entry_func)) {
            e->w[i] = 0;
            continue;
        }
        if (in->opcode == SpvOpBranch) {
            if (inner >= 0 && (U & bit(inner)))
                e->w[i] = 0;
            continue;
        }
        if (in->opcode == SpvOpBranchConditional) {
            uint32_t cnd = in->nops ? in->ops[0] : 0;
            if (cnd < A->c->bound && folds(A, cnd, U))
                e->w[i] = 0;
            continue;
        }
        int readonly = 0;
        if (in->opcode == SpvOpLoad && in->nops) {
            uint32_t k = var_cls(A, ev_root_var(A->c, in->ops[0]));
            readonly = k == EVM_INPUT || k == EVM_PUSH;
            if (k == EVM_PUSH) {
                /* push constants sit in a constant bank (NVIDIA c[0x0],
                   AMD user SGPRs) that instructions read as operands: no
                   instruction of their own */
                e->w[i] = 0;
                continue;
            }
        }
        if (!(pure_op(m, in) || readonly) || !in->result_id || in->result_id >= A->c->bound)
            continue;
        uint64_t v = A->vm[in->result_id];
        if (folds(A, in->result_id, U)) {
            e->w[i] = 0; /* constants only: folded */
            if (icount[i] > 0 && !readonly)
                note_line(e->folded_lines, in->line);
            continue;
        }
        /* in a callee, a value that depends on none of its parameters
         * and on no memory is the same at every inlined call: the compiler
         * computes it once, out of every loop (once an invocation) */
        if (in->func != A->c->entry_func && !v &&
            !(A->rt[in->result_id] & (RT_PARAM | RT_MEM))) {
            if (once > 0 && icount[i] > 0) {
                e->w[i] = (float)fmin(1, once / icount[i]);
                if (e->w[i] < 1 && !readonly)
                    note_line(e->hoisted_lines, in->line);
            }
            continue;
        }
        /* hoisted out of the outermost loop it can leave: it runs once per
         * entry of that loop, times the copies the unrolled loops it varies
         * in (inside that one) made of it */
        double copies = 1, runs = -1;
        for (int l = inner, g = 0; l >= 0 && g < MAX_LOOPS; l = A->L[l].parent, g++) {
            if (v & bit(l)) {
                if (!(U & bit(l)))
                    break; /* stays in a kept loop */
                copies *= (double)A->L[l].trips;
                continue;
            }
            double en = entries_of(A, l, icount);
            if (!(en > 0))
                break;
            runs = en * copies;
        }
        if (runs >= 0 && icount[i] > 0) {
            e->w[i] = (float)fmin(1, runs / icount[i]);
            if (e->w[i] < 1 && !readonly)
                note_line(e->hoisted_lines, in->line);
        }
    }
}

/* Loads and stores into a private (Function or Private) array through an
 * index that does not fold once the driver has unrolled what it unrolls
 * (U): the array cannot live in registers, so the driver places it in
 * local memory and each of them is a memory access (H200 run 15: a
 * softmax whose store loop indexes its register array by a kept counter,
 * 196.5 against 107.8 us with the loop unrolled). */
static void mark_local(an *A, ev_compiled *e, const double *icount, uint64_t U)
{
    const spv_module *m = A->m;
    ev_ctx *c = A->c;
    for (size_t i = 0; i < m->ninsts; i++) {
        const spv_inst *in = &m->insts[i];
        if ((in->opcode != SpvOpLoad && in->opcode != SpvOpStore) || !in->nops ||
            in->block == SPV_NONE || !(icount[i] > 0))
            continue;
        uint32_t ptr = in->ops[0];
        uint32_t vi = ptr < c->bound ? ev_root_var(c, ptr) : EV_NONE;
        uint32_t k = var_cls(A, vi);
        if (k != EVM_FUNCTION && k != EVM_PRIVATE)
            continue;
        /* arrays only: a vector indexed at run time becomes selects */
        const spv_inst *ty = spv_def(m, c->info.vars[vi].pointee);
        if (!ty || ty->opcode != SpvOpTypeArray)
            continue;
        int dynamic = 0;
        const spv_inst *d = spv_def(m, ptr);
        for (int g = 0; d && g < 64 && !dynamic &&
                        (d->opcode == SpvOpAccessChain || d->opcode == SpvOpInBoundsAccessChain);
             g++) {
            for (uint32_t q = 1; q < d->nops && !dynamic; q++) {
                uint32_t x = d->ops[q];
                dynamic = x < c->bound && !folds(A, x, U);
            }
            d = d->nops ? spv_def(m, d->ops[0]) : NULL;
        }
        if (!dynamic)
            continue;
        e->local_execs += icount[i];
        note_line(e->local_lines, in->line);
        if (e->local_var == UINT32_MAX)
            e->local_var = vi;
    }
}

int ev_compiled_weights(ev_ctx *c, const device_profile *p, const double *icount,
                        ev_compiled *e)
{
    const spv_module *m = c->m;
    memset(e, 0, sizeof *e);
    size_t n = m->ninsts ? m->ninsts : 1;
    e->w = xcalloc(n, sizeof *e->w);
    e->copies = xcalloc(n, sizeof *e->copies);
    e->ctl = xcalloc(n, 1);
    for (size_t i = 0; i < n; i++)
        e->w[i] = e->copies[i] = 1;
    e->local_var = UINT32_MAX;
    if (!p || p->kind != DEVICE_KIND_GPU || p->full_unroll_trips == 0)
        return 0;
    if (m->ninsts > MAX_INSTS) {
        snprintf(e->why, sizeof e->why, "module too large (%zu instructions)", m->ninsts);
        return 0;
    }
    an A;
    memset(&A, 0, sizeof A);
    A.c = c;
    A.m = m;
    if (find_loops(&A) != 0) {
        snprintf(e->why, sizeof e->why, "more than %d loops or an unstructured loop",
                 MAX_LOOPS);
        free(A.lidx);
        free(A.bmask);
        return 0;
    }
    size_t nv = c->info.nvars + 1;
    A.vm = xcalloc(c->bound + 1, sizeof *A.vm);
    A.rt = xcalloc(c->bound + 1, 1);
    A.vvm = xcalloc(nv, sizeof *A.vvm);
    A.vrt = xcalloc(nv, 1);
    A.carried = xcalloc(nv, sizeof *A.carried);
    carried_vars(&A);
    calls_prepare(&A);
    int pass = 0;
    while (pass++ < MAX_PASSES && variance_pass(&A))
        ;
    if (pass > MAX_PASSES) {
        snprintf(e->why, sizeof e->why, "dependence analysis did not settle");
    } else {
        for (int l = 0; l < A.nl; l++)
            find_induction(&A, l);
        /* innermost first: a loop is unrolled when its trips are a small
         * constant and every loop inside it is unrolled */
        uint64_t U = 0;
        for (int round = 0; round < MAX_LOOPS; round++) {
            int more = 0;
            for (int l = 0; l < A.nl; l++) {
                loop *L = &A.L[l];
                if (L->unrolled || !L->const_trips || L->trips > p->full_unroll_trips)
                    continue;
                int inner_ok = 1;
                for (int k = 0; k < A.nl; k++)
                    if (k != l && A.L[k].parent == l && !A.L[k].unrolled)
                        inner_ok = 0;
                if (inner_ok) {
                    L->unrolled = 1;
                    U |= bit(l);
                    more = 1;
                }
            }
            if (!more)
                break;
        }
        for (int l = 0; l < A.nl; l++)
            e->unrolled += (unsigned)A.L[l].unrolled;
        e->loops = (unsigned)A.nl;
        weigh(&A, e, icount, U);
        mark_local(&A, e, icount, U);
        mark_control(&A, e);
        e->active = 1;
    }
    free(A.lidx);
    free(A.bmask);
    free(A.vm);
    free(A.rt);
    free(A.vvm);
    free(A.vrt);
    free(A.carried);
    free(A.impure);
    free(A.ret_vm);
    free(A.ret_rt);
    free(A.pwritten);
    return 0;
}

int ev_const_trips(ev_ctx *c, uint32_t h, uint64_t *trips)
{
    ev_induction ind;
    if (ev_loop_induction(c, h, &ind) != 0)
        return -1;
    *trips = ind.trips;
    return 0;
}

int ev_loop_induction(ev_ctx *c, uint32_t h, ev_induction *out)
{
    an A;
    memset(&A, 0, sizeof A);
    A.c = c;
    A.m = c->m;
    int rc = -1;
    if (find_loops(&A) == 0 && h < A.m->nblocks && A.lidx[h] >= 0) {
        size_t nv = c->info.nvars + 1;
        A.carried = xcalloc(nv, sizeof *A.carried);
        const loop *L = &A.L[A.lidx[h]];
        find_induction(&A, A.lidx[h]);
        if (L->const_trips) {
            out->trips = L->trips;
            out->var = L->iv_var;
            out->start = L->start;
            out->step = L->step;
            rc = 0;
        }
        free(A.carried);
    }
    free(A.lidx);
    free(A.bmask);
    return rc;
}

void ev_compiled_free(ev_compiled *e)
{
    free(e->copies);
    e->copies = NULL;
    free(e->w);
    free(e->ctl);
    free(e->trip_inst);
    memset(e, 0, sizeof *e);
}
