/* eval_wgdep.c - how each value depends on the workgroup id, per axis, so
 * that eval_dispatch.c knows when probing the ends of an axis (and
 * bisecting between probes that differ) speaks for the groups in between.
 *
 * The argument for probing: if every branch condition is a monotone
 * function of the group id along an axis (a comparison of an affine index
 * with a bound, `i < n`), two groups that behave alike have every
 * condition equal, and so does every group between them; an address that
 * is monotone in the group id is extreme at the ends.  The argument fails
 * for `wg == 37`, `wg % 4 == 3`, `i % W` in an address, a band
 * `a <= wg && wg < b`, a switch on the group id, or a shared-memory index
 * that moves with the group (which lanes collide can change anywhere).
 * This pass finds those per axis; the dispatch then executes every group
 * of such an axis, or says which groups it assumed.
 *
 * Lattice per axis (2 bits): IND (does not depend on the axis), AFF
 * (affine in it), MONO (monotone in it), NM (anything else).  Each value
 * keeps one byte (3 axes) per component for up to 4 components (a uvec3
 * builtin keeps x, y and z apart; larger values join all components).
 * Values the evaluator does not know (buffer contents the plan does not
 * give) are IND here: the interpreter sees the same unknown in every
 * group, and the branches on them are stated by their own assumptions.
 * Integer wrap-around is ignored (an index that wraps 2^32 is reported by
 * the bounds check of the groups that run).
 */
#include "eval_ctx.h"

#include <spirv/unified1/GLSL.std.450.h>
#include <spirv/unified1/spirv.h>

enum { W_IND = 0, W_AFF = 1, W_MONO = 2, W_NM = 3 };

static unsigned ax(uint8_t b, int d) { return (b >> (2 * d)) & 3u; }

static uint8_t mk(const unsigned a[3])
{
    return (uint8_t)(a[0] | (a[1] << 2) | (a[2] << 4));
}

typedef unsigned (*ax_rule)(unsigned x, unsigned y);

static uint8_t per_axis(uint8_t a, uint8_t b, ax_rule f)
{
    if (!(a | b))
        return 0; /* every rule keeps independent values independent */
    unsigned r[3];
    for (int d = 0; d < 3; d++)
        r[d] = f(ax(a, d), ax(b, d));
    return mk(r);
}

static unsigned r_join(unsigned x, unsigned y) { return x > y ? x : y; }
static unsigned r_add(unsigned x, unsigned y)
{
    if (!x || !y)
        return x | y;
    return x == W_AFF && y == W_AFF ? W_AFF : W_NM;
}
static unsigned r_one(unsigned x, unsigned y) { return !x || !y ? x | y : W_NM; }
static unsigned r_cmp(unsigned x, unsigned y)
{
    if (!x && !y)
        return W_IND;
    if ((!x && y != W_NM) || (!y && x != W_NM) || (x == W_AFF && y == W_AFF))
        return W_MONO;
    return W_NM;
}
static unsigned r_eq(unsigned x, unsigned y) { return x || y ? W_NM : W_IND; }
static unsigned r_mono(unsigned x, unsigned y)
{
    (void)y;
    return x == W_AFF ? W_MONO : x;
}
static unsigned r_step(unsigned x, unsigned y)
{   /* x / y, x >> y: monotone in x for a y that does not move */
    return y ? W_NM : r_mono(x, 0);
}
static unsigned r_nm(unsigned x, unsigned y) { return x || y ? W_NM : W_IND; }
static unsigned r_min(unsigned x, unsigned y)
{   /* min/max with a bound that does not move stays monotone */
    if (!x || !y)
        return (x | y) == W_AFF ? W_MONO : (x | y);
    return W_NM;
}

typedef struct wg_state {
    ev_ctx *c;
    uint32_t *cls;     /* per id: 4 component bytes */
    uint32_t *vcls;    /* per variable */
    uint32_t *fret;    /* per function */
    int changed;
} wg_state;

static uint32_t rep(uint8_t b) { return b * 0x01010101u; }

static uint8_t byte_of(uint32_t w, unsigned i) { return (uint8_t)(w >> (8 * (i & 3))); }

/* The per-axis join (maximum of each 2-bit field) of four component
 * bytes at once, without branches: where y's field is greater, take y's. */
