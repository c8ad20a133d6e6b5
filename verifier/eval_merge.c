/* eval_merge.c - adjacent accesses the driver's compiler merges into one
 * wider access (eval_merge.h).
 *
 * Addresses are compared as affine forms over *terms*: sum of k x term +
 * a constant, where a term is a value the form cannot see through (a
 * builtin, a product of two variables, a masked index), named by a
 * representative id so that two instructions computing the same thing
 * from the same operands are one term (the unoptimised SPIR-V re-loads
 * `base` from its function variable before every use). */
#include "eval_merge.h"
#include "eval_compiled.h"
#include "eval_ctx.h"

#include <spirv/unified1/spirv.h>

#define MG_TERMS 6
#define MG_DEPTH 48
#define MG_KEY 10      /* words of a structural key */
#define MG_MAX_BOUND (1u << 20) /* ids: a module beyond is not planned */
#define MG_LOOP_VARS 64 /* variables stored in a candidate loop */
#define MG_CHAIN 32    /* accesses of one run */
#define MG_OPEN 8      /* runs open at once (one per variable and kind) */
#define MG_TZ_PASSES 8

typedef struct aform {
    uint8_t ok, nt;
    uint32_t t[MG_TERMS];  /* representative ids, ascending */
    int64_t k[MG_TERMS];
    int64_t c;
} aform;

typedef struct mkey {
    uint32_t n;
    uint64_t w[MG_KEY];
    uint32_t id;
} mkey;

typedef struct mg {
    ev_ctx *c;
    const spv_module *m;
    uint32_t bound;
    uint32_t *rep;         /* per id: representative, 0 not yet */
    uint8_t *fstate;       /* per id: 0 todo, 1 busy, 2 done */
    aform *f;
    uint32_t *single;      /* per variable: value of its one store */
    uint8_t *tzvar;        /* per variable: trailing zeros of its stores */
    uint8_t *tzmemo;       /* per id, 255 unknown */
    uint32_t *ver;         /* per instruction (loads): var_version */
    mkey *tab;
    size_t cap;
    int depth;
    /* the loop being planned (loop_access) */
    uint8_t *inv;          /* per id: 0 unknown, 1 invariant, 2 not */
    uint32_t loop_vars[MG_LOOP_VARS];
    int nloop_vars;        /* -1: too many to list */
    uint32_t buffer_bytes, shared_bytes; /* widest merges */
} mg;

/* The widest access the compiler merges for variable vi's memory. */
static uint32_t width_of(const mg *g, uint32_t vi)
{
    return g->c->info.vars[vi].cls == EVM_SHARED ? g->shared_bytes : g->buffer_bytes;
}

typedef struct member {
    uint32_t inst, size;
    aform a;
} member;

typedef struct run {
    int open, store;
    uint32_t var;
    uint32_t n;
    member e[MG_CHAIN];
} run;

static int ctz64(uint64_t v) { return v ? __builtin_ctzll(v) : 64; }

static int const_int(const mg *g, uint32_t id, int64_t *v)
{
    const spv_const *k = spv_const_of(g->m, id);
    const spv_type *t = k ? spv_type_of(g->m, k->type) : NULL;
    if (!k || k->kind != SPV_C_SCALAR || !k->known || !t || t->kind != SPV_T_INT)
        return 0;
    /* addresses are 32-bit arithmetic: sign-extend, differences stay small */
    *v = t->width <= 32 ? (int64_t)(int32_t)(uint32_t)k->bits : (int64_t)k->bits;
    return 1;
}

static const spv_inst *def(const mg *g, uint32_t id) { return spv_def(g->m, id); }

static uint32_t inst_index(const mg *g, const spv_inst *in)
{
    return (uint32_t)(in - g->m->insts);
}

/* ---- structural keys and representatives ---- */

static uint64_t key_hash(const mkey *k)
{
    uint64_t h = 1469598103934665603ull ^ k->n;
    for (uint32_t i = 0; i < k->n; i++)
        h = (h ^ k->w[i]) * 1099511628211ull;
    return h;
}

static uint32_t intern(mg *g, const mkey *k, uint32_t id)
{
    if (k->n > MG_KEY)
        return id;
    size_t mask = g->cap - 1;
    for (size_t i = key_hash(k) & mask, probe = 0; probe < g->cap;
         i = (i + 1) & mask, probe++) {
        mkey *e = &g->tab[i];
        if (!e->id) {
            *e = *k;
            e->id = id;
            return id;
        }
        if (e->n == k->n && memcmp(e->w, k->w, k->n * sizeof k->w[0]) == 0)
            return e->id;
    }
    return id; /* full: unshared */
}

static uint32_t rep(mg *g, uint32_t id);
static aform form(mg *g, uint32_t id);

static void key_put(mkey *k, uint64_t w)
{
    if (k->n < MG_KEY)
        k->w[k->n] = w;
    k->n++;
}

/* Per load of a function or private variable: the instruction index of
 * the last store into its variable before it in its block, or the block's
 * first instruction: the version of the variable it reads.  One forward
 * pass per block. */