static uint32_t wjoin(uint32_t x, uint32_t y)
{
    const uint32_t H = 0x2a2a2a2au, L = 0x15151515u;
    uint32_t xh = x & H, yh = y & H, xl = x & L, yl = y & L;
    uint32_t gt = (yh & ~xh) | (~(xh ^ yh) & H & ((yl & ~xl) << 1));
    uint32_t mask = gt | (gt >> 1);
    return ((x & ~mask) | (y & mask)) & (H | L);
}

static uint8_t join_all(uint32_t w)
{
    if (!w)
        return 0;
    uint32_t b = wjoin(w, w >> 16);
    b = wjoin(b, b >> 8);
    return (uint8_t)(b & 0x3f);
}

static uint32_t get(const wg_state *s, uint32_t id)
{
    return id < s->c->bound ? s->cls[id] : 0;
}

/* Components of a value type kept apart: a vector of up to 4; else 0. */
static unsigned vec_n(const ev_ctx *c, uint32_t type_id)
{
    const spv_type *t = spv_type_of(c->m, type_id);
    return t && t->kind == SPV_T_VECTOR && t->count <= 4 ? t->count : 0;
}

static uint32_t norm(const ev_ctx *c, uint32_t type_id, uint32_t w)
{
    return vec_n(c, type_id) ? w : rep(join_all(w));
}

static void set_cls(wg_state *s, uint32_t *slot, uint32_t w)
{
    if (!w || w == *slot)
        return;
    uint32_t n = wjoin(*slot, w);
    if (n != *slot) {
        *slot = n;
        s->changed = 1;
    }
}

static uint32_t bin(const wg_state *s, uint32_t a, uint32_t b, ax_rule f)
{
    uint32_t x = get(s, a), y = get(s, b), r = 0;
    if (!(x | y))
        return 0;
    for (unsigned i = 0; i < 4; i++)
        r |= (uint32_t)per_axis(byte_of(x, i), byte_of(y, i), f) << (8 * i);
    return r;
}

/* The axis a builtin input contributes (x, y, z per component). */
static int wg_builtin(const ev_var *v)
{
    return v->cls == EVM_INPUT && (v->builtin == SpvBuiltInWorkgroupId ||
                                   v->builtin == SpvBuiltInGlobalInvocationId);
}

static uint32_t builtin_vec(void)
{
    return (uint32_t)W_AFF | ((uint32_t)(W_AFF << 2) << 8) | ((uint32_t)(W_AFF << 4) << 16);
}

/* A pointer into variable vi: the component (0-3) of a small vector it
 * names, or -1 (the whole variable or something else). */
static int ptr_comp(const wg_state *s, uint32_t ptr, uint32_t vi)
{
    ev_ctx *c = s->c;
    if (vi < c->info.nvars && c->info.vars[vi].id == ptr)
        return -1;
    const spv_inst *in = spv_def(c->m, ptr);
    uint64_t k = 0;
    if (in && (in->opcode == SpvOpAccessChain || in->opcode == SpvOpInBoundsAccessChain) &&
        in->nops == 2 && vi < c->info.nvars && in->ops[0] == c->info.vars[vi].id &&
        vec_n(c, c->info.vars[vi].pointee) && spv_const_u64(c->m, in->ops[1], &k) == 0 &&
        k < 4)
        return (int)k;
    return -2;
}

static uint32_t load_cls(wg_state *s, const spv_inst *in)
{
    ev_ctx *c = s->c;
    uint32_t ptr = in->ops[0];
    uint32_t vi = ev_root_var(c, ptr);
    if (vi == EV_NONE)
        return 0;
    const ev_var *v = &c->info.vars[vi];
    int pc = ptr_comp(s, ptr, vi);
    uint8_t addr = join_all(get(s, ptr));
    if (wg_builtin(v)) {
        uint32_t b = builtin_vec();
        return pc >= 0 ? rep(byte_of(b, (unsigned)pc)) : pc == -1 ? b : rep(0x3f);
    }
    switch (v->cls) {
    case EVM_FUNCTION: case EVM_PRIVATE: case EVM_SHARED: {
        uint32_t w = s->vcls[vi];
        w = pc >= 0 ? rep(byte_of(w, (unsigned)pc)) : pc == -1 ? w : rep(join_all(w));
        /* an element chosen by the group id: any value of the array */
        uint8_t moved = per_axis(addr, 0, r_nm);
        return wjoin(w, rep(moved));
    }
    case EVM_STORAGE: case EVM_UNIFORM:
        /* contents the plan gives decode per address */
        return v->image ? rep(per_axis(addr, 0, r_nm)) : 0;
    default:
        return 0;
    }
}

static void store_cls(wg_state *s, const spv_inst *in)
{
    ev_ctx *c = s->c;
    uint32_t vi = ev_root_var(c, in->ops[0]);
    if (vi == EV_NONE || vi >= c->info.nvars)
        return;
    int pc = ptr_comp(s, in->ops[0], vi);
    uint32_t v = get(s, in->ops[1]), w = 0;
    /* a store to an element chosen by the group id moves the array */
    uint8_t moved = per_axis(join_all(get(s, in->ops[0])), 0, r_nm);
    if (pc >= 0) {
        w = (uint32_t)per_axis(byte_of(v, 0), moved, r_join) << (8 * pc);
    } else if (pc == -1 && vec_n(c, c->info.vars[vi].pointee)) {
        for (unsigned i = 0; i < 4; i++)
            w |= (uint32_t)per_axis(byte_of(v, i), moved, r_join) << (8 * i);
    } else {
        w = rep(per_axis(join_all(v), moved, r_join));
    }
    set_cls(s, &s->vcls[vi], w);
}

static uint32_t ext_cls(const wg_state *s, const spv_inst *in)
{
    uint32_t r = 0;
    if (in->nops >= 2 && in->ops[0] == s->c->m->glsl_std_450) {
        switch (in->ops[1]) {
        case GLSLstd450UMin: case GLSLstd450UMax: case GLSLstd450SMin:
        case GLSLstd450SMax: case GLSLstd450FMin: case GLSLstd450FMax:
        case GLSLstd450NMin: case GLSLstd450NMax:
            if (in->nops >= 4)
                return bin(s, in->ops[2], in->ops[3], r_min);
            break;
        case GLSLstd450UClamp: case GLSLstd450SClamp: case GLSLstd450FClamp:
        case GLSLstd450NClamp:
            if (in->nops >= 5) {
                uint32_t lohi = bin(s, in->ops[3], in->ops[4], r_nm);
                uint32_t x = bin(s, in->ops[2], in->ops[2], r_min);
                for (unsigned i = 0; i < 4; i++)
                    r |= (uint32_t)per_axis(byte_of(x, i), byte_of(lohi, i), r_one) << (8 * i);
                return r;
            }
            break;
        case GLSLstd450Floor: case GLSLstd450Ceil: case GLSLstd450Trunc:
        case GLSLstd450Round: case GLSLstd450RoundEven: case GLSLstd450Sqrt:
        case GLSLstd450Exp: case GLSLstd450Exp2: case GLSLstd450Log:
        case GLSLstd450Log2:
            if (in->nops >= 3)
                return bin(s, in->ops[2], in->ops[2], r_mono);
            break;
        default:
            break;
        }
    }
    for (uint32_t k = 2; k < in->nops; k++)
        r |= rep(per_axis(join_all(get(s, in->ops[k])), 0, r_nm));
    return r;
}