static void setup_versions(mg *g)
{
    size_t nv = g->c->info.nvars + 1;
    uint32_t *last = xcalloc(nv, sizeof *last), *stamp = xcalloc(nv, sizeof *stamp);
    for (size_t b = 0; b < g->m->nblocks; b++) {
        const spv_block *bb = &g->m->blocks[b];
        for (uint32_t i = bb->first; i <= bb->last && i < g->m->ninsts; i++) {
            const spv_inst *in = &g->m->insts[i];
            if ((in->opcode != SpvOpLoad && in->opcode != SpvOpStore) || !in->nops)
                continue;
            uint32_t vi = ev_root_var(g->c, in->ops[0]);
            if (vi == EV_NONE)
                continue;
            if (in->opcode == SpvOpStore) {
                stamp[vi] = (uint32_t)b + 1;
                last[vi] = i;
            } else {
                g->ver[i] = stamp[vi] == b + 1 ? last[vi] : bb->first;
            }
        }
    }
    free(last);
    free(stamp);
}

static int pure_op(uint32_t op)
{
    switch (op) {
    case SpvOpIAdd: case SpvOpISub: case SpvOpIMul: case SpvOpUDiv:
    case SpvOpSDiv: case SpvOpUMod: case SpvOpSMod: case SpvOpSRem:
    case SpvOpShiftLeftLogical: case SpvOpShiftRightLogical:
    case SpvOpShiftRightArithmetic: case SpvOpBitwiseAnd:
    case SpvOpBitwiseOr: case SpvOpBitwiseXor: case SpvOpNot:
    case SpvOpSNegate: case SpvOpBitcast: case SpvOpUConvert:
    case SpvOpSConvert: case SpvOpConvertFToU: case SpvOpConvertFToS:
    case SpvOpConvertUToF: case SpvOpConvertSToF: case SpvOpSelect:
    case SpvOpIEqual: case SpvOpINotEqual: case SpvOpULessThan:
    case SpvOpSLessThan: case SpvOpUGreaterThan: case SpvOpSGreaterThan:
    case SpvOpULessThanEqual: case SpvOpSLessThanEqual:
    case SpvOpUGreaterThanEqual: case SpvOpSGreaterThanEqual:
    case SpvOpCompositeConstruct: case SpvOpAccessChain:
    case SpvOpInBoundsAccessChain: case SpvOpCopyObject:
        return 1;
    default:
        return 0;
    }
}

/* The structural key of a value the affine form does not see through. */
static uint32_t leaf(mg *g, uint32_t id)
{
    const spv_inst *in = def(g, id);
    mkey k = {0};
    int64_t cv;
    if (const_int(g, id, &cv)) {
        key_put(&k, 1);
        key_put(&k, (uint64_t)cv);
        return intern(g, &k, id);
    }
    if (!in || g->depth > MG_DEPTH)
        return id;
    g->depth++;
    uint32_t r = id;
    if (in->opcode == SpvOpVariable) {
        r = id;
    } else if (in->opcode == SpvOpLoad && in->nops >= 1) {
        uint32_t vi = ev_root_var(g->c, in->ops[0]);
        int cls = vi == EV_NONE ? EVM_OTHER : g->c->info.vars[vi].cls;
        if (cls == EVM_INPUT || cls == EVM_PUSH || cls == EVM_UNIFORM ||
            cls == EVM_FUNCTION || cls == EVM_PRIVATE) {
            key_put(&k, 2);
            key_put(&k, rep(g, in->ops[0]));
            if (cls == EVM_FUNCTION || cls == EVM_PRIVATE)
                key_put(&k, g->ver[inst_index(g, in)]);
            r = k.n <= MG_KEY ? intern(g, &k, id) : id;
        } /* buffer and workgroup contents may change: unshared */
    } else if (pure_op(in->opcode)) {
        key_put(&k, 3 | (uint64_t)in->opcode << 8);
        key_put(&k, in->type_id);
        for (uint32_t i = 0; i < in->nops; i++)
            key_put(&k, rep(g, in->ops[i]));
        r = k.n <= MG_KEY ? intern(g, &k, id) : id;
    } else if (in->opcode == SpvOpCompositeExtract && in->nops >= 1) {
        key_put(&k, 4);
        key_put(&k, in->type_id);
        key_put(&k, rep(g, in->ops[0]));
        for (uint32_t i = 1; i < in->nops; i++)
            key_put(&k, in->ops[i]); /* literal indices */
        r = k.n <= MG_KEY ? intern(g, &k, id) : id;
    }
    g->depth--;
    return r;
}

static uint32_t rep(mg *g, uint32_t id)
{
    if (id >= g->bound)
        return id;
    if (g->rep[id])
        return g->rep[id];
    if (g->fstate[id] == 1)
        return id; /* a cycle through a phi: itself */
    aform f = form(g, id);
    uint32_t r;
    if (f.ok && f.nt == 1 && f.k[0] == 1 && f.c == 0) {
        r = f.t[0];
    } else if (f.ok && f.nt > 0) {
        mkey k = {0};
        key_put(&k, 5);
        key_put(&k, (uint64_t)f.c);
        for (uint32_t i = 0; i < f.nt; i++) {
            key_put(&k, f.t[i]);
            key_put(&k, (uint64_t)f.k[i]);
        }
        r = k.n <= MG_KEY ? intern(g, &k, id) : id; /* too long: its own */
    } else {
        r = leaf(g, id);
    }
    g->rep[id] = r;
    return r;
}