static uint32_t composite_cls(const wg_state *s, const spv_inst *in)
{
    const ev_ctx *c = s->c;
    uint32_t r = 0;
    switch (in->opcode) {
    case SpvOpCompositeExtract: {
        uint32_t w = get(s, in->ops[0]);
        const spv_type *t = spv_value_type(c->m, in->ops[0]);
        if (in->nops == 2 && t && t->kind == SPV_T_VECTOR && t->count <= 4)
            return rep(byte_of(w, in->ops[1]));
        return rep(join_all(w));
    }
    case SpvOpCompositeInsert: {
        uint32_t w = get(s, in->ops[1]);
        uint8_t o = byte_of(get(s, in->ops[0]), 0);
        if (in->nops == 3 && vec_n(c, in->type_id) && in->ops[2] < 4) {
            w &= ~(0xffu << (8 * in->ops[2]));
            return w | (uint32_t)o << (8 * in->ops[2]);
        }
        return rep(per_axis(join_all(w), o, r_join));
    }
    case SpvOpCompositeConstruct: {
        unsigned at = 0;
        if (!vec_n(c, in->type_id))
            break;
        for (uint32_t k = 0; k < in->nops && at < 4; k++) {
            unsigned n = vec_n(c, spv_value_type(c->m, in->ops[k]) ?
                                      spv_value_type(c->m, in->ops[k])->id : 0);
            uint32_t w = get(s, in->ops[k]);
            for (unsigned i = 0; i < (n ? n : 1) && at < 4; i++)
                r |= (uint32_t)byte_of(w, i) << (8 * at++);
        }
        return r;
    }
    case SpvOpVectorShuffle: {
        const spv_type *t = spv_value_type(c->m, in->ops[0]);
        uint32_t n1 = t && t->kind == SPV_T_VECTOR ? t->count : 0;
        for (uint32_t k = 2; k < in->nops && k < 6; k++) {
            uint32_t sel = in->ops[k];
            if (sel == 0xffffffffu)
                continue;
            uint32_t w = get(s, sel < n1 ? in->ops[0] : in->ops[1]);
            uint32_t comp = sel < n1 ? sel : sel - n1;
            r |= (uint32_t)byte_of(w, comp) << (8 * (k - 2));
        }
        return r;
    }
    default:
        break;
    }
    for (uint32_t k = 0; k < in->nops; k++)
        r |= rep(join_all(get(s, in->ops[k])));
    return r;
}

/* The class of an instruction's result from its operands. */
static uint32_t result_cls(wg_state *s, const spv_inst *in)
{
    ev_ctx *c = s->c;
    const uint32_t *o = in->ops;
    switch (in->opcode) {
    case SpvOpLoad:
        return in->nops ? load_cls(s, in) : 0;
    case SpvOpIAdd: case SpvOpFAdd: case SpvOpISub: case SpvOpFSub:
        return in->nops >= 2 ? bin(s, o[0], o[1], r_add) : 0;
    case SpvOpIMul: case SpvOpFMul: case SpvOpVectorTimesScalar:
        return in->nops >= 2 ? bin(s, o[0], o[1], r_one) : 0;
    case SpvOpShiftLeftLogical:
        return in->nops >= 2 ? bin(s, o[0], o[1], r_one) : 0;
    case SpvOpShiftRightLogical: case SpvOpShiftRightArithmetic:
    case SpvOpUDiv: case SpvOpSDiv: case SpvOpFDiv:
        return in->nops >= 2 ? bin(s, o[0], o[1], r_step) : 0;
    case SpvOpSNegate: case SpvOpFNegate: case SpvOpNot: case SpvOpLogicalNot:
    case SpvOpUConvert: case SpvOpSConvert: case SpvOpFConvert:
    case SpvOpConvertUToF: case SpvOpConvertSToF: case SpvOpBitcast:
    case SpvOpCopyObject:
        return in->nops ? get(s, o[0]) : 0;
    case SpvOpConvertFToU: case SpvOpConvertFToS:
        return in->nops ? bin(s, o[0], o[0], r_mono) : 0;
    case SpvOpULessThan: case SpvOpULessThanEqual: case SpvOpUGreaterThan:
    case SpvOpUGreaterThanEqual: case SpvOpSLessThan: case SpvOpSLessThanEqual:
    case SpvOpSGreaterThan: case SpvOpSGreaterThanEqual:
    case SpvOpFOrdLessThan: case SpvOpFOrdLessThanEqual: case SpvOpFOrdGreaterThan:
    case SpvOpFOrdGreaterThanEqual: case SpvOpFUnordLessThan:
    case SpvOpFUnordLessThanEqual: case SpvOpFUnordGreaterThan:
    case SpvOpFUnordGreaterThanEqual:
        return in->nops >= 2 ? bin(s, o[0], o[1], r_cmp) : 0;
    case SpvOpIEqual: case SpvOpINotEqual: case SpvOpFOrdEqual: case SpvOpFUnordEqual:
    case SpvOpFOrdNotEqual: case SpvOpFUnordNotEqual: case SpvOpLogicalEqual:
    case SpvOpLogicalNotEqual:
        return in->nops >= 2 ? bin(s, o[0], o[1], r_eq) : 0;
    case SpvOpLogicalAnd: case SpvOpLogicalOr:
        return in->nops >= 2 ? bin(s, o[0], o[1], r_one) : 0;
    case SpvOpSelect: {
        if (in->nops < 3)
            return 0;
        uint32_t ab = bin(s, o[1], o[2], r_join), cnd = get(s, o[0]), r = 0;
        for (unsigned i = 0; i < 4; i++) {
            unsigned a[3];
            for (int d = 0; d < 3; d++) {
                unsigned cd = ax(byte_of(cnd, i), d), v = ax(byte_of(ab, i), d);
                a[d] = !cd ? v : v || cd == W_NM ? W_NM : W_MONO;
            }
            r |= (uint32_t)mk(a) << (8 * i);
        }
        return r;
    }
    case SpvOpPhi: {
        uint32_t j = 0;
        for (uint32_t k = 0; k + 1 < in->nops; k += 2)
            j = wjoin(j, get(s, o[k]));
        return j;
    }
    case SpvOpAccessChain: case SpvOpInBoundsAccessChain: case SpvOpPtrAccessChain: {
        uint32_t b = 0;
        for (uint32_t k = 0; k < in->nops; k++)
            b = wjoin(b, get(s, o[k]));
        return rep(join_all(b));
    }
    case SpvOpCompositeExtract: case SpvOpCompositeInsert: case SpvOpVectorShuffle:
        if (in->nops < 2)
            return 0; /* malformed (not validated): nothing to follow */
        return composite_cls(s, in);
    case SpvOpCompositeConstruct:
        return composite_cls(s, in);
    case SpvOpExtInst:
        return ext_cls(s, in);
    case SpvOpFunctionCall: {
        const spv_function *fn = in->nops ? spv_func_of(c->m, o[0]) : NULL;
        if (!fn)
            return 0;
        for (uint32_t k = 0; k < fn->nparams && k + 1 < in->nops; k++)
            if (fn->params[k] < c->bound)
                set_cls(s, &s->cls[fn->params[k]], get(s, o[k + 1]));
        return s->fret[fn - c->m->funcs];
    }
    case SpvOpFunctionParameter:
        return s->cls[in->result_id];
    default: {
        uint32_t b = 0;
        for (uint32_t k = 0; k < in->nops; k++)
            b = wjoin(b, get(s, o[k]));
        return rep(per_axis(join_all(b), 0, r_nm));
    }
    }
}

/* Why axis d cannot be probed at its ends: instruction and reason. */
static void flag(ev_info *I, int d, uint32_t inst, const char *why)
{
    if (I->wg_nm & (1u << d))
        return;
    I->wg_nm |= (uint8_t)(1u << d);
    I->wg_nm_inst[d] = inst;
    I->wg_nm_why[d] = why;
}

static void add_candidate(ev_info *I, int d, uint64_t v)
{
    uint32_t G = I->k ? I->k->workgroups[d] : 1;
    uint64_t cand[6] = {v, v + 1, v ? v - 1 : 0, v / I->local[d], (v + 1) / I->local[d],
                        v / I->local[d] + 1};
    for (int q = 0; q < 6; q++) {
        if (cand[q] >= G || I->wg_ncand[d] >= EV_WG_CANDIDATES)
            continue;
        int dup = 0;
        for (int t = 0; t < I->wg_ncand[d]; t++)
            dup |= I->wg_cand[d][t] == (uint32_t)cand[q];
        if (!dup)
            I->wg_cand[d][I->wg_ncand[d]++] = (uint32_t)cand[q];
    }
}

static int is_compare(uint32_t op)
{
    return (op >= SpvOpIEqual && op <= SpvOpFUnordGreaterThanEqual) ||
           op == SpvOpUMod || op == SpvOpSMod || op == SpvOpSRem || op == SpvOpBitwiseAnd;
}