/* ---- affine forms ---- */

static aform f_const(int64_t c)
{
    aform f = {1, 0, {0}, {0}, c};
    return f;
}

static aform f_term(uint32_t t)
{
    aform f = {1, 1, {t}, {1}, 0};
    return f;
}

/* a + s x b, terms kept sorted and non-zero */
static aform f_add(aform a, aform b, int64_t s)
{
    if (!a.ok || !b.ok)
        return (aform){0};
    aform r = {1, 0, {0}, {0}, a.c + s * b.c};
    uint32_t i = 0, j = 0;
    while (i < a.nt || j < b.nt) {
        uint32_t t;
        int64_t k;
        if (j >= b.nt || (i < a.nt && a.t[i] < b.t[j])) {
            t = a.t[i];
            k = a.k[i++];
        } else if (i >= a.nt || b.t[j] < a.t[i]) {
            t = b.t[j];
            k = s * b.k[j++];
        } else {
            t = a.t[i];
            k = a.k[i++] + s * b.k[j++];
        }
        if (!k)
            continue;
        if (r.nt == MG_TERMS)
            return (aform){0};
        r.t[r.nt] = t;
        r.k[r.nt++] = k;
    }
    return r;
}

static aform f_scale(aform a, int64_t s) { return f_add(f_const(0), a, s); }

static aform form_of(mg *g, uint32_t id)
{
    int64_t cv;
    if (const_int(g, id, &cv))
        return f_const(cv);
    const spv_inst *in = def(g, id);
    if (!in || g->depth > MG_DEPTH)
        return f_term(id);
    aform a, b;
    switch (in->opcode) {
    case SpvOpIAdd:
    case SpvOpISub:
        if (in->nops < 2)
            break;
        a = form(g, in->ops[0]);
        b = form(g, in->ops[1]);
        a = f_add(a, b, in->opcode == SpvOpIAdd ? 1 : -1);
        if (a.ok)
            return a;
        break;
    case SpvOpIMul:
        if (in->nops < 2)
            break;
        a = form(g, in->ops[0]);
        b = form(g, in->ops[1]);
        if (a.ok && b.ok && (a.nt == 0 || b.nt == 0)) {
            aform r = a.nt == 0 ? f_scale(b, a.c) : f_scale(a, b.c);
            if (r.ok)
                return r;
        }
        break;
    case SpvOpShiftLeftLogical:
        if (in->nops < 2 || !const_int(g, in->ops[1], &cv) || cv < 0 || cv > 40)
            break;
        a = f_scale(form(g, in->ops[0]), (int64_t)1 << cv);
        if (a.ok)
            return a;
        break;
    case SpvOpBitcast:
    case SpvOpUConvert:
    case SpvOpSConvert:
    case SpvOpCopyObject:
        if (in->nops >= 1 && spv_value_type(g->m, id) &&
            spv_value_type(g->m, id)->kind == SPV_T_INT)
            return form(g, in->ops[0]);
        break;
    case SpvOpLoad:
        if (in->nops >= 1 && in->ops[0] < g->bound) {
            uint32_t vi = g->c->var_of_id[in->ops[0]];
            if (vi != EV_NONE && g->single[vi] != EV_NONE)
                return form(g, g->single[vi]); /* stored once: its value */
        }
        break;
    default:
        break;
    }
    return f_term(leaf(g, id));
}

static aform form(mg *g, uint32_t id)
{
    if (id >= g->bound)
        return f_term(id);
    if (g->fstate[id] == 2)
        return g->f[id];
    if (g->fstate[id] == 1)
        return f_term(id);
    g->fstate[id] = 1;
    g->depth++;
    aform f = form_of(g, id);
    g->depth--;
    g->f[id] = f;
    g->fstate[id] = 2;
    return f;
}

/* ---- known trailing zero bits ---- */

static int tz(mg *g, uint32_t id);

static int tz_leaf(mg *g, uint32_t id)
{
    const spv_inst *in = def(g, id);
    int64_t cv;
    if (const_int(g, id, &cv))
        return ctz64((uint64_t)cv);
    if (!in || g->depth > MG_DEPTH)
        return 0;
    int a, b, r = 0;
    g->depth++;
    switch (in->opcode) {
    case SpvOpIMul:
        if (in->nops >= 2)
            r = tz(g, in->ops[0]) + tz(g, in->ops[1]);
        break;
    case SpvOpShiftLeftLogical:
        if (in->nops >= 2 && const_int(g, in->ops[1], &cv) && cv >= 0 && cv < 64)
            r = tz(g, in->ops[0]) + (int)cv;
        break;
    case SpvOpBitwiseAnd:
        if (in->nops >= 2) {
            a = tz(g, in->ops[0]);
            b = tz(g, in->ops[1]);
            r = a > b ? a : b;
        }
        break;
    case SpvOpBitwiseOr:
    case SpvOpBitwiseXor:
        if (in->nops >= 2) {
            a = tz(g, in->ops[0]);
            b = tz(g, in->ops[1]);
            r = a < b ? a : b;
        }
        break;
    case SpvOpSelect:
        if (in->nops >= 3) {
            a = tz(g, in->ops[1]);
            b = tz(g, in->ops[2]);
            r = a < b ? a : b;
        }
        break;
    case SpvOpLoad:
        if (in->nops >= 1 && in->ops[0] < g->bound) {
            uint32_t vi = g->c->var_of_id[in->ops[0]];
            if (vi != EV_NONE)
                r = g->tzvar[vi];
        }
        break;
    default:
        break;
    }
    g->depth--;
    return r > 64 ? 64 : r;
}

static int tz_form(mg *g, const aform *f)
{
    int r = ctz64((uint64_t)f->c);
    for (uint32_t i = 0; i < f->nt; i++) {
        int t = tz_leaf(g, f->t[i]) + ctz64((uint64_t)f->k[i]);
        if (t < r)
            r = t;
    }
    return r;
}

static int tz(mg *g, uint32_t id)
{
    if (id >= g->bound)
        return 0;
    if (g->tzmemo[id] != 255)
        return g->tzmemo[id];
    g->tzmemo[id] = 0; /* a cycle: nothing known */
    aform f = form(g, id);
    int r = f.ok ? tz_form(g, &f) : tz_leaf(g, id);
    g->tzmemo[id] = (uint8_t)(r > 64 ? 64 : r);
    return g->tzmemo[id];
}

/* Function and private variables: the value of a variable stored exactly
 * once as a whole (never through an access chain, never passed to a
 * call), and the trailing zeros every value stored in each (a fixpoint
 * from "all known" down: values only lose bits). */
static void setup_vars(mg *g)
{
    ev_info *I = &g->c->info;
    uint32_t *stores = xcalloc(I->nvars + 1, sizeof *stores);
    for (size_t v = 0; v < I->nvars; v++) {
        g->single[v] = EV_NONE;
        g->tzvar[v] = 64;
    }
    for (size_t i = 0; i < g->m->ninsts; i++) {
        const spv_inst *in = &g->m->insts[i];
        if (in->opcode == SpvOpStore && in->nops >= 2) {
            uint32_t vi = ev_root_var(g->c, in->ops[0]);
            if (vi == EV_NONE)
                continue;
            int whole = in->ops[0] < g->bound && g->c->var_of_id[in->ops[0]] == vi;
            stores[vi] += whole ? 1 : 2;
            g->single[vi] = stores[vi] == 1 ? in->ops[1] : EV_NONE;
            if (!whole)
                g->tzvar[vi] = 0;
        } else if (in->opcode == SpvOpFunctionCall) {
            for (uint32_t k = 1; k < in->nops; k++) {
                uint32_t vi = ev_root_var(g->c, in->ops[k]);
                if (vi != EV_NONE) {
                    stores[vi] += 2;
                    g->single[vi] = EV_NONE;
                    g->tzvar[vi] = 0;
                }
            }
        }
    }
    for (size_t v = 0; v < I->nvars; v++)
        if (I->vars[v].cls != EVM_FUNCTION && I->vars[v].cls != EVM_PRIVATE) {
            g->single[v] = EV_NONE;
            g->tzvar[v] = 0;
        }
    free(stores);
    int changed = 1;
    for (int pass = 0; pass < MG_TZ_PASSES && changed; pass++) {
        changed = 0;
        memset(g->tzmemo, 255, g->bound);
        for (size_t i = 0; i < g->m->ninsts; i++) {
            const spv_inst *in = &g->m->insts[i];
            if (in->opcode != SpvOpStore || in->nops < 2 || in->ops[0] >= g->bound)
                continue;
            uint32_t vi = g->c->var_of_id[in->ops[0]];
            if (vi == EV_NONE || !g->tzvar[vi])
                continue;
            int t = tz(g, in->ops[1]);
            if (t < g->tzvar[vi]) {
                g->tzvar[vi] = (uint8_t)t;
                changed = 1;
            }
        }
    }
    if (changed)
        memset(g->tzvar, 0, I->nvars + 1);
    memset(g->tzmemo, 255, g->bound);
}

/* ---- addresses ---- */

/* The byte address of pointer ptr as variable *vi plus an affine form;
 * 0 when it is not an access chain the form can follow. */