static void find_uses(wg_state *s)
{
    ev_ctx *c = s->c;
    const spv_module *m = c->m;
    ev_info *I = &c->info;
    for (size_t i = 0; i < m->ninsts; i++) {
        const spv_inst *in = &m->insts[i];
        if (in->func == SPV_NONE || !in->nops)
            continue;
        if (is_compare(in->opcode) && in->nops >= 2) {
            /* constants a moving value is compared with: groups to probe */
            for (int side = 0; side < 2; side++) {
                uint64_t k = 0;
                uint8_t b = join_all(get(s, in->ops[1 - side]));
                if (!b || spv_const_u64(m, in->ops[side], &k) != 0)
                    continue;
                int mod = in->opcode == SpvOpUMod || in->opcode == SpvOpSMod ||
                          in->opcode == SpvOpSRem;
                for (int d = 0; d < 3; d++) {
                    if (!ax(b, d))
                        continue;
                    if (!mod || side != 1 || k == 0) {
                        add_candidate(I, d, k);
                        continue;
                    }
                    /* x % M: the ends of the first and the last period */
                    uint64_t G = I->k ? I->k->workgroups[d] : 1;
                    add_candidate(I, d, k - 1);
                    add_candidate(I, d, (G - 1) / k * k - 1);
                    uint64_t per = k / I->local[d]; /* M counted in invocations */
                    if (per > 1)
                        add_candidate(I, d, (G - 1) / per * per - 1);
                }
            }
        }
        switch (in->opcode) {
        case SpvOpBranchConditional: {
            uint8_t b = join_all(get(s, in->ops[0]));
            for (int d = 0; d < 3; d++)
                if (ax(b, d) == W_NM)
                    flag(I, d, (uint32_t)i, "a branch that is not monotone in it");
            break;
        }
        case SpvOpSwitch: {
            uint8_t b = join_all(get(s, in->ops[0]));
            for (int d = 0; d < 3; d++)
                if (ax(b, d))
                    flag(I, d, (uint32_t)i, "a switch on it");
            break;
        }
        case SpvOpAccessChain: case SpvOpInBoundsAccessChain: case SpvOpPtrAccessChain: {
            uint32_t vi = ev_root_var(c, in->ops[0]);
            int shared = vi != EV_NONE && vi < I->nvars && I->vars[vi].cls == EVM_SHARED;
            for (uint32_t k = 1; k < in->nops; k++) {
                uint8_t b = join_all(get(s, in->ops[k]));
                for (int d = 0; d < 3; d++) {
                    if (shared && ax(b, d))
                        flag(I, d, (uint32_t)i, "a shared-memory index that moves with it");
                    else if (ax(b, d) == W_NM)
                        flag(I, d, (uint32_t)i, "an index that is not monotone in it");
                }
            }
            break;
        }
        default:
            break;
        }
    }
}

void ev_setup_wgdep(ev_ctx *c)
{
    const spv_module *m = c->m;
    ev_info *I = &c->info;
    wg_state s = {c, xcalloc(c->bound + 1, sizeof(uint32_t)),
                  xcalloc(I->nvars + 1, sizeof(uint32_t)),
                  xcalloc(m->nfuncs + 1, sizeof(uint32_t)), 0};
    int converged = 0;
    for (int pass = 0; pass < EV_PREPASS_MAX_PASSES && !converged; pass++) {
        s.changed = 0;
        for (size_t i = 0; i < m->ninsts; i++) {
            const spv_inst *in = &m->insts[i];
            if (in->func == SPV_NONE)
                continue;
            if (in->opcode == SpvOpStore && in->nops >= 2) {
                store_cls(&s, in);
                continue;
            }
            if (in->opcode == SpvOpReturnValue && in->nops) {
                set_cls(&s, &s.fret[in->func], rep(join_all(get(&s, in->ops[0]))));
                continue;
            }
            uint32_t r = in->result_id;
            if (!r || r >= c->bound || in->opcode == SpvOpVariable || in->opcode == SpvOpLabel)
                continue;
            uint32_t w = norm(c, in->type_id, result_cls(&s, in));
            set_cls(&s, &s.cls[r], w);
        }
        converged = !s.changed;
    }
    if (!converged) {
        for (int d = 0; d < 3; d++)
            flag(I, d, EV_NONE, "a data-flow that did not converge");
    } else {
        find_uses(&s);
    }
    free(s.cls);
    free(s.vcls);
    free(s.fret);
}