static int address(mg *g, uint32_t ptr, uint32_t *vi, aform *out, int depth)
{
    if (ptr >= g->bound || depth > 8)
        return 0;
    if (g->c->var_of_id[ptr] != EV_NONE) {
        *vi = g->c->var_of_id[ptr];
        *out = f_const(0);
        return 1;
    }
    const spv_inst *in = def(g, ptr);
    if (!in || (in->opcode != SpvOpAccessChain &&
                in->opcode != SpvOpInBoundsAccessChain) || in->nops < 1)
        return 0;
    if (!address(g, in->ops[0], vi, out, depth + 1))
        return 0;
    const spv_type *pt = spv_value_type(g->m, in->ops[0]);
    if (!pt || pt->kind != SPV_T_POINTER)
        return 0;
    const ev_var *v = &g->c->info.vars[*vi];
    int layout = v->cls == EVM_STORAGE || v->cls == EVM_UNIFORM || v->cls == EVM_PUSH;
    const ev_type *vt = ev_tinfo(g->c, v->pointee);
    int64_t sc = vt->width ? (vt->width + 7) / 8 : 4; /* workgroup: bytes a component */
    uint32_t t = pt->elem;
    for (uint32_t k = 1; k < in->nops; k++) {
        const spv_type *st = spv_type_of(g->m, t);
        if (!st)
            return 0;
        aform ix = form(g, in->ops[k]);
        int64_t stride;
        if (st->kind == SPV_T_STRUCT) {
            if (!ix.ok || ix.nt || ix.c < 0 || (uint64_t)ix.c >= st->nmembers)
                return 0;
            uint32_t mi = (uint32_t)ix.c;
            int64_t off = layout ? st->members[mi].offset
                                 : (int64_t)ev_flat_member_offset(g->c, st, mi);
            if (!layout && off == (int64_t)EV_NONE)
                return 0;
            *out = f_add(*out, f_const(layout ? off : off * sc), 1);
            t = st->members[mi].type;
            continue;
        }
        if (st->kind == SPV_T_ARRAY || st->kind == SPV_T_RUNTIME_ARRAY) {
            if (layout) {
                uint64_t es = st->array_stride;
                if (!es && spv_type_size(g->m, st->elem, &es))
                    return 0;
                stride = (int64_t)es;
            } else {
                uint32_t f = ev_tinfo(g->c, st->elem)->flat;
                if (f == EV_NONE)
                    return 0;
                stride = (int64_t)f * sc;
            }
        } else if (st->kind == SPV_T_VECTOR) {
            stride = layout ? ev_scalar_bytes(g->c, st->elem) : sc;
        } else {
            return 0;
        }
        *out = f_add(*out, ix, stride);
        if (!out->ok)
            return 0;
        t = st->elem;
    }
    return 1;
}

/* ---- runs and pieces ---- */

/* A piece (or a run the compiler leaves unmerged) found at source line. */
static void count_piece(ev_merge *out, int is_run, int line)
{
    if (is_run && !out->runs++)
        out->first_run_line = line;
    if (!is_run && !out->pieces++)
        out->first_line = line;
}

/* The members a compiler piece starting at member j of run r takes
 * (a power of two of bytes up to the variable's width, aligned), or 1. */
static uint32_t piece_at(const mg *g, const run *r, uint32_t j, int al)
{
    uint32_t size = r->e[0].size;
    for (uint32_t w = width_of(g, r->var); w >= 2 * size; w /= 2) {
        uint32_t m = w / size;
        int64_t c = r->e[j].a.c;
        if (j + m <= r->n && m <= EV_MERGE_MAX_MEMBERS && al >= ctz64(w) &&
            ((c % (int64_t)w) + (int64_t)w) % (int64_t)w == 0)
            return m;
    }
    return 1;
}

static int aligned_piece(const mg *g, const run *r, uint32_t j, int al)
{
    return piece_at(g, r, j, al) >= 2;
}

/* Workgroup loads the compiler widens: from member j of run r, the
 * members inside the aligned window of the variable's width that holds
 * member j (the window's own start provably aligned: al bits), loaded as
 * that whole window (reading bytes nobody asked for costs nothing in
 * workgroup memory; H200 run 8 mg_sh_s4u, words 4x+1..4x+4: two 128-bit
 * loads' time).  Returns the members (1: none) and the bytes before
 * member j in the window. */
static uint32_t widened_at(const mg *g, const run *r, uint32_t j, int al,
                           uint32_t *pad)
{
    uint32_t w = width_of(g, r->var), size = r->e[0].size;
    if (r->store || g->c->info.vars[r->var].cls != EVM_SHARED || w < 2 * size ||
        al < ctz64(w))
        return 1;
    int64_t c = r->e[j].a.c, base = c - ((c % (int64_t)w) + (int64_t)w) % (int64_t)w;
    uint32_t k = 1;
    while (k < EV_MERGE_MAX_MEMBERS && j + k < r->n &&
           r->e[j + k].a.c + (int64_t)size <= base + (int64_t)w)
        k++;
    *pad = (uint32_t)(c - base);
    return k;
}

static void close_run(mg *g, run *r, ev_merge *out)
{
    if (!r->open)
        return;
    r->open = 0;
    if (r->n < 2)
        return;
    uint32_t size = r->e[0].size;
    /* the terms' alignment: the form without its constant (the
     * variable's start aligned to the widest merge: 64 when there are none) */
    aform terms = r->e[0].a;
    terms.c = 0;
    int al = tz_form(g, &terms);
    for (uint32_t j = 0; j < r->n;) {
        uint32_t take = piece_at(g, r, j, al), pad = 0;
        int is_run = 0;
        if (take < 2)
            take = widened_at(g, r, j, al, &pad);
        if (take < 2 && g->c->info.vars[r->var].cls == EVM_STORAGE) {
            /* not merged: the rest of the run back to back, unaligned */
            uint32_t k = 1;
            while (k < EV_MERGE_MAX_MEMBERS && j + k < r->n &&
                   !(width_of(g, r->var) >= 2 * size && aligned_piece(g, r, j + k, al)))
                k++;
            take = k;
            is_run = 1;
        }
        if (take >= 2) {
            uint32_t lead = r->e[j].inst;
            out->run[lead] = (uint8_t)is_run;
            for (uint32_t q = 0; q < take; q++) {
                out->lead[r->e[j + q].inst] = lead;
                out->pos[r->e[j + q].inst] = (uint8_t)q;
            }
            out->members[lead] = (uint8_t)take;
            /* a widened load takes its whole window */
            out->bytes[lead] = pad ? width_of(g, r->var) : take * size;
            out->pad[lead] = (uint8_t)pad;
            count_piece(out, is_run, g->m->insts[lead].line);
        }
        j += take;
    }
}

static int same_terms(const aform *a, const aform *b)
{
    if (a->nt != b->nt)
        return 0;
    for (uint32_t i = 0; i < a->nt; i++)
        if (a->t[i] != b->t[i] || a->k[i] != b->k[i])
            return 0;
    return 1;
}

static void close_all(mg *g, run *runs, int store, int load, ev_merge *out)
{
    for (int i = 0; i < MG_OPEN; i++)
        if (runs[i].open && ((runs[i].store && store) || (!runs[i].store && load)))
            close_run(g, &runs[i], out);
}

static int blocks_all(uint32_t op)
{
    return op == SpvOpControlBarrier || op == SpvOpMemoryBarrier ||
           op == SpvOpFunctionCall || op == SpvOpCopyMemory ||
           op == SpvOpCopyMemorySized || op == SpvOpImageWrite ||
           (op >= SpvOpAtomicLoad && op <= SpvOpAtomicXor) ||
           op == SpvOpAtomicFlagTestAndSet || op == SpvOpAtomicFlagClear ||
           op == SpvOpAtomicFMinEXT || op == SpvOpAtomicFMaxEXT ||
           op == SpvOpAtomicFAddEXT;
}

/* One memory access of a buffer or workgroup variable in a block. */
static void add_access(mg *g, run *runs, uint32_t i, int store, ev_merge *out)
{
    const spv_inst *in = &g->m->insts[i];
    uint32_t a = g->c->acc_of_inst[i];
    member e = {i, g->c->info.acc[a].bytes, {0}};
    uint32_t vi = EV_NONE;
    int ok = address(g, in->ops[0], &vi, &e.a, 0) && e.a.ok &&
             (e.size == 4 || e.size == 8) && !g->c->info.acc[a].is_atomic;
    if (vi == EV_NONE || (g->c->info.vars[vi].cls != EVM_STORAGE &&
                          g->c->info.vars[vi].cls != EVM_SHARED))
        return; /* uniform and push-constant reads: not simulated */
    int shared = g->c->info.vars[vi].cls == EVM_SHARED;
    /* an access ends the runs it may alias that it cannot be moved across:
     * a store every load run, and a load or store every store run, of its
     * variable or (buffers may alias each other) of any buffer; the store
     * run it continues is its own variable's, checked below */
    for (int r = 0; r < MG_OPEN; r++) {
        run *R = &runs[r];
        if (!R->open)
            continue;
        int same_var = R->var == vi;
        int may_alias = same_var || (!shared && g->c->info.vars[R->var].cls != EVM_SHARED);
        if (may_alias && (R->store || store) && !(store && R->store && same_var))
            close_run(g, R, out);
    }
    if (!ok)
        return;
    run *free_run = NULL;
    for (int r = 0; r < MG_OPEN; r++) {
        run *R = &runs[r];
        if (!R->open) {
            if (!free_run)
                free_run = R;
            continue;
        }
        if (R->var != vi || R->store != store)
            continue;
        member *last = &R->e[R->n - 1];
        if (R->n < MG_CHAIN && last->size == e.size && same_terms(&last->a, &e.a) &&
            e.a.c == last->a.c + (int64_t)last->size) {
            R->e[R->n++] = e;
            return;
        }
        close_run(g, R, out);
        free_run = R;
        break;
    }
    if (!free_run) {
        close_run(g, &runs[0], out);
        free_run = &runs[0];
    }
    free_run->open = 1;
    free_run->store = store;
    free_run->var = vi;
    free_run->n = 1;
    free_run->e[0] = e;
}

static void scan_block(mg *g, const spv_block *b, ev_merge *out)
{
    run runs[MG_OPEN];
    memset(runs, 0, sizeof runs);
    for (uint32_t i = b->first; i <= b->last && i < g->m->ninsts; i++) {
        const spv_inst *in = &g->m->insts[i];
        if (blocks_all(in->opcode)) {
            close_all(g, runs, 1, 1, out);
            continue;
        }
        if ((in->opcode != SpvOpLoad && in->opcode != SpvOpStore) || in->nops < 1)
            continue;
        if (g->c->acc_of_inst[i] == EV_NONE)
            continue; /* function, private, input, push-constant memory */
        add_access(g, runs, i, in->opcode == SpvOpStore, out);
    }
    close_all(g, runs, 1, 1, out);
}

/* ---- accesses repeated by a loop the compiler unrolls ---- */

static int stored_in_loop(const mg *g, uint32_t vi)
{
    if (g->nloop_vars < 0)
        return 1;
    for (int i = 0; i < g->nloop_vars; i++)
        if (g->loop_vars[i] == vi)
            return 1;
    return 0;
}

/* Is value id the same in every trip of the loop with header h (whose
 * blocks are those with loop_header h: it has no inner loop)?  Memoised
 * in g->inv for the loop being planned. */
static int invariant_in(mg *g, uint32_t id, uint32_t h, int depth)
{
    int64_t cv;
    if (const_int(g, id, &cv))
        return 1;
    const spv_inst *in = def(g, id);
    if (!in || depth > MG_DEPTH || id >= g->bound)
        return 0;
    if (in->block == SPV_NONE || g->m->blocks[in->block].loop_header != h)
        return 1; /* defined outside the loop: fixed while it runs */
    if (g->inv[id])
        return g->inv[id] == 1;
    int r = 1;
    if (in->opcode == SpvOpLoad && in->nops >= 1) {
        uint32_t vi = ev_root_var(g->c, in->ops[0]);
        int cls = vi == EV_NONE ? EVM_OTHER : g->c->info.vars[vi].cls;
        if (cls == EVM_FUNCTION || cls == EVM_PRIVATE)
            r = !stored_in_loop(g, vi) && invariant_in(g, in->ops[0], h, depth + 1);
        else
            r = cls == EVM_INPUT || cls == EVM_PUSH || cls == EVM_UNIFORM;
    } else if (in->opcode != SpvOpVariable) {
        r = pure_op(in->opcode);
        for (uint32_t k = 0; k < in->nops && r; k++)
            r = invariant_in(g, in->ops[k], h, depth + 1);
    }
    g->inv[id] = r ? 1 : 2;
    return r;
}

/* The one buffer or workgroup access of the loop with header h, when the
 * loop holds nothing else that stops its trips' copies from merging (no
 * inner loop, barrier, call or atomic); EV_MERGE_NONE otherwise.  Lists
 * the variables the loop stores into (g->loop_vars). */
static uint32_t loop_candidate(mg *g, uint32_t h)
{
    const spv_module *m = g->m;
    const spv_function *fn = &m->funcs[m->blocks[h].func];
    uint32_t found = EV_MERGE_NONE;
    g->nloop_vars = 0;
    for (uint32_t b = fn->first_block; b < fn->first_block + fn->nblocks; b++) {
        const spv_block *bb = &m->blocks[b];
        uint32_t up = bb->idom;
        if (b != h && bb->merge == SPV_MERGE_LOOP && up != SPV_NONE &&
            m->blocks[up].loop_header == h)
            return EV_MERGE_NONE; /* an inner loop */
        if (bb->loop_header != h)
            continue;
        for (uint32_t i = bb->first; i <= bb->last && i < m->ninsts; i++) {
            const spv_inst *in = &m->insts[i];
            if (blocks_all(in->opcode))
                return EV_MERGE_NONE;
            uint32_t vi = (in->opcode == SpvOpLoad || in->opcode == SpvOpStore) && in->nops
                              ? ev_root_var(g->c, in->ops[0])
                              : EV_NONE;
            if (vi == EV_NONE)
                continue;
            int cls = g->c->info.vars[vi].cls;
            if (in->opcode == SpvOpStore) {
                if (g->nloop_vars >= 0 && g->nloop_vars < MG_LOOP_VARS)
                    g->loop_vars[g->nloop_vars++] = vi;
                else
                    g->nloop_vars = -1;
            }
            if (cls != EVM_STORAGE && cls != EVM_SHARED)
                continue;
            if (found != EV_MERGE_NONE || g->c->acc_of_inst[i] == EV_NONE)
                return EV_MERGE_NONE;
            found = i;
        }
    }
    return found;
}

/* Access inst, alone in the loop with header h, a loop of a constant
 * trip count the compiler fully unrolls (at most unroll_trips, step 1):
 * its address the induction times its size plus terms the same in every
 * trip, so that the copies of consecutive trips are adjacent.  Cut into
 * equal aligned pieces (the trips a multiple of the piece) it is one of
 * its own. */
static int dominates(const spv_module *m, uint32_t a, uint32_t b)
{
    for (int n = 0; b != SPV_NONE && n < 100000; n++, b = m->blocks[b].idom)
        if (a == b)
            return 1;
    return 0;
}

static void loop_access(mg *g, uint32_t inst, uint32_t h, uint32_t unroll_trips,
                        ev_merge *out)
{
    const spv_inst *in = &g->m->insts[inst];
    uint32_t cont = g->m->blocks[h].continue_block;
    if (cont == SPV_NONE || !dominates(g->m, in->block, cont))
        return; /* not in every trip */
    uint32_t a = g->c->acc_of_inst[inst];
    uint32_t size = g->c->info.acc[a].bytes, vi = EV_NONE;
    ev_induction ind;
    aform f;
    if ((size != 4 && size != 8) || g->c->info.acc[a].is_atomic || in->nops < 1 ||
        ev_loop_induction(g->c, h, &ind) != 0 || ind.var == EV_NONE ||
        ind.step != 1 || ind.trips < 2 || ind.trips > unroll_trips ||
        !address(g, in->ops[0], &vi, &f, 0) || !f.ok || vi == EV_NONE)
        return;
    memset(g->inv, 0, g->bound + 1);
    aform rest = f;
    rest.c = 0;
    int found = 0;
    for (uint32_t t = 0; t < f.nt; t++) {
        const spv_inst *d = def(g, f.t[t]);
        int is_iv = d && d->opcode == SpvOpLoad && d->nops >= 1 &&
                    d->ops[0] < g->bound && g->c->var_of_id[d->ops[0]] == ind.var;
        if (is_iv) {
            if (f.k[t] != (int64_t)size || found)
                return;
            found = 1;
            rest = f_add(rest, f_term(f.t[t]), -f.k[t]);
        } else if (!invariant_in(g, f.t[t], h, 0)) {
            return;
        }
    }
    if (!found || !rest.ok)
        return;
    int al = tz_form(g, &rest);
    int storage = g->c->info.vars[vi].cls == EVM_STORAGE;
    for (uint32_t w = width_of(g, vi) >= 2 * size || !storage ? width_of(g, vi)
                                                                : EV_MERGE_MAX_MEMBERS * size;
         w >= 2 * size; w /= 2) {
        uint32_t m = w / size;
        int64_t c0 = f.c + ind.start * (int64_t)size;
        int is_run = width_of(g, vi) < w; /* not merged: trips back to back */
        if (m > EV_MERGE_MAX_MEMBERS || ind.trips % m ||
            (!is_run && (al < ctz64(w) || ((c0 % (int64_t)w) + (int64_t)w) % (int64_t)w)))
            continue;
        out->run[inst] = (uint8_t)is_run;
        out->lead[inst] = inst;
        out->pos[inst] = 0;
        out->members[inst] = (uint8_t)m;
        out->bytes[inst] = w;
        out->loop[inst] = 1;
        count_piece(out, is_run, in->line);
        return;
    }
}

int ev_merge_plan(ev_ctx *c, uint32_t buffer_bytes, uint32_t shared_bytes,
                  uint32_t unroll_trips, ev_merge *out)
{
    memset(out, 0, sizeof *out);
    const spv_module *m = c->m;
    out->ninst = (uint32_t)m->ninsts;
    out->lead = xmalloc((m->ninsts + 1) * sizeof *out->lead);
    out->pos = xcalloc(m->ninsts + 1, 1);
    out->members = xcalloc(m->ninsts + 1, 1);
    out->bytes = xcalloc(m->ninsts + 1, sizeof *out->bytes);
    out->loop = xcalloc(m->ninsts + 1, 1);
    out->run = xcalloc(m->ninsts + 1, 1);
    out->pad = xcalloc(m->ninsts + 1, 1);
    memset(out->lead, 0xff, (m->ninsts + 1) * sizeof *out->lead);
    if ((buffer_bytes < 8 && shared_bytes < 8) || c->bound > MG_MAX_BOUND)
        return 0; /* the compiler's merging unknown: nothing planned */
    mg g;
    memset(&g, 0, sizeof g);
    g.c = c;
    g.m = m;
    g.bound = c->bound;
    g.buffer_bytes = buffer_bytes;
    g.shared_bytes = shared_bytes;
    g.rep = xcalloc(g.bound + 1, sizeof *g.rep);
    g.fstate = xcalloc(g.bound + 1, 1);
    g.f = xcalloc(g.bound + 1, sizeof *g.f);
    g.tzmemo = xmalloc(g.bound + 1);
    g.single = xmalloc((c->info.nvars + 1) * sizeof *g.single);
    g.tzvar = xcalloc(c->info.nvars + 1, 1);
    g.ver = xcalloc(m->ninsts + 1, sizeof *g.ver);
    g.inv = xcalloc(g.bound + 1, 1);
    g.cap = 64;
    while (g.cap < 2 * (m->ninsts + 64))
        g.cap *= 2;
    g.tab = xcalloc(g.cap, sizeof *g.tab);
    setup_vars(&g);
    setup_versions(&g);
    for (size_t b = 0; b < m->nblocks; b++)
        if (m->blocks[b].reachable)
            scan_block(&g, &m->blocks[b], out);
    for (size_t h = 0; unroll_trips >= 2 && h < m->nblocks; h++) {
        if (!m->blocks[h].reachable || m->blocks[h].merge != SPV_MERGE_LOOP)
            continue;
        uint32_t i = loop_candidate(&g, (uint32_t)h);
        if (i != EV_MERGE_NONE && out->lead[i] == EV_MERGE_NONE)
            loop_access(&g, i, (uint32_t)h, unroll_trips, out);
    }
    free(g.rep);
    free(g.fstate);
    free(g.f);
    free(g.tzmemo);
    free(g.single);
    free(g.tzvar);
    free(g.ver);
    free(g.inv);
    free(g.tab);
    return 0;
}

void ev_merge_free(ev_merge *e)
{
    if (!e)
        return;
    free(e->lead);
    free(e->pos);
    free(e->members);
    free(e->bytes);
    free(e->loop);
    free(e->run);
    free(e->pad);
    memset(e, 0, sizeof *e);
}
