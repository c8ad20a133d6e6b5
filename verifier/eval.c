/* eval.c - the evaluator's interpreter: executes one workgroup of the
 * plan's dispatch, every invocation together, in lock-step between
 * barriers.  See eval.h for the contract and eval_int.h for the pieces.
 *
 * Scheduling: each invocation (lane) has its own block and instruction
 * position.  The runnable lanes that sit at the earliest block in a
 * structured order (a depth-first order that puts a construct's merge block
 * after all of its body) run one block together; so lanes reconverge at
 * merge blocks and a loop's lanes iterate together until the last leaves.
 * A lane stops at a barrier; when no lane can run, the barrier completes if
 * every invocation of the group waits at that same barrier, otherwise that
 * is a barrier-divergence record.
 */
#include "eval_int.h"
#include "half.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/GLSL.std.450.h>
#include <spirv/unified1/spirv.h>

enum { LS_RUN = 0, LS_BAR, LS_RET, LS_DEAD };

struct ev_ctx {
    ev_info info;             /* first: ev_ctx_info returns it */
    const spv_module *m;
    eval_options opt;
    uint32_t bound;
    ev_type *types;           /* per id */
    uint8_t *tstate;          /* 0 todo, 1 busy, 2 done */
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
    uint32_t *lane_real;      /* executed lane -> local invocation index */
    uint16_t *run_lanes;      /* lanes executed per workgroup */
    uint32_t nrun;
    int sampled;              /* run_lanes is a sample of the group */
    int64_t *pc_off;          /* per instruction: push offset + 1 cached */
    ev_val *pc_val;           /* per instruction: 4 decoded components */
    struct ev_trk **trk;      /* per block (loop headers) */
    struct ev_trk *armed[16];
    int narmed;
};

typedef struct ev_trk ev_trk;
static void setup_ctrl(ev_ctx *c);
static void setup_affine(ev_ctx *c);
static void trk_mem(ev_ctx *c, uint32_t inst, uint32_t lane, uint32_t vi,
                    int64_t lo, int64_t hi, int store, int atomic);
static void trk_branch(ev_ctx *c, uint32_t inst, uint32_t lane, uint32_t cond);
static void trk_bad(ev_ctx *c, uint32_t inst);
static void trk_arrive(ev_ctx *c, uint32_t b, const uint16_t *lanes, int n);
static void trk_group_start(ev_ctx *c);
static void trk_free(ev_trk *t);

/* ------------------------------------------------------------------ */
/* small helpers                                                        */

static void *xcalloc(size_t n, size_t s)
{
    void *p = calloc(n ? n : 1, s ? s : 1);
    if (!p) {
        fprintf(stderr, "clockwork: out of memory\n");
        abort();
    }
    return p;
}

static uint64_t wmask(unsigned w)
{
    return w >= 64 ? ~0ull : ((1ull << w) - 1);
}

static int64_t sext(uint64_t v, unsigned w)
{
    if (w >= 64)
        return (int64_t)v;
    uint64_t sign = 1ull << (w - 1);
    v &= wmask(w);
    return (int64_t)((v ^ sign) - sign);
}

static int known(const ev_val *v) { return v->lo == v->hi; }

static ev_val kv(uint64_t x) { ev_val v = {x, x}; return v; }

static ev_val unk_of(const ev_type *t)
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

int ev_inst_line(const spv_module *m, uint32_t inst)
{
    if (inst >= m->ninsts)
        return 0;
    return m->insts[inst].line;
}

ev_info *ev_ctx_info(ev_ctx *c) { return &c->info; }

double ev_steps_left(const ev_ctx *c)
{
    return c->opt.step_budget - c->steps_total;
}

void ev_note(ev_ctx *c, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    c->info.estimated = 1;
    for (size_t i = 0; i < c->info.nnotes; i++)
        if (strcmp(c->info.notes[i], buf) == 0)
            return;
    if (c->info.nnotes >= 64)
        return;
    c->info.notes = realloc(c->info.notes,
                            (c->info.nnotes + 1) * sizeof *c->info.notes);
    if (!c->info.notes)
        abort();
    c->info.notes[c->info.nnotes++] = cw_strdup(buf);
}

void eval_default_options(eval_options *o)
{
    o->step_budget = 6e6;
    o->unknown_loop_iterations = 64;
    o->max_groups = 96;
    o->all_groups_below = 16;
}

/* ---- half floats ---- */

static double getf(uint64_t bits, unsigned w)
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

static uint64_t putf(double d, unsigned w)
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

/* ------------------------------------------------------------------ */
/* types                                                                */

static const ev_type *tinfo(ev_ctx *c, uint32_t tid);

static uint32_t flat_mul(uint32_t a, uint64_t n)
{
    if (a == EV_NONE || n == 0)
        return EV_NONE;
    uint64_t r = (uint64_t)a * n;
    return r > EV_MAX_FLAT ? EV_NONE : (uint32_t)r;
}

static const ev_type *tinfo(ev_ctx *c, uint32_t tid)
{
    static const ev_type none = {EV_NONE, EVK_OTHER, 0, 0, 0};
    if (tid == 0 || tid >= c->bound)
        return &none;
    ev_type *t = &c->types[tid];
    if (c->tstate[tid] == 2)
        return t;
    if (c->tstate[tid] == 1)
        return &none; /* a cycle: not representable */
    c->tstate[tid] = 1;
    const spv_type *st = spv_type_of(c->m, tid);
    t->flat = EV_NONE;
    t->kind = EVK_OTHER;
    if (st) {
        switch (st->kind) {
        case SPV_T_BOOL:
            t->flat = 1; t->kind = EVK_BOOL; t->width = 1; t->is_vec = 1;
            break;
        case SPV_T_INT:
            t->flat = 1; t->kind = EVK_INT;
            t->width = (uint8_t)(st->width > 64 ? 64 : st->width);
            t->sign = (uint8_t)st->is_signed; t->is_vec = 1;
            break;
        case SPV_T_FLOAT:
            t->flat = 1; t->kind = EVK_FLOAT;
            t->width = (uint8_t)(st->width > 64 ? 64 : st->width);
            t->is_vec = 1;
            break;
        case SPV_T_VECTOR: {
            const ev_type *e = tinfo(c, st->elem);
            t->flat = flat_mul(e->flat, st->count);
            t->kind = e->kind; t->width = e->width; t->sign = e->sign;
            t->is_vec = e->is_vec && e->flat == 1;
            break;
        }
        case SPV_T_MATRIX: {
            const ev_type *e = tinfo(c, st->elem);
            t->flat = flat_mul(e->flat, st->count);
            t->kind = e->kind; t->width = e->width;
            break;
        }
        case SPV_T_ARRAY: {
            const ev_type *e = tinfo(c, st->elem);
            t->flat = flat_mul(e->flat, st->length);
            t->kind = e->kind; t->width = e->width; t->sign = e->sign;
            break;
        }
        case SPV_T_STRUCT: {
            uint64_t n = 0;
            for (uint32_t i = 0; i < st->nmembers; i++) {
                const ev_type *e = tinfo(c, st->members[i].type);
                if (e->flat == EV_NONE) { n = EV_NONE; break; }
                n += e->flat;
                if (n > EV_MAX_FLAT) { n = EV_NONE; break; }
            }
            t->flat = (uint32_t)n;
            break;
        }
        case SPV_T_POINTER:
            t->flat = 2; t->kind = EVK_PTR;
            break;
        default:
            break;
        }
    }
    c->tstate[tid] = 2;
    return t;
}

/* Component offset of member / element idx inside type tid. */
static uint32_t flat_member_offset(ev_ctx *c, const spv_type *st, uint32_t idx)
{
    uint32_t off = 0;
    for (uint32_t i = 0; i < idx && i < st->nmembers; i++) {
        const ev_type *e = tinfo(c, st->members[i].type);
        if (e->flat == EV_NONE)
            return EV_NONE;
        off += e->flat;
    }
    return off;
}

static uint32_t scalar_bytes_of(ev_ctx *c, uint32_t tid)
{
    const ev_type *t = tinfo(c, tid);
    if (t->kind == EVK_BOOL)
        return 4;
    return t->width ? (uint32_t)(t->width + 7) / 8 : 4;
}

const char *ev_type_name(const spv_module *m, uint32_t tid)
{
    static char buf[8][32];
    static int slot;
    const spv_type *t = spv_type_of(m, tid);
    char *b = buf[slot++ & 7];
    if (!t)
        return "element";
    switch (t->kind) {
    case SPV_T_FLOAT:
        return t->width == 64 ? "double" : t->width == 16 ? "float16_t" : "float";
    case SPV_T_INT:
        if (t->width == 32)
            return t->is_signed ? "int" : "uint";
        snprintf(b, 32, "%sint%u_t", t->is_signed ? "" : "u", t->width);
        return b;
    case SPV_T_BOOL:
        return "bool";
    case SPV_T_VECTOR: {
        const spv_type *e = spv_type_of(m, t->elem);
        const char *p = "";
        if (e && e->kind == SPV_T_INT)
            p = e->is_signed ? "i" : "u";
        else if (e && e->kind == SPV_T_FLOAT && e->width == 64)
            p = "d";
        else if (e && e->kind == SPV_T_BOOL)
            p = "b";
        snprintf(b, 32, "%svec%u", p, t->count);
        return b;
    }
    case SPV_T_STRUCT:
        return "struct";
    default:
        return "element";
    }
}

/* ------------------------------------------------------------------ */
/* preparation                                                          */

static void cpool_reserve(ev_ctx *c, size_t n)
{
    if (c->ncpool + n <= c->capcpool)
        return;
    size_t cap = c->capcpool ? c->capcpool * 2 : 1024;
    while (cap < c->ncpool + n)
        cap *= 2;
    c->cpool = realloc(c->cpool, cap * sizeof *c->cpool);
    if (!c->cpool)
        abort();
    c->capcpool = cap;
}

/* Writes the flattened value of constant id into out[0..n). */
static void const_flat(ev_ctx *c, uint32_t id, ev_val *out, uint32_t n,
                       int depth)
{
    const spv_const *k = spv_const_of(c->m, id);
    const ev_type *t = tinfo(c, k ? k->type : 0);
    for (uint32_t i = 0; i < n; i++)
        out[i] = unk_of(t->flat == n ? t : NULL);
    if (!k || depth > 64)
        return;
    switch (k->kind) {
    case SPV_C_SCALAR:
        if (k->known && n >= 1)
            out[0] = kv(k->bits & wmask(t->width ? t->width : 64));
        break;
    case SPV_C_NULL:
        for (uint32_t i = 0; i < n; i++)
            out[i] = kv(0);
        break;
    case SPV_C_COMPOSITE: {
        uint32_t pos = 0;
        for (uint32_t i = 0; i < k->nparts && pos < n; i++) {
            const spv_const *pk = spv_const_of(c->m, k->parts[i]);
            const ev_type *pt = tinfo(c, pk ? pk->type : 0);
            if (pt->flat == EV_NONE || pos + pt->flat > n)
                return;
            const_flat(c, k->parts[i], out + pos, pt->flat, depth + 1);
            pos += pt->flat;
        }
        break;
    }
    default:
        break;
    }
}

static int var_class(const spv_module *m, const spv_var *v)
{
    switch (v->storage) {
    case SpvStorageClassFunction: return EVM_FUNCTION;
    case SpvStorageClassPrivate: return EVM_PRIVATE;
    case SpvStorageClassWorkgroup: return EVM_SHARED;
    case SpvStorageClassInput: return EVM_INPUT;
    case SpvStorageClassStorageBuffer: return EVM_STORAGE;
    case SpvStorageClassPushConstant: return EVM_PUSH;
    case SpvStorageClassUniform: {
        const spv_type *t = spv_type_of(m, v->pointee);
        return t && t->kind == SPV_T_STRUCT && t->buffer_block ? EVM_STORAGE
                                                                : EVM_UNIFORM;
    }
    default: return EVM_OTHER;
    }
}

/* The variable a pointer id is derived from, statically. */
static uint32_t root_var(ev_ctx *c, uint32_t id)
{
    for (int guard = 0; guard < 256; guard++) {
        if (id >= c->bound)
            return EV_NONE;
        if (c->var_of_id[id] != EV_NONE)
            return c->var_of_id[id];
        const spv_inst *in = spv_def(c->m, id);
        if (!in || in->nops < 1)
            return EV_NONE;
        switch (in->opcode) {
        case SpvOpAccessChain:
        case SpvOpInBoundsAccessChain:
        case SpvOpPtrAccessChain:
        case SpvOpCopyObject:
            id = in->ops[0];
            break;
        default:
            return EV_NONE;
        }
    }
    return EV_NONE;
}

static uint32_t ptr_storage(ev_ctx *c, uint32_t ptr_id)
{
    const spv_type *t = spv_value_type(c->m, ptr_id);
    return t && t->kind == SPV_T_POINTER ? t->storage : EV_NONE;
}

static void setup_vars(ev_ctx *c)
{
    const spv_module *m = c->m;
    ev_info *I = &c->info;
    I->vars = xcalloc(m->nvars, sizeof *I->vars);
    int nbuf = 0;
    for (size_t i = 0; i < m->nvars; i++) {
        const spv_var *sv = &m->vars[i];
        ev_var *v = &I->vars[I->nvars];
        v->id = sv->id;
        v->pointee = sv->pointee;
        v->storage = sv->storage;
        v->cls = var_class(m, sv);
        v->name = sv->name;
        v->builtin = sv->builtin;
        v->set = sv->set;
        v->binding = sv->binding;
        v->fp_slot = -1;
        const ev_type *pt = tinfo(c, sv->pointee);
        v->nflat = pt->flat;
        if (v->cls == EVM_STORAGE || v->cls == EVM_UNIFORM) {
            const spv_type *st = spv_type_of(m, sv->pointee);
            if (st && st->kind == SPV_T_STRUCT && st->nmembers > 0) {
                const spv_member *last = &st->members[st->nmembers - 1];
                const spv_type *lt = spv_type_of(m, last->type);
                if (lt && lt->kind == SPV_T_RUNTIME_ARRAY) {
                    v->rt_base = last->offset;
                    v->rt_elem = lt->elem;
                    v->rt_stride = lt->array_stride;
                    if (!v->rt_stride) {
                        uint64_t sz = 0;
                        if (spv_type_size(m, lt->elem, &sz) == 0 && sz < (1u << 30))
                            v->rt_stride = (uint32_t)sz;
                    }
                    v->fixed_bytes = last->offset;
                } else {
                    uint64_t sz = 0;
                    if (spv_type_size(m, sv->pointee, &sz) == 0)
                        v->fixed_bytes = sz;
                }
            } else {
                v->cls = EVM_OTHER; /* arrays of blocks: not modelled */
            }
            if (v->cls != EVM_OTHER) {
                const plan_buffer *b =
                    c->info.k ? plan_kernel_buffer(c->info.k, sv->set, sv->binding) : NULL;
                uint64_t bytes = 0;
                cw_error err;
                if (b && c->info.r &&
                    verifier_buffer_bytes(c->info.r, c->info.k, b, &bytes,
                                          &err) == 0) {
                    v->buf_known = 1;
                    v->buf_bytes = bytes;
                }
                v->fp_slot = 2 * nbuf++;
            }
        }
        if (sv->id < c->bound)
            c->var_of_id[sv->id] = (uint32_t)I->nvars;
        I->nvars++;
    }
    I->nfp = 2 * nbuf;
    /* storage for component-addressed memory */
    for (size_t i = 0; i < I->nvars; i++) {
        ev_var *v = &I->vars[i];
        if (v->nflat == EV_NONE || v->nflat == 0)
            continue;
        if (v->cls == EVM_FUNCTION || v->cls == EVM_PRIVATE)
            v->mem = xcalloc((size_t)v->nflat * c->exec_lanes, sizeof(ev_val));
        else if (v->cls == EVM_SHARED) {
            v->mem = xcalloc(v->nflat, sizeof(ev_val));
            v->shm = xcalloc(v->nflat, sizeof(ev_shm));
        }
    }
}

static int is_access_op(uint32_t op)
{
    switch (op) {
    case SpvOpLoad: case SpvOpStore: case SpvOpCopyMemory:
    case SpvOpAtomicLoad: case SpvOpAtomicStore: case SpvOpAtomicExchange:
    case SpvOpAtomicCompareExchange: case SpvOpAtomicIIncrement:
    case SpvOpAtomicIDecrement: case SpvOpAtomicIAdd: case SpvOpAtomicISub:
    case SpvOpAtomicSMin: case SpvOpAtomicUMin: case SpvOpAtomicSMax:
    case SpvOpAtomicUMax: case SpvOpAtomicAnd: case SpvOpAtomicOr:
    case SpvOpAtomicXor: case SpvOpAtomicFAddEXT:
        return 1;
    default:
        return 0;
    }
}

static int is_atomic_op(uint32_t op)
{
    return is_access_op(op) && op != SpvOpLoad && op != SpvOpStore &&
           op != SpvOpCopyMemory;
}

static void setup_accesses(ev_ctx *c)
{
    const spv_module *m = c->m;
    ev_info *I = &c->info;
    size_t cap = 0;
    for (size_t i = 0; i < m->ninsts; i++) {
        const spv_inst *in = &m->insts[i];
        c->acc_of_inst[i] = EV_NONE;
        if (in->func == SPV_NONE || !is_access_op(in->opcode) || in->nops < 1)
            continue;
        uint32_t ptr = in->ops[0];
        uint32_t vi = root_var(c, ptr);
        uint32_t sc = ptr_storage(c, ptr);
        int cls = vi != EV_NONE ? I->vars[vi].cls : -1;
        if (vi == EV_NONE) {
            if (sc == SpvStorageClassStorageBuffer || sc == SpvStorageClassWorkgroup)
                cls = sc == SpvStorageClassWorkgroup ? EVM_SHARED : EVM_STORAGE;
            else
                continue;
        }
        if (cls != EVM_STORAGE && cls != EVM_UNIFORM && cls != EVM_SHARED &&
            cls != EVM_PUSH)
            continue;
        if (I->nacc == cap) {
            cap = cap ? cap * 2 : 16;
            I->acc = realloc(I->acc, cap * sizeof *I->acc);
            if (!I->acc)
                abort();
        }
        ev_access_def *a = &I->acc[I->nacc];
        memset(a, 0, sizeof *a);
        a->inst = (uint32_t)i;
        a->var = vi;
        a->is_store = in->opcode == SpvOpStore || in->opcode == SpvOpAtomicStore;
        a->is_atomic = is_atomic_op(in->opcode);
        a->is_load = !a->is_store;
        const spv_type *pt = spv_value_type(m, ptr);
        uint32_t vt = pt && pt->kind == SPV_T_POINTER ? pt->elem : 0;
        uint64_t sz = 0;
        if (cls == EVM_SHARED) {
            const ev_type *et = tinfo(c, vt);
            sz = et->flat != EV_NONE ? (uint64_t)et->flat * scalar_bytes_of(c, vt) : 0;
        } else if (spv_type_size(m, vt, &sz) != 0) {
            sz = 0;
        }
        a->bytes = (uint32_t)(sz > 0xffffffffu ? 0xffffffffu : sz);
        a->elem_bytes = a->bytes;
        if (vi != EV_NONE && I->vars[vi].rt_stride)
            a->elem_bytes = I->vars[vi].rt_stride;
        a->line = in->line;
        c->acc_of_inst[i] = (uint32_t)I->nacc++;
    }
}

/* Structured scheduling order per function (see the file comment). */
static void setup_order(ev_ctx *c)
{
    const spv_module *m = c->m;
    for (size_t b = 0; b < m->nblocks; b++)
        c->order[b] = EV_NONE;
    uint32_t *stack = xcalloc(m->nblocks + 1, sizeof *stack);
    uint32_t *child = xcalloc(m->nblocks + 1, sizeof *child);
    uint8_t *seen = xcalloc(m->nblocks + 1, 1);
    uint32_t *post = xcalloc(m->nblocks + 1, sizeof *post);
    for (size_t f = 0; f < m->nfuncs; f++) {
        const spv_function *fn = &m->funcs[f];
        if (fn->nblocks == 0 || fn->first_block >= m->nblocks)
            continue;
        size_t sp = 0, npost = 0;
        stack[sp] = fn->first_block;
        child[sp++] = 0;
        seen[fn->first_block] = 1;
        while (sp) {
            uint32_t b = stack[sp - 1];
            const spv_block *bl = &m->blocks[b];
            /* children: merge, continue, successors last to first */
            uint32_t k = child[sp - 1]++;
            uint32_t next = EV_NONE;
            uint32_t nmc = 0;
            uint32_t mc[2];
            if (bl->merge != SPV_MERGE_NONE && bl->merge_block != SPV_NONE)
                mc[nmc++] = bl->merge_block;
            if (bl->merge == SPV_MERGE_LOOP && bl->continue_block != SPV_NONE)
                mc[nmc++] = bl->continue_block;
            if (k < nmc)
                next = mc[k];
            else if (k < nmc + bl->nsucc)
                next = bl->succ[bl->nsucc - 1 - (k - nmc)];
            else {
                post[npost++] = b;
                sp--;
                continue;
            }
            if (next < m->nblocks && !seen[next] && m->blocks[next].func == f) {
                seen[next] = 1;
                stack[sp] = next;
                child[sp++] = 0;
            }
        }
        for (size_t i = 0; i < npost; i++)
            c->order[post[i]] = (uint32_t)(npost - 1 - i);
    }
    free(stack);
    free(child);
    free(seen);
    free(post);
}

static int free_op(uint32_t op)
{
    switch (op) {
    case SpvOpLabel: case SpvOpLine: case SpvOpNoLine: case SpvOpNop:
    case SpvOpSelectionMerge: case SpvOpLoopMerge: case SpvOpVariable:
    case SpvOpCopyObject: case SpvOpUndef: case SpvOpFunctionParameter:
    case SpvOpPhi: case SpvOpAccessChain: case SpvOpInBoundsAccessChain:
    case SpvOpBitcast:
        return 1;
    default:
        return 0;
    }
}

static void setup_costs(ev_ctx *c)
{
    const spv_module *m = c->m;
    ev_info *I = &c->info;
    size_t n = m->ninsts;
    I->flops16 = xcalloc(n, sizeof(float));
    I->flops32 = xcalloc(n, sizeof(float));
    I->flops64 = xcalloc(n, sizeof(float));
    I->sfu = xcalloc(n, sizeof(float));
    I->intops = xcalloc(n, sizeof(float));
    I->instr = xcalloc(n, sizeof(float));
    I->is_atomic = xcalloc(n, 1);
    for (size_t i = 0; i < n; i++) {
        const spv_inst *in = &m->insts[i];
        if (in->func == SPV_NONE)
            continue;
        uint32_t op = in->opcode;
        const ev_type *rt = tinfo(c, in->type_id);
        float comps = rt->flat != EV_NONE && rt->flat ? (float)rt->flat : 1.0f;
        float fl = 0, sf = 0, io = 0;
        float instr = free_op(op) ? 0.0f : 1.0f;
        if ((op == SpvOpLoad || op == SpvOpStore) && in->nops >= 1) {
            uint32_t sc = ptr_storage(c, in->ops[0]);
            if (sc == SpvStorageClassFunction || sc == SpvStorageClassPrivate)
                instr = 0;
        }
        switch (op) {
        case SpvOpFAdd: case SpvOpFSub: case SpvOpFMul:
        case SpvOpVectorTimesScalar: case SpvOpMatrixTimesScalar:
            fl = comps;
            break;
        case SpvOpFDiv: case SpvOpFRem: case SpvOpFMod:
            sf = comps;
            break;
        case SpvOpDot: {
            const ev_type *at = in->nops ? tinfo(c, spv_value_type(m, in->ops[0]) ?
                                 spv_value_type(m, in->ops[0])->id : 0) : rt;
            float k = at->flat != EV_NONE ? (float)at->flat : 1.0f;
            fl = 2 * k - 1;
            break;
        }
        case SpvOpMatrixTimesVector: case SpvOpVectorTimesMatrix: {
            const ev_type *at = in->nops ? tinfo(c, spv_value_type(m, in->ops[0]) ?
                                 spv_value_type(m, in->ops[0])->id : 0) : rt;
            float k = at->flat != EV_NONE ? (float)at->flat : comps;
            fl = 2 * k;
            break;
        }
        case SpvOpIAdd: case SpvOpISub: case SpvOpIMul: case SpvOpUDiv:
        case SpvOpSDiv: case SpvOpUMod: case SpvOpSRem: case SpvOpSMod:
        case SpvOpSNegate: case SpvOpShiftLeftLogical:
        case SpvOpShiftRightLogical: case SpvOpShiftRightArithmetic:
        case SpvOpBitwiseAnd: case SpvOpBitwiseOr: case SpvOpBitwiseXor:
        case SpvOpNot: case SpvOpIEqual: case SpvOpINotEqual:
        case SpvOpULessThan: case SpvOpSLessThan: case SpvOpULessThanEqual:
        case SpvOpSLessThanEqual: case SpvOpUGreaterThan:
        case SpvOpSGreaterThan: case SpvOpUGreaterThanEqual:
        case SpvOpSGreaterThanEqual: case SpvOpBitCount:
        case SpvOpBitReverse: case SpvOpBitFieldInsert:
        case SpvOpBitFieldSExtract: case SpvOpBitFieldUExtract:
            io = comps;
            break;
        case SpvOpExtInst:
            if (in->nops >= 2 && in->ops[0] == m->glsl_std_450) {
                switch (in->ops[1]) {
                case GLSLstd450Fma: fl = 2 * comps; break;
                case GLSLstd450FMix: fl = 3 * comps; break;
                case GLSLstd450Sqrt: case GLSLstd450InverseSqrt:
                case GLSLstd450Exp: case GLSLstd450Exp2: case GLSLstd450Log:
                case GLSLstd450Log2: case GLSLstd450Pow: case GLSLstd450Sin:
                case GLSLstd450Cos: case GLSLstd450Tan: case GLSLstd450Asin:
                case GLSLstd450Acos: case GLSLstd450Atan:
                case GLSLstd450Atan2: case GLSLstd450Sinh:
                case GLSLstd450Cosh: case GLSLstd450Tanh:
                    sf = comps;
                    break;
                case GLSLstd450Length: case GLSLstd450Distance:
                case GLSLstd450Normalize: {
                    const ev_type *at = tinfo(c, spv_value_type(m, in->nops > 2 ?
                                 in->ops[2] : 0) ? spv_value_type(m, in->ops[2])->id : 0);
                    float k = at->flat != EV_NONE ? (float)at->flat : 1.0f;
                    fl = 2 * k;
                    sf = 1;
                    break;
                }
                case GLSLstd450Cross: fl = 9; break;
                case GLSLstd450UMin: case GLSLstd450UMax: case GLSLstd450SMin:
                case GLSLstd450SMax: case GLSLstd450UClamp:
                case GLSLstd450SClamp: case GLSLstd450SAbs:
                    io = comps;
                    break;
                default:
                    break;
                }
            }
            break;
        default:
            break;
        }
        if (!free_op(op) && instr > 0) {
            switch (op) {
            case SpvOpLoad: case SpvOpStore: case SpvOpBranch:
            case SpvOpBranchConditional: case SpvOpSwitch: case SpvOpReturn:
            case SpvOpReturnValue: case SpvOpControlBarrier:
            case SpvOpMemoryBarrier: case SpvOpFunctionCall:
                break;
            default:
                instr = comps;
            }
        }
        unsigned w = rt->width;
        if (fl > 0 && rt->kind == EVK_FLOAT) {
            if (w == 16) I->flops16[i] = fl;
            else if (w == 64) I->flops64[i] = fl;
            else I->flops32[i] = fl;
        } else if (fl > 0) {
            I->flops32[i] = fl;
        }
        I->sfu[i] = sf;
        I->intops[i] = io;
        I->instr[i] = instr;
        I->is_atomic[i] = (uint8_t)is_atomic_op(op);
    }
}

/* Which invocation-dependent inputs each id depends on (flow-insensitive,
 * through function variables): used to name the cause of a divergence. */
static void setup_deps(ev_ctx *c)
{
    const spv_module *m = c->m;
    ev_info *I = &c->info;
    c->dep = xcalloc(c->bound, 1);
    c->vdep = xcalloc(I->nvars + 1, 1);
    for (int pass = 0; pass < 8; pass++) {
        int changed = 0;
        for (size_t i = 0; i < m->ninsts; i++) {
            const spv_inst *in = &m->insts[i];
            if (in->func == SPV_NONE)
                continue;
            uint8_t d = 0;
            if (in->opcode == SpvOpLoad || is_atomic_op(in->opcode)) {
                uint32_t vi = in->nops ? root_var(c, in->ops[0]) : EV_NONE;
                if (vi == EV_NONE) {
                    d = DEP_DATA;
                } else {
                    const ev_var *v = &I->vars[vi];
                    if (v->cls == EVM_INPUT) {
                        switch (v->builtin) {
                        case SpvBuiltInLocalInvocationId:
                        case SpvBuiltInLocalInvocationIndex:
                            d = DEP_LID; break;
                        case SpvBuiltInGlobalInvocationId:
                            d = DEP_GID; break;
                        case SpvBuiltInWorkgroupId:
                            d = DEP_WG; break;
                        case SpvBuiltInSubgroupLocalInvocationId:
                        case SpvBuiltInSubgroupId:
                            d = DEP_SUB; break;
                        default:
                            break;
                        }
                    } else if (v->cls == EVM_FUNCTION || v->cls == EVM_PRIVATE) {
                        d = c->vdep[vi];
                    } else if (v->cls == EVM_PUSH) {
                        d = DEP_PUSH;
                    } else {
                        d = DEP_DATA;
                    }
                }
                if (in->nops)
                    d |= in->ops[0] < c->bound ? c->dep[in->ops[0]] & ~DEP_DATA : 0;
            } else if (in->opcode == SpvOpStore && in->nops >= 2) {
                uint32_t vi = root_var(c, in->ops[0]);
                if (vi != EV_NONE && in->ops[1] < c->bound) {
                    uint8_t nd = c->vdep[vi] | c->dep[in->ops[1]];
                    if (nd != c->vdep[vi]) {
                        c->vdep[vi] = nd;
                        changed = 1;
                    }
                }
                continue;
            } else {
                for (uint32_t k = 0; k < in->nops; k++)
                    if (in->ops[k] < c->bound)
                        d |= c->dep[in->ops[k]];
            }
            if (in->result_id && in->result_id < c->bound &&
                (c->dep[in->result_id] | d) != c->dep[in->result_id]) {
                c->dep[in->result_id] |= d;
                changed = 1;
            }
        }
        if (!changed)
            break;
    }
}

uint8_t ev_dep_of(const ev_ctx *c, uint32_t id)
{
    return id < c->bound ? c->dep[id] : 0;
}

/* ------------------------------------------------------------------ */
/* context                                                              */

ev_ctx *ev_ctx_new(const spv_module *m, const reflection *r,
                   const plan_kernel *k, const device_profile *p,
                   const eval_options *o, char *why, size_t whylen)
{
    const char *ename = k && k->entry ? k->entry : "main";
    const spv_entry *e = spv_entry_find(m, ename);
    if (!e || e->func == SPV_NONE || e->func >= m->nfuncs ||
        m->funcs[e->func].nblocks == 0) {
        snprintf(why, whylen, "entry point '%s' has no function body to evaluate",
                 ename);
        return NULL;
    }
    ev_ctx *c = xcalloc(1, sizeof *c);
    c->m = m;
    c->bound = m->bound;
    if (o)
        c->opt = *o;
    else
        eval_default_options(&c->opt);
    ev_info *I = &c->info;
    I->m = m;
    I->r = r;
    I->k = k;
    I->ninsts = m->ninsts;
    I->fp_chains = 1;
    for (int d = 0; d < 3; d++) {
        uint32_t ls = e->local_size_known ? e->local_size[d]
                      : (r ? r->local_size[d] : 1);
        I->local[d] = ls ? ls : 1;
        c->num_groups[d] = k ? k->workgroups[d] : 1;
    }
    uint64_t lanes = (uint64_t)I->local[0] * I->local[1] * I->local[2];
    if (lanes > 4096) {
        snprintf(why, whylen,
                 "workgroup of %llu invocations is too large to evaluate",
                 (unsigned long long)lanes);
        free(c);
        return NULL;
    }
    I->lanes = (uint32_t)lanes;
    I->subgroup = p && p->limits.subgroup_size ? p->limits.subgroup_size : 32;
    c->entry_func = e->func;

    c->types = xcalloc(c->bound, sizeof *c->types);
    c->tstate = xcalloc(c->bound, 1);
    c->nflat = xcalloc(c->bound, sizeof *c->nflat);
    c->reg_off = xcalloc(c->bound, sizeof *c->reg_off);
    c->const_off = xcalloc(c->bound, sizeof *c->const_off);
    c->var_of_id = xcalloc(c->bound, sizeof *c->var_of_id);
    c->acc_of_inst = xcalloc(m->ninsts + 1, sizeof *c->acc_of_inst);
    c->order = xcalloc(m->nblocks + 1, sizeof *c->order);
    c->noted_inst = xcalloc(m->ninsts + 1, 1);
    for (uint32_t i = 0; i < c->bound; i++) {
        c->reg_off[i] = EV_NONE;
        c->const_off[i] = EV_NONE;
        c->var_of_id[i] = EV_NONE;
    }

    /* registers: one value per lane for every result id in a function */
    uint64_t per_lane = 0;
    for (size_t i = 0; i < m->ninsts; i++) {
        const spv_inst *in = &m->insts[i];
        if (in->func == SPV_NONE || !in->result_id || in->result_id >= c->bound)
            continue;
        if (in->opcode == SpvOpVariable || in->opcode == SpvOpLabel)
            continue;
        uint32_t n = tinfo(c, in->type_id)->flat;
        if (n == EV_NONE || n == 0)
            continue;
        c->nflat[in->result_id] = n;
        per_lane += n;
    }
    /* variables are pointer values: two components */
    for (size_t i = 0; i < m->nvars; i++)
        if (m->vars[i].id < c->bound)
            c->nflat[m->vars[i].id] = 2;
    /* Invocations that share nothing (no workgroup memory, no barrier) are
     * independent: in a module too long to run every one of them, the
     * first and last subgroup of each workgroup stand for the rest. */
    const uint64_t pool_cap = 6u << 20; /* values (96 MiB) */
    c->exec_lanes = I->lanes;
    {
        int shares = 0;
        for (size_t i = 0; i < m->nvars; i++)
            shares |= m->vars[i].storage == SpvStorageClassWorkgroup;
        for (size_t i = 0; i < m->ninsts && !shares; i++)
            shares |= m->insts[i].opcode == SpvOpControlBarrier;
        uint32_t sg = I->subgroup ? I->subgroup : 32;
        if (!shares && I->lanes >= 4 * sg && (double)m->ninsts * I->lanes > 4e5) {
            c->exec_lanes = 2 * sg;
            c->sampled = 1;
            ev_note(c, "long module without shared memory: the first and last "
                       "subgroup (%u of %u invocations) of each workgroup executed, "
                       "counts scaled", c->exec_lanes, I->lanes);
        }
    }
    if (per_lane * c->exec_lanes > pool_cap) {
        uint64_t l = per_lane ? pool_cap / per_lane : 1;
        c->exec_lanes = (uint32_t)(l < 1 ? 1 : l);
        if (c->exec_lanes > I->lanes)
            c->exec_lanes = I->lanes;
        c->sampled = 0;
        ev_note(c, "module too large to execute every invocation together: "
                   "%u of %u invocations per workgroup executed, counts scaled",
                c->exec_lanes, I->lanes);
    }
    c->lane_real = xcalloc(c->exec_lanes, sizeof *c->lane_real);
    for (uint32_t l = 0; l < c->exec_lanes; l++)
        c->lane_real[l] = l;
    if (c->sampled) {
        uint32_t sg = c->exec_lanes / 2;
        for (uint32_t l = 0; l < sg; l++)
            c->lane_real[sg + l] = I->lanes - sg + l;
    }
    size_t off = 0;
    for (size_t i = 0; i < m->ninsts; i++) {
        const spv_inst *in = &m->insts[i];
        uint32_t id = in->result_id;
        if (in->func == SPV_NONE || !id || id >= c->bound || !c->nflat[id] ||
            in->opcode == SpvOpVariable)
            continue;
        if (c->reg_off[id] != EV_NONE)
            continue;
        c->reg_off[id] = (uint32_t)off;
        off += (size_t)c->nflat[id] * c->exec_lanes;
    }
    c->npool = off;
    c->pool = xcalloc(off, sizeof(ev_val));

    /* constants */
    for (size_t i = 0; i < m->nconsts; i++) {
        const spv_const *k2 = &m->consts[i];
        if (k2->id >= c->bound)
            continue;
        uint32_t n = tinfo(c, k2->type)->flat;
        if (n == EV_NONE || n == 0)
            continue;
        cpool_reserve(c, n);
        c->const_off[k2->id] = (uint32_t)c->ncpool;
        c->nflat[k2->id] = n;
        const_flat(c, k2->id, c->cpool + c->ncpool, n, 0);
        c->ncpool += n;
    }
    setup_vars(c);
    /* variables as constant pointer values */
    for (size_t i = 0; i < I->nvars; i++) {
        uint32_t id = I->vars[i].id;
        if (id >= c->bound)
            continue;
        cpool_reserve(c, 2);
        c->const_off[id] = (uint32_t)c->ncpool;
        c->cpool[c->ncpool] = kv(i);
        c->cpool[c->ncpool + 1] = kv(0);
        c->ncpool += 2;
    }
    setup_accesses(c);
    setup_order(c);
    setup_costs(c);
    setup_deps(c);
    setup_ctrl(c);
    setup_affine(c);
    c->pc_off = xcalloc(m->ninsts + 1, sizeof *c->pc_off);
    c->pc_val = xcalloc((m->ninsts + 1) * 4, sizeof *c->pc_val);
    c->trk = xcalloc(m->nblocks + 1, sizeof *c->trk);

    /* push constants; a block beyond any device's maxPushConstantsSize
     * (the limits check reports it; a hostile module can declare 2 GiB) is
     * not materialised: its loads are unknown */
    if (r && r->push_bytes && r->push_bytes <= 65536) {
        c->push_bytes = r->push_bytes;
        c->push = xcalloc(r->push_bytes, 1);
        if (k)
            verifier_push_bytes(r, k, c->push);
    }

    uint32_t L = c->exec_lanes;
    c->l_block = xcalloc(L, sizeof(uint32_t));
    c->l_inst = xcalloc(L, sizeof(uint32_t));
    c->l_prev = xcalloc(L, sizeof(uint32_t));
    c->l_state = xcalloc(L, 1);
    c->l_taint = xcalloc(L, 1);
    c->l_side = xcalloc(L, 1);
    c->l_ret_inst = xcalloc(L, sizeof(uint32_t));
    c->l_unk_iter = xcalloc(L, sizeof(uint32_t));
    c->tmp_off = xcalloc(L, sizeof(int64_t));
    c->depth_max = 16;
    c->lane_buf = xcalloc((size_t)L * (size_t)(c->depth_max + 2), sizeof(uint16_t));
    c->ntmp_vals = (size_t)L * 64;
    c->tmp_vals = xcalloc(c->ntmp_vals, sizeof(ev_val));

    c->run_lanes = xcalloc(L, sizeof *c->run_lanes);
    c->nrun = L;
    for (uint32_t l = 0; l < L; l++)
        c->run_lanes[l] = (uint16_t)l;
    return c;
}

void ev_ctx_free(ev_ctx *c)
{
    if (!c)
        return;
    ev_info *I = &c->info;
    for (size_t i = 0; i < I->nvars; i++) {
        free(I->vars[i].mem);
        free(I->vars[i].shm);
    }
    free(I->vars);
    free(I->acc);
    free(I->flops16); free(I->flops32); free(I->flops64);
    free(I->sfu); free(I->intops); free(I->instr); free(I->is_atomic);
    free(I->bars); free(I->races); free(I->uninit); free(I->arrs);
    for (size_t i = 0; i < I->nnotes; i++)
        free(I->notes[i]);
    free(I->notes);
    free(c->types); free(c->tstate); free(c->nflat); free(c->reg_off);
    free(c->pool); free(c->const_off); free(c->cpool); free(c->var_of_id);
    free(c->acc_of_inst); free(c->order); free(c->dep); free(c->vdep);
    free(c->push); free(c->l_block); free(c->l_inst); free(c->l_prev);
    free(c->l_state); free(c->l_taint); free(c->l_side); free(c->l_ret_inst);
    free(c->l_unk_iter); free(c->tmp_off); free(c->lane_buf);
    free(c->tmp_vals); free(c->noted_inst);
    if (c->trk)
        for (size_t b = 0; b < c->m->nblocks; b++)
            trk_free(c->trk[b]);
    free(c->trk); free(c->ctrl); free(c->vctrl); free(c->na);
    free(c->pc_off); free(c->pc_val); free(c->run_lanes); free(c->lane_real);
    free(c);
}

/* ------------------------------------------------------------------ */
/* values and memory                                                    */

static ev_val g_unknown[EV_MAX_FLAT];
static int g_unknown_init;

static inline ev_val *RV(ev_ctx *c, uint32_t id, uint32_t lane)
{
    return c->pool + c->reg_off[id] + (size_t)lane * c->nflat[id];
}

static inline const ev_val *V(const ev_ctx *c, uint32_t id, uint32_t lane)
{
    if (id < c->bound) {
        if (c->reg_off[id] != EV_NONE)
            return c->pool + c->reg_off[id] + (size_t)lane * c->nflat[id];
        if (c->const_off[id] != EV_NONE)
            return c->cpool + c->const_off[id];
    }
    return g_unknown;
}

/* V() for an operand that must hold at least `need` components; anything
 * shorter (only in modules that did not validate) reads as unknown. */
static inline const ev_val *Vn(const ev_ctx *c, uint32_t id, uint32_t lane,
                               uint32_t need)
{
    if (id < c->bound && c->nflat[id] >= need)
        return V(c, id, lane);
    return g_unknown;
}

static inline uint32_t NF(const ev_ctx *c, uint32_t id)
{
    return id < c->bound ? c->nflat[id] : 0;
}

static int has_reg(const ev_ctx *c, uint32_t id)
{
    return id && id < c->bound && c->reg_off[id] != EV_NONE;
}

/* Sort by lo without a comparison callback (this runs once per executed
 * workgroup over every access's byte range). */
static void run_sort(ev_run *a, size_t n)
{
    while (n > 24) {
        ev_run *m = a + n / 2, *z = a + n - 1, t;
        if (m->lo < a->lo) { t = *m; *m = *a; *a = t; }
        if (z->lo < a->lo) { t = *z; *z = *a; *a = t; }
        if (z->lo < m->lo) { t = *z; *z = *m; *m = t; }
        int64_t p = m->lo;
        size_t i = 0, j = n - 1;
        for (;;) {
            while (a[i].lo < p) i++;
            while (a[j].lo > p) j--;
            if (i >= j)
                break;
            t = a[i]; a[i] = a[j]; a[j] = t;
            i++;
            j--;
        }
        /* recurse into the smaller part, loop on the larger */
        if (j + 1 < n - j - 1) {
            run_sort(a, j + 1);
            a += j + 1;
            n -= j + 1;
        } else {
            run_sort(a + j + 1, n - j - 1);
            n = j + 1;
        }
    }
    for (size_t i = 1; i < n; i++) {
        ev_run t = a[i];
        size_t j = i;
        while (j > 0 && a[j - 1].lo > t.lo) {
            a[j] = a[j - 1];
            j--;
        }
        a[j] = t;
    }
}

void ev_runs_normalize(ev_runs *r)
{
    if (r->n < 2)
        return;
    int sorted = 1;
    for (size_t i = 1; i < r->n && sorted; i++)
        sorted = r->r[i - 1].lo <= r->r[i].lo;
    if (!sorted)
        run_sort(r->r, r->n);
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

static void runs_add(ev_runs *r, int64_t lo, int64_t hi)
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
            r->r = realloc(r->r, r->cap * sizeof *r->r);
            if (!r->r)
                abort();
        }
    }
    r->r[r->n].lo = lo;
    r->r[r->n].hi = hi;
    r->n++;
}

static void lane_ids(const ev_ctx *c, uint32_t lane, uint32_t lid[3])
{
    const uint32_t *L = c->info.local;
    lane = c->lane_real[lane];
    lid[0] = lane % L[0];
    lid[1] = (lane / L[0]) % L[1];
    lid[2] = lane / (L[0] * L[1]);
}

static uint64_t builtin_comp(const ev_ctx *c, int bi, uint32_t comp,
                             uint32_t lane, int *ok)
{
    uint32_t lid[3];
    lane_ids(c, lane, lid);
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

/* Decodes a value of type tid at byte offset off of buf (explicit layout). */
static void decode_layout(ev_ctx *c, uint32_t tid, const uint8_t *buf,
                          uint64_t len, int64_t off, ev_val *out,
                          uint32_t *pos, uint32_t n, int depth)
{
    const spv_type *st = spv_type_of(c->m, tid);
    if (!st || depth > 32 || *pos >= n)
        return;
    switch (st->kind) {
    case SPV_T_BOOL: case SPV_T_INT: case SPV_T_FLOAT: {
        uint32_t w = st->kind == SPV_T_BOOL ? 32 : st->width;
        uint32_t nb = (w + 7) / 8;
        if (off < 0 || (uint64_t)off + nb > len || nb > 8) {
            out[(*pos)++] = unk_of(tinfo(c, tid));
            return;
        }
        uint64_t v = 0;
        memcpy(&v, buf + off, nb); /* little-endian host */
        if (st->kind == SPV_T_BOOL)
            v = v != 0;
        out[(*pos)++] = kv(v & wmask(w));
        return;
    }
    case SPV_T_VECTOR: {
        uint32_t sb = scalar_bytes_of(c, st->elem);
        for (uint32_t i = 0; i < st->count; i++)
            decode_layout(c, st->elem, buf, len, off + (int64_t)i * sb, out,
                          pos, n, depth + 1);
        return;
    }
    case SPV_T_MATRIX: {
        uint64_t cs = 0;
        spv_type_size(c->m, st->elem, &cs);
        for (uint32_t i = 0; i < st->count; i++)
            decode_layout(c, st->elem, buf, len, off + (int64_t)(i * cs), out,
                          pos, n, depth + 1);
        return;
    }
    case SPV_T_ARRAY: {
        uint64_t es = st->array_stride;
        if (!es)
            spv_type_size(c->m, st->elem, &es);
        for (uint64_t i = 0; i < st->length && *pos < n; i++)
            decode_layout(c, st->elem, buf, len, off + (int64_t)(i * es), out,
                          pos, n, depth + 1);
        return;
    }
    case SPV_T_STRUCT:
        for (uint32_t i = 0; i < st->nmembers; i++)
            decode_layout(c, st->members[i].type, buf, len,
                          off + st->members[i].offset, out, pos, n, depth + 1);
        return;
    default:
        return;
    }
}

/* Fills out[0..n) with "unknown" of the right scalar kinds of type tid. */
static void fill_unknown(ev_ctx *c, uint32_t tid, ev_val *out, uint32_t n)
{
    const ev_type *t = tinfo(c, tid);
    ev_val u = unk_of(t->kind == EVK_INT ? t : NULL);
    if (t->kind == EVK_INT && !t->is_vec) {
        /* mixed composites: a plain unknown */
        u.lo = 0;
        u.hi = ~0ull;
        if (t->kind == EVK_INT)
            u = unk_of(t);
    }
    for (uint32_t i = 0; i < n; i++)
        out[i] = u;
}

static void add_rec(void **arr, size_t *n, size_t sz, const void *rec)
{
    if (*n >= 256)
        return;
    *arr = realloc(*arr, (*n + 1) * sz);
    if (!*arr)
        abort();
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
    ev_race_rec r = {ia, ib, ra, rb, ww, vi, comp,
                     {c->gid[0], c->gid[1], c->gid[2]},
                     !c->l_taint[la] && !c->l_taint[lb]};
    add_rec((void **)&I->races, &I->nraces, sizeof r, &r);
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
    add_rec((void **)&I->uninit, &I->nuninit, sizeof r, &r);
}

static void shm_read(ev_ctx *c, uint32_t vi, uint32_t comp, uint32_t lane,
                     uint32_t inst, int atomic)
{
    ev_var *v = &c->info.vars[vi];
    ev_shm *s = &v->shm[comp];
    if (!s->init)
        rec_uninit(c, inst, vi, comp, lane);
    if (s->w_epoch == c->epoch && s->w_lane != (int)lane &&
        !(atomic && s->w_atomic))
        rec_race(c, s->w_inst, inst, s->w_lane, (int)lane, 0, vi, comp);
    if (s->r_epoch == c->epoch) {
        if (s->r_lane != (int)lane)
            s->r_multi = 1;
        s->r_atomic &= (uint8_t)atomic;
    } else {
        s->r_epoch = c->epoch;
        s->r_lane = (int16_t)lane;
        s->r_inst = inst;
        s->r_multi = 0;
        s->r_atomic = (uint8_t)atomic;
    }
}

static void shm_write(ev_ctx *c, uint32_t vi, uint32_t comp, uint32_t lane,
                      uint32_t inst, int atomic)
{
    ev_var *v = &c->info.vars[vi];
    ev_shm *s = &v->shm[comp];
    if (s->w_epoch == c->epoch && s->w_lane != (int)lane &&
        !(atomic && s->w_atomic))
        rec_race(c, s->w_inst, inst, s->w_lane, (int)lane, 1, vi, comp);
    else if (s->r_epoch == c->epoch && (s->r_lane != (int)lane || s->r_multi) &&
             !(atomic && s->r_atomic))
        rec_race(c, s->r_inst, inst,
                 s->r_lane != (int)lane ? s->r_lane : (int)(lane ? 0 : 1),
                 (int)lane, 0, vi, comp);
    s->w_epoch = c->epoch;
    s->w_lane = (int16_t)lane;
    s->w_inst = inst;
    s->w_atomic = (uint8_t)atomic;
    s->init = 1;
}

/* Statistics for one lane's access of a byte-addressed buffer. */
static void rec_buf(ev_ctx *c, uint32_t inst, uint32_t vi, uint32_t lane,
                    int64_t lo, int64_t hi, uint32_t size, int store,
                    int atomic)
{
    uint32_t a = c->acc_of_inst[inst];
    ev_var *v = &c->info.vars[vi];
    trk_mem(c, inst, lane, vi, lo, hi, store, atomic);
    c->tmp_off[lane] = lo == hi ? lo : INT64_MIN;
    if (store || atomic)
        c->l_side[lane] = 1;
    if (a == EV_NONE)
        return;
    ev_acc *s = &c->grp->acc[a];
    s->count += 1;
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
        int certain = lo == hi && !c->l_taint[lane];
        uint32_t lid[3], g[3];
        lane_ids(c, lane, lid);
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
    if (v->fp_slot >= 0) {
        int64_t flo = lo < 0 ? 0 : lo, fhi = hi + (int64_t)size;
        if (fhi > buf)
            fhi = buf;
        ev_runs *r = &c->grp->fp[v->fp_slot + (store ? 1 : 0)];
        if (lo != hi)
            r->inexact = 1;
        runs_add(r, flo, fhi);
        if (atomic)
            runs_add(&c->grp->fp[v->fp_slot + 1], flo, fhi);
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

static void rec_arr(ev_ctx *c, uint32_t inst, uint32_t vi, int64_t lo,
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
    add_rec((void **)&I->arrs, &I->narrs, sizeof r, &r);
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
                uint32_t d = flat_member_offset(c, ty, mi);
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
                stride = layout ? scalar_bytes_of(c, ty->elem) : 1;
            } else if (ty->kind == SPV_T_MATRIX) {
                if (layout) {
                    uint64_t cs = 0;
                    spv_type_size(m, ty->elem, &cs);
                    stride = (int64_t)cs;
                } else {
                    stride = tinfo(c, ty->elem)->flat;
                }
            } else if (layout) {
                uint64_t es = ty->array_stride;
                if (!es)
                    spv_type_size(m, ty->elem, &es);
                stride = (int64_t)es;
            } else {
                uint32_t f = tinfo(c, ty->elem)->flat;
                if (f == EV_NONE)
                    return 0;
                stride = f;
            }
            const spv_type *itst = spv_value_type(m, iid);
            st[ns].add = 0;
            st[ns].stride = stride;
            st[ns].length = ty->kind == SPV_T_ARRAY ? ty->length : 0;
            st[ns].iid = iid;
            st[ns].it = tinfo(c, itst ? itst->id : 0);
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
                rec_arr(c, ii, vi, ilo, ihi, st[k].length, lane,
                        ilo == ihi && !c->l_taint[lane]);
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

static void exec_access_chain(ev_ctx *c, uint32_t ii, const spv_inst *in,
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
            const ev_type *it = tinfo(c, itst ? itst->id : 0);
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
                                   : flat_member_offset(c, st, mi);
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
                    uint32_t f = tinfo(c, st->elem)->flat;
                    if (f == EV_NONE) { bad = 1; break; }
                    stride = f;
                }
                if (st->kind == SPV_T_ARRAY && st->length &&
                    (ilo < 0 || ihi >= (int64_t)st->length)) {
                    int certain = ilo == ihi && !c->l_taint[lane];
                    /* a hull that only partly leaves the array is a
                       "could not prove" case */
                    rec_arr(c, ii, (uint32_t)vi, ilo, ihi, st->length, lane,
                            certain);
                }
                olo += sat_mul(ilo, stride);
                ohi += sat_mul(ihi, stride);
                t = st->elem;
                break;
            }
            case SPV_T_VECTOR: {
                int64_t stride = layout ? scalar_bytes_of(c, st->elem) : 1;
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
                    stride = tinfo(c, st->elem)->flat;
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

static void rec_shared(ev_ctx *c, uint32_t inst, uint32_t vi, uint32_t lane,
                       int64_t lo, int64_t hi, int store)
{
    uint32_t a = c->acc_of_inst[inst];
    c->tmp_off[lane] = lo == hi ? lo : INT64_MIN;
    if (store)
        c->l_side[lane] = 1;
    if (a == EV_NONE)
        return; /* the store half of an atomic: one access, one event */
    trk_mem(c, inst, lane, vi, lo, hi, store, 0);
    ev_acc *s = &c->grp->acc[a];
    s->count += 1;
    s->var = vi;
    if (lo != hi)
        s->idx_unknown = 1;
    if (!s->idx_any || lo < s->idx_min)
        s->idx_min = lo;
    if (!s->idx_any || hi > s->idx_max)
        s->idx_max = hi;
    s->idx_any = 1;
}

static uint32_t shared_scale(ev_ctx *c, uint32_t vi)
{
    const ev_var *v = &c->info.vars[vi];
    const ev_type *t = tinfo(c, v->pointee);
    return t->width ? (uint32_t)(t->width + 7) / 8 : 4;
}

static void load_lane(ev_ctx *c, uint32_t ii, uint32_t ptr, uint32_t tid,
                      ev_val *out, uint32_t nf, uint32_t lane, int atomic,
                      int *kind_out, uint32_t *var_out)
{
    const ev_val *p = Vn(c, ptr, lane, 2);
    *kind_out = -1;
    if (!known(&p[0]) || p[0].lo >= c->info.nvars) {
        fill_unknown(c, tid, out, nf);
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
            fill_unknown(c, tid, out, nf);
        break;
    case EVM_SHARED:
        rec_shared(c, ii, vi, lane, olo, ohi, atomic);
        if (v->mem && olo == ohi && olo >= 0 && (uint64_t)olo + nf <= v->nflat) {
            memcpy(out, v->mem + olo, nf * sizeof *out);
            for (uint32_t k = 0; k < nf; k++) {
                if (!v->shm[olo + k].init)
                    out[k] = unk_of(tinfo(c, tid));
                shm_read(c, vi, (uint32_t)olo + k, lane, ii, atomic);
            }
        } else {
            fill_unknown(c, tid, out, nf);
        }
        break;
    case EVM_INPUT:
        for (uint32_t k = 0; k < nf; k++) {
            int ok = 0;
            uint64_t x = olo == ohi ? builtin_comp(c, v->builtin,
                                                   (uint32_t)(olo + k), lane, &ok)
                                    : 0;
            out[k] = ok ? kv(x) : unk_of(tinfo(c, tid));
        }
        break;
    case EVM_PUSH:
        if (olo == ohi && c->push) {
            /* the plan's values never change: decode once per instruction */
            if (nf <= 4 && ii < c->m->ninsts && c->pc_off[ii] == olo + 1) {
                memcpy(out, c->pc_val + (size_t)ii * 4, nf * sizeof *out);
                break;
            }
            uint32_t pos = 0;
            fill_unknown(c, tid, out, nf);
            decode_layout(c, tid, c->push, c->push_bytes, olo, out, &pos, nf, 0);
            if (nf <= 4 && ii < c->m->ninsts) {
                memcpy(c->pc_val + (size_t)ii * 4, out, nf * sizeof *out);
                c->pc_off[ii] = olo + 1;
            }
        } else {
            fill_unknown(c, tid, out, nf);
        }
        break;
    case EVM_STORAGE: case EVM_UNIFORM: {
        uint32_t a = c->acc_of_inst[ii];
        uint32_t sz = a != EV_NONE ? c->info.acc[a].bytes : 4;
        rec_buf(c, ii, vi, lane, olo, ohi, sz, 0, atomic);
        fill_unknown(c, tid, out, nf);
        break;
    }
    default:
        fill_unknown(c, tid, out, nf);
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

static void exec_memory(ev_ctx *c, uint32_t ii, const spv_inst *in,
                        const uint16_t *lanes, int n)
{
    uint32_t op = in->opcode;
    int kind = -1;
    uint32_t var = EV_NONE;
    if (in->nops < 1)
        return;
    uint32_t ptr = in->ops[0];
    const spv_type *pt = spv_value_type(c->m, ptr);
    uint32_t vt = pt && pt->kind == SPV_T_POINTER ? pt->elem : in->type_id;
    uint32_t nf = tinfo(c, vt)->flat;
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
            const ev_type *t = tinfo(c, in->type_id);
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

/* ------------------------------------------------------------------ */
/* arithmetic                                                           */

static ev_val full_int(unsigned w) { ev_val v = {0, wmask(w)}; return v; }
static ev_val unk_bool(void) { ev_val v = {0, 1}; return v; }
static ev_val unk_float(void) { ev_val v = {0, ~0ull}; return v; }

static unsigned bits_for(uint64_t x)
{
    unsigned b = 0;
    while (x) {
        b++;
        x >>= 1;
    }
    return b;
}

static ev_val int_bin(uint32_t op, ev_val a, ev_val b, unsigned w)
{
    uint64_t mk = wmask(w);
    a.lo &= mk; a.hi &= mk; b.lo &= mk; b.hi &= mk;
    if (a.lo > a.hi) a = full_int(w);
    if (b.lo > b.hi) b = full_int(w);
    if (known(&a) && known(&b)) {
        uint64_t x = a.lo, y = b.lo;
        int64_t sx = sext(x, w), sy = sext(y, w);
        switch (op) {
        case SpvOpIAdd: return kv((x + y) & mk);
        case SpvOpISub: return kv((x - y) & mk);
        case SpvOpIMul: return kv((x * y) & mk);
        case SpvOpUDiv: return y ? kv(x / y) : full_int(w);
        case SpvOpUMod: return y ? kv(x % y) : full_int(w);
        case SpvOpSDiv:
            if (!y || (sy == -1 && sx == sext(1ull << (w - 1), w)))
                return full_int(w);
            return kv((uint64_t)(sx / sy) & mk);
        case SpvOpSRem:
            if (!y || sy == -1)
                return y ? kv(0) : full_int(w);
            return kv((uint64_t)(sx % sy) & mk);
        case SpvOpSMod: {
            if (!y)
                return full_int(w);
            if (sy == -1)
                return kv(0);
            int64_t r = sx % sy;
            if (r != 0 && ((r < 0) != (sy < 0)))
                r += sy;
            return kv((uint64_t)r & mk);
        }
        case SpvOpShiftLeftLogical: return y < w ? kv((x << y) & mk) : full_int(w);
        case SpvOpShiftRightLogical: return y < w ? kv(x >> y) : full_int(w);
        case SpvOpShiftRightArithmetic:
            return y < w ? kv((uint64_t)(sx >> y) & mk) : full_int(w);
        case SpvOpBitwiseAnd: return kv(x & y);
        case SpvOpBitwiseOr: return kv(x | y);
        case SpvOpBitwiseXor: return kv(x ^ y);
        default: return full_int(w);
        }
    }
    uint64_t half = w >= 64 ? (1ull << 63) : (1ull << (w - 1));
    switch (op) {
    case SpvOpIAdd:
        if (a.hi <= mk - b.hi) {
            ev_val r = {a.lo + b.lo, a.hi + b.hi};
            return r;
        }
        break;
    case SpvOpISub:
        if (a.lo >= b.hi) {
            ev_val r = {a.lo - b.hi, a.hi - b.lo};
            return r;
        }
        break;
    case SpvOpIMul:
        if (a.hi == 0 || b.hi == 0)
            return kv(0);
        if (a.hi <= mk / b.hi) {
            ev_val r = {a.lo * b.lo, a.hi * b.hi};
            return r;
        }
        break;
    case SpvOpUDiv:
        if (b.lo > 0) {
            ev_val r = {a.lo / b.hi, a.hi / b.lo};
            return r;
        }
        break;
    case SpvOpSDiv:
        if (b.lo > 0 && a.hi < half && b.hi < half) {
            ev_val r = {a.lo / b.hi, a.hi / b.lo};
            return r;
        }
        break;
    case SpvOpUMod:
        if (b.lo > 0) {
            if (a.hi < b.lo)
                return a;
            ev_val r = {0, b.hi - 1};
            return r;
        }
        break;
    case SpvOpSRem: case SpvOpSMod:
        if (b.lo > 0 && a.hi < half && b.hi < half) {
            if (a.hi < b.lo)
                return a;
            ev_val r = {0, b.hi - 1};
            return r;
        }
        break;
    case SpvOpBitwiseAnd: {
        ev_val r = {0, a.hi < b.hi ? a.hi : b.hi};
        return r;
    }
    case SpvOpBitwiseOr: case SpvOpBitwiseXor: {
        unsigned nb = bits_for(a.hi > b.hi ? a.hi : b.hi);
        ev_val r = {0, wmask(nb) & mk};
        return r;
    }
    case SpvOpShiftRightLogical:
        if (known(&b) && b.lo < w) {
            ev_val r = {a.lo >> b.lo, a.hi >> b.lo};
            return r;
        }
        break;
    case SpvOpShiftRightArithmetic:
        if (known(&b) && b.lo < w && a.hi < half) {
            ev_val r = {a.lo >> b.lo, a.hi >> b.lo};
            return r;
        }
        break;
    case SpvOpShiftLeftLogical:
        if (known(&b) && b.lo < w && bits_for(a.hi) + b.lo <= w) {
            ev_val r = {a.lo << b.lo, a.hi << b.lo};
            return r;
        }
        break;
    default:
        break;
    }
    return full_int(w);
}

static ev_val float_bin(uint32_t op, ev_val a, ev_val b, unsigned w)
{
    if (!known(&a) || !known(&b))
        return unk_float();
    double x = getf(a.lo, w), y = getf(b.lo, w), r;
    switch (op) {
    case SpvOpFAdd: r = x + y; break;
    case SpvOpFSub: r = x - y; break;
    case SpvOpFMul: case SpvOpVectorTimesScalar: r = x * y; break;
    case SpvOpFDiv: r = x / y; break;
    case SpvOpFRem: r = fmod(x, y); break;
    case SpvOpFMod: r = x - y * floor(x / y); break;
    default: return unk_float();
    }
    if (w == 32)
        r = (float)r;
    return kv(putf(r, w));
}

/* Comparisons; t is the operand type.  Returns a bool value. */
static ev_val compare(uint32_t op, ev_val a, ev_val b, const ev_type *t)
{
    unsigned w = t->width ? t->width : 32;
    if (t->kind == EVK_FLOAT) {
        if (!known(&a) || !known(&b))
            return unk_bool();
        double x = getf(a.lo, w), y = getf(b.lo, w);
        int un = isnan(x) || isnan(y), r;
        switch (op) {
        case SpvOpFOrdEqual: r = !un && x == y; break;
        case SpvOpFUnordEqual: r = un || x == y; break;
        case SpvOpFOrdNotEqual: r = !un && x != y; break;
        case SpvOpFUnordNotEqual: r = un || x != y; break;
        case SpvOpFOrdLessThan: r = !un && x < y; break;
        case SpvOpFUnordLessThan: r = un || x < y; break;
        case SpvOpFOrdGreaterThan: r = !un && x > y; break;
        case SpvOpFUnordGreaterThan: r = un || x > y; break;
        case SpvOpFOrdLessThanEqual: r = !un && x <= y; break;
        case SpvOpFUnordLessThanEqual: r = un || x <= y; break;
        case SpvOpFOrdGreaterThanEqual: r = !un && x >= y; break;
        case SpvOpFUnordGreaterThanEqual: r = un || x >= y; break;
        default: return unk_bool();
        }
        return kv((uint64_t)r);
    }
    uint64_t mk = wmask(w);
    a.lo &= mk; a.hi &= mk; b.lo &= mk; b.hi &= mk;
    if (t->kind == EVK_BOOL) {
        if (!known(&a) || !known(&b))
            return unk_bool();
        if (op == SpvOpLogicalEqual) return kv(a.lo == b.lo);
        if (op == SpvOpLogicalNotEqual) return kv(a.lo != b.lo);
    }
    int sgn = op == SpvOpSLessThan || op == SpvOpSLessThanEqual ||
              op == SpvOpSGreaterThan || op == SpvOpSGreaterThanEqual;
    if (sgn) {
        if (known(&a) && known(&b)) {
            int64_t x = sext(a.lo, w), y = sext(b.lo, w);
            int r = op == SpvOpSLessThan ? x < y : op == SpvOpSLessThanEqual ? x <= y
                  : op == SpvOpSGreaterThan ? x > y : x >= y;
            return kv((uint64_t)r);
        }
        uint64_t half = w >= 64 ? (1ull << 63) : (1ull << (w - 1));
        if (a.hi >= half || b.hi >= half)
            return unk_bool();
        op = op == SpvOpSLessThan ? SpvOpULessThan
           : op == SpvOpSLessThanEqual ? SpvOpULessThanEqual
           : op == SpvOpSGreaterThan ? SpvOpUGreaterThan : SpvOpUGreaterThanEqual;
    }
    switch (op) {
    case SpvOpIEqual: case SpvOpLogicalEqual:
        if (known(&a) && known(&b)) return kv(a.lo == b.lo);
        if (a.hi < b.lo || b.hi < a.lo) return kv(0);
        return unk_bool();
    case SpvOpINotEqual: case SpvOpLogicalNotEqual:
        if (known(&a) && known(&b)) return kv(a.lo != b.lo);
        if (a.hi < b.lo || b.hi < a.lo) return kv(1);
        return unk_bool();
    case SpvOpULessThan:
        if (a.hi < b.lo) return kv(1);
        if (a.lo >= b.hi) return kv(0);
        return unk_bool();
    case SpvOpULessThanEqual:
        if (a.hi <= b.lo) return kv(1);
        if (a.lo > b.hi) return kv(0);
        return unk_bool();
    case SpvOpUGreaterThan:
        if (a.lo > b.hi) return kv(1);
        if (a.hi <= b.lo) return kv(0);
        return unk_bool();
    case SpvOpUGreaterThanEqual:
        if (a.lo >= b.hi) return kv(1);
        if (a.hi < b.lo) return kv(0);
        return unk_bool();
    default:
        return unk_bool();
    }
}

static ev_val convert(uint32_t op, ev_val a, const ev_type *from,
                      const ev_type *to)
{
    unsigned fw = from->width ? from->width : 32, tw = to->width ? to->width : 32;
    switch (op) {
    case SpvOpConvertFToU: case SpvOpConvertFToS: {
        if (!known(&a))
            return full_int(tw);
        double x = getf(a.lo, fw);
        if (isnan(x))
            return full_int(tw);
        if (op == SpvOpConvertFToU) {
            if (x < 0 || x >= ldexp(1.0, (int)tw))
                return full_int(tw);
            return kv((uint64_t)x & wmask(tw));
        }
        if (x < -ldexp(1.0, (int)tw - 1) || x >= ldexp(1.0, (int)tw - 1))
            return full_int(tw);
        return kv((uint64_t)(int64_t)x & wmask(tw));
    }
    case SpvOpConvertSToF:
        if (!known(&a))
            return unk_float();
        return kv(putf((double)sext(a.lo, fw), tw));
    case SpvOpConvertUToF:
        if (!known(&a))
            return unk_float();
        return kv(putf((double)(a.lo & wmask(fw)), tw));
    case SpvOpUConvert:
        if (known(&a))
            return kv(a.lo & wmask(fw) & wmask(tw));
        if (a.hi <= wmask(tw))
            return a;
        return full_int(tw);
    case SpvOpSConvert:
        if (known(&a))
            return kv((uint64_t)sext(a.lo, fw) & wmask(tw));
        if (fw > 1 && a.hi < (1ull << (fw - 1)) && a.hi <= wmask(tw))
            return a;
        return full_int(tw);
    case SpvOpFConvert:
        if (!known(&a))
            return unk_float();
        return kv(putf(getf(a.lo, fw), tw));
    case SpvOpQuantizeToF16:
        if (!known(&a))
            return unk_float();
        return kv(putf(cw_half_to_float(cw_float_to_half((float)getf(a.lo, fw))), tw));
    case SpvOpBitcast:
        if (to->kind == EVK_INT) {
            if (from->kind == EVK_INT && fw == tw)
                return a;
            return known(&a) ? kv(a.lo & wmask(tw)) : full_int(tw);
        }
        if (to->kind == EVK_FLOAT)
            return known(&a) ? kv(a.lo & wmask(tw)) : unk_float();
        return a;
    default:
        return to->kind == EVK_INT ? full_int(tw) : unk_float();
    }
}

static double fsign(double x) { return x > 0 ? 1.0 : x < 0 ? -1.0 : x; }

/* GLSL.std.450 on component k of the arguments. */
static ev_val glsl_comp(uint32_t fn, const ev_val *args[], uint32_t nargs,
                        uint32_t k, const ev_type *rt, const uint32_t *argn)
{
    unsigned w = rt->width ? rt->width : 32;
    ev_val a[3];
    for (uint32_t i = 0; i < nargs && i < 3; i++)
        a[i] = args[i][argn[i] > 1 ? k : 0];
    if (rt->kind == EVK_INT) {
        uint64_t mk = wmask(w);
        switch (fn) {
        case GLSLstd450UMin: case GLSLstd450UMax: {
            if (nargs < 2) break;
            int mn = fn == GLSLstd450UMin;
            ev_val r;
            r.lo = mn ? (a[0].lo < a[1].lo ? a[0].lo : a[1].lo)
                      : (a[0].lo > a[1].lo ? a[0].lo : a[1].lo);
            r.hi = mn ? (a[0].hi < a[1].hi ? a[0].hi : a[1].hi)
                      : (a[0].hi > a[1].hi ? a[0].hi : a[1].hi);
            return r;
        }
        case GLSLstd450UClamp: {
            if (nargs < 3) break;
            ev_val r = a[0];
            if (r.lo < a[1].lo) r.lo = a[1].lo;
            if (r.hi < a[1].lo) r.hi = a[1].lo;
            if (r.hi > a[2].hi) r.hi = a[2].hi;
            if (r.lo > a[2].hi) r.lo = a[2].hi;
            return r;
        }
        case GLSLstd450SMin: case GLSLstd450SMax: case GLSLstd450SClamp: {
            uint32_t n = fn == GLSLstd450SClamp ? 3 : 2;
            if (nargs < n) break;
            int allk = 1;
            for (uint32_t i = 0; i < n; i++)
                allk &= known(&a[i]);
            if (!allk) {
                uint64_t half = 1ull << (w - 1);
                int nonneg = 1;
                for (uint32_t i = 0; i < n; i++)
                    nonneg &= a[i].hi < half;
                if (!nonneg) break;
                uint32_t ufn = fn == GLSLstd450SMin ? GLSLstd450UMin
                             : fn == GLSLstd450SMax ? GLSLstd450UMax : GLSLstd450UClamp;
                const ev_val *na[3] = {&a[0], &a[1], &a[2]};
                uint32_t one[3] = {1, 1, 1};
                return glsl_comp(ufn, na, nargs, 0, rt, one);
            }
            int64_t x = sext(a[0].lo, w), y = sext(a[1].lo, w);
            int64_t r = fn == GLSLstd450SMin ? (x < y ? x : y)
                      : fn == GLSLstd450SMax ? (x > y ? x : y) : x;
            if (fn == GLSLstd450SClamp) {
                int64_t z = sext(a[2].lo, w);
                r = x < y ? y : x > z ? z : x;
            }
            return kv((uint64_t)r & mk);
        }
        case GLSLstd450SAbs:
            if (known(&a[0])) {
                int64_t x = sext(a[0].lo, w);
                return kv((uint64_t)(x < 0 ? -x : x) & mk);
            }
            break;
        case GLSLstd450FindUMsb:
            if (known(&a[0]))
                return kv(((uint64_t)bits_for(a[0].lo) - 1) & mk);
            break;
        case GLSLstd450FindILsb:
            if (known(&a[0]))
                return kv(a[0].lo ? (uint64_t)__builtin_ctzll(a[0].lo) : mk);
            break;
        default:
            break;
        }
        return full_int(w);
    }
    for (uint32_t i = 0; i < nargs && i < 3; i++)
        if (!known(&a[i]))
            return unk_float();
    double x = nargs > 0 ? getf(a[0].lo, w) : 0, y = nargs > 1 ? getf(a[1].lo, w) : 0,
           z = nargs > 2 ? getf(a[2].lo, w) : 0, r;
    switch (fn) {
    case GLSLstd450Round: r = round(x); break;
    case GLSLstd450RoundEven: r = nearbyint(x); break;
    case GLSLstd450Trunc: r = trunc(x); break;
    case GLSLstd450FAbs: r = fabs(x); break;
    case GLSLstd450FSign: r = fsign(x); break;
    case GLSLstd450Floor: r = floor(x); break;
    case GLSLstd450Ceil: r = ceil(x); break;
    case GLSLstd450Fract: r = x - floor(x); break;
    case GLSLstd450Sin: r = sin(x); break;
    case GLSLstd450Cos: r = cos(x); break;
    case GLSLstd450Tan: r = tan(x); break;
    case GLSLstd450Asin: r = asin(x); break;
    case GLSLstd450Acos: r = acos(x); break;
    case GLSLstd450Atan: r = atan(x); break;
    case GLSLstd450Sinh: r = sinh(x); break;
    case GLSLstd450Cosh: r = cosh(x); break;
    case GLSLstd450Tanh: r = tanh(x); break;
    case GLSLstd450Atan2: r = atan2(x, y); break;
    case GLSLstd450Pow: r = pow(x, y); break;
    case GLSLstd450Exp: r = exp(x); break;
    case GLSLstd450Log: r = log(x); break;
    case GLSLstd450Exp2: r = exp2(x); break;
    case GLSLstd450Log2: r = log2(x); break;
    case GLSLstd450Sqrt: r = sqrt(x); break;
    case GLSLstd450InverseSqrt: r = 1.0 / sqrt(x); break;
    case GLSLstd450FMin: case GLSLstd450NMin: r = fmin(x, y); break;
    case GLSLstd450FMax: case GLSLstd450NMax: r = fmax(x, y); break;
    case GLSLstd450FClamp: case GLSLstd450NClamp: r = fmin(fmax(x, y), z); break;
    case GLSLstd450FMix: r = x * (1 - z) + y * z; break;
    case GLSLstd450Step: r = y < x ? 0.0 : 1.0; break;
    case GLSLstd450Fma: r = fma(x, y, z); break;
    default: return unk_float();
    }
    if (w == 32)
        r = (float)r;
    return kv(putf(r, w));
}

static uint32_t flat_path(ev_ctx *c, uint32_t tid, const uint32_t *idx,
                          uint32_t n, uint32_t *out_tid)
{
    uint32_t off = 0;
    for (uint32_t i = 0; i < n; i++) {
        const spv_type *st = spv_type_of(c->m, tid);
        if (!st)
            return EV_NONE;
        switch (st->kind) {
        case SPV_T_STRUCT: {
            if (idx[i] >= st->nmembers)
                return EV_NONE;
            uint32_t d = flat_member_offset(c, st, idx[i]);
            if (d == EV_NONE)
                return EV_NONE;
            off += d;
            tid = st->members[idx[i]].type;
            break;
        }
        case SPV_T_ARRAY: case SPV_T_VECTOR: case SPV_T_MATRIX: {
            uint32_t f = tinfo(c, st->elem)->flat;
            if (f == EV_NONE || (st->kind != SPV_T_ARRAY && idx[i] >= st->count) ||
                (st->kind == SPV_T_ARRAY && idx[i] >= st->length))
                return EV_NONE;
            off += idx[i] * f;
            tid = st->elem;
            break;
        }
        default:
            return EV_NONE;
        }
    }
    *out_tid = tid;
    return off;
}

static const ev_type *val_type(ev_ctx *c, uint32_t id)
{
    const spv_type *t = spv_value_type(c->m, id);
    return tinfo(c, t ? t->id : 0);
}

/* Base and per-lane stride of an operand's values (stride 0: the same
 * for every lane); NULL when it has fewer than need components. */
static const ev_val *opnd(const ev_ctx *c, uint32_t id, uint32_t need,
                          size_t *stride)
{
    *stride = 0;
    if (id >= c->bound || c->nflat[id] < need)
        return NULL;
    if (c->reg_off[id] != EV_NONE) {
        *stride = c->nflat[id];
        return c->pool + c->reg_off[id];
    }
    if (c->const_off[id] != EV_NONE)
        return c->cpool + c->const_off[id];
    return NULL;
}

/* Scalar binary arithmetic and comparisons, the bulk of executed code:
 * the opcode is decided once, not per lane.  Returns 0 when not handled. */
static int exec_scalar_binary(ev_ctx *c, const spv_inst *in, const uint16_t *lanes,
                              int n)
{
    uint32_t op = in->opcode, res = in->result_id;
    int kind;
    switch (op) {
    case SpvOpIAdd: case SpvOpISub: case SpvOpIMul: case SpvOpUDiv:
    case SpvOpSDiv: case SpvOpUMod: case SpvOpSRem: case SpvOpSMod:
    case SpvOpShiftLeftLogical: case SpvOpShiftRightLogical:
    case SpvOpShiftRightArithmetic: case SpvOpBitwiseAnd:
    case SpvOpBitwiseOr: case SpvOpBitwiseXor:
        kind = 0;
        break;
    case SpvOpFAdd: case SpvOpFSub: case SpvOpFMul: case SpvOpFDiv:
        kind = 1;
        break;
    case SpvOpIEqual: case SpvOpINotEqual: case SpvOpULessThan:
    case SpvOpSLessThan: case SpvOpULessThanEqual: case SpvOpSLessThanEqual:
    case SpvOpUGreaterThan: case SpvOpSGreaterThan:
    case SpvOpUGreaterThanEqual: case SpvOpSGreaterThanEqual:
    case SpvOpFOrdLessThan: case SpvOpFOrdGreaterThan:
    case SpvOpFOrdLessThanEqual: case SpvOpFOrdGreaterThanEqual:
    case SpvOpFOrdEqual: case SpvOpFOrdNotEqual:
        kind = 2;
        break;
    default:
        return 0;
    }
    size_t sa, sb;
    const ev_val *a = opnd(c, in->ops[0], 1, &sa), *b = opnd(c, in->ops[1], 1, &sb);
    if (!a || !b)
        return 0;
    const ev_type *rt = tinfo(c, in->type_id);
    unsigned w = rt->width ? rt->width : 32;
    const ev_type *ot = kind == 2 ? val_type(c, in->ops[0]) : rt;
    ev_val *r = c->pool + c->reg_off[res];
    for (int j = 0; j < n; j++) {
        uint32_t l = lanes[j];
        const ev_val *x = a + l * sa, *y = b + l * sb;
        ev_val *o = r + l;
        if (kind == 0)
            *o = int_bin(op, *x, *y, w);
        else if (kind == 1)
            *o = float_bin(op, *x, *y, w);
        else
            *o = compare(op, *x, *y, ot);
    }
    return 1;
}

/* Subgroup elect / broadcast-first over the lanes running together: the
 * lowest such lane of each subgroup is the elected one. */
static int exec_subgroup(ev_ctx *c, const spv_inst *in, const uint16_t *lanes,
                         int n)
{
    uint32_t res = in->result_id, nf = c->nflat[res];
    uint32_t sg = c->info.subgroup ? c->info.subgroup : 32;
    if (in->opcode == SpvOpGroupNonUniformBroadcastFirst &&
        (in->nops < 2 || NF(c, in->ops[1]) != nf))
        return 0;
    uint32_t first = EV_NONE;
    for (int j = 0; j < n; j++) {
        uint32_t l = lanes[j];
        if (first == EV_NONE || c->lane_real[l] / sg != c->lane_real[first] / sg)
            first = l;
        ev_val *r = RV(c, res, l);
        if (in->opcode == SpvOpGroupNonUniformElect)
            r[0] = kv(l == first);
        else
            memcpy(r, V(c, in->ops[1], first), nf * sizeof *r);
    }
    return 1;
}

/* Executes a non-control, non-memory instruction for the lanes. */
static void exec_value(ev_ctx *c, uint32_t ii, const spv_inst *in,
                       const uint16_t *lanes, int n)
{
    uint32_t res = in->result_id, op = in->opcode;
    (void)ii;
    if (!has_reg(c, res))
        return;
    if ((op == SpvOpGroupNonUniformElect || op == SpvOpGroupNonUniformBroadcastFirst) &&
        exec_subgroup(c, in, lanes, n))
        return;
    if (c->nflat[res] == 1 && in->nops >= 2 && exec_scalar_binary(c, in, lanes, n))
        return;
    const ev_type *rt = tinfo(c, in->type_id);
    uint32_t nf = c->nflat[res];
    unsigned w = rt->width ? rt->width : 32;
    const uint32_t *o = in->ops;
    uint32_t no = in->nops;
    for (int j = 0; j < n; j++) {
        uint32_t lane = lanes[j];
        ev_val *r = RV(c, res, lane);
        switch (op) {
        case SpvOpIAdd: case SpvOpISub: case SpvOpIMul: case SpvOpUDiv:
        case SpvOpSDiv: case SpvOpUMod: case SpvOpSRem: case SpvOpSMod:
        case SpvOpShiftLeftLogical: case SpvOpShiftRightLogical:
        case SpvOpShiftRightArithmetic: case SpvOpBitwiseAnd:
        case SpvOpBitwiseOr: case SpvOpBitwiseXor: {
            if (no < 2) goto unknown;
            uint32_t nb = NF(c, o[1]) > 1 ? nf : 1;
            const ev_val *a = Vn(c, o[0], lane, nf), *b = Vn(c, o[1], lane, nb);
            for (uint32_t k = 0; k < nf; k++)
                r[k] = int_bin(op, a[k], b[nb > 1 ? k : 0], w);
            break;
        }
        case SpvOpFAdd: case SpvOpFSub: case SpvOpFMul: case SpvOpFDiv:
        case SpvOpFRem: case SpvOpFMod: {
            if (no < 2) goto unknown;
            const ev_val *a = Vn(c, o[0], lane, nf), *b = Vn(c, o[1], lane, nf);
            for (uint32_t k = 0; k < nf; k++)
                r[k] = float_bin(op, a[k], b[k], w);
            break;
        }
        case SpvOpVectorTimesScalar: {
            if (no < 2) goto unknown;
            const ev_val *a = Vn(c, o[0], lane, nf), *b = Vn(c, o[1], lane, 1);
            for (uint32_t k = 0; k < nf; k++)
                r[k] = float_bin(SpvOpFMul, a[k], b[0], w);
            break;
        }
        case SpvOpDot: {
            if (no < 2) goto unknown;
            uint32_t na = NF(c, o[0]);
            const ev_val *a = Vn(c, o[0], lane, na), *b = Vn(c, o[1], lane, na);
            double s = 0;
            int ok = 1;
            for (uint32_t k = 0; k < na && k < EV_MAX_FLAT; k++) {
                if (!known(&a[k]) || !known(&b[k])) { ok = 0; break; }
                s += getf(a[k].lo, w) * getf(b[k].lo, w);
            }
            r[0] = ok ? kv(putf(s, w)) : unk_float();
            break;
        }
        case SpvOpSNegate: case SpvOpNot: {
            if (no < 1) goto unknown;
            const ev_val *a = Vn(c, o[0], lane, nf);
            for (uint32_t k = 0; k < nf; k++)
                r[k] = known(&a[k]) ? kv((op == SpvOpNot ? ~a[k].lo : (0 - a[k].lo)) &
                                         wmask(w))
                                    : full_int(w);
            break;
        }
        case SpvOpFNegate: {
            if (no < 1) goto unknown;
            const ev_val *a = Vn(c, o[0], lane, nf);
            for (uint32_t k = 0; k < nf; k++)
                r[k] = known(&a[k]) ? kv(putf(-getf(a[k].lo, w), w)) : unk_float();
            break;
        }
        case SpvOpLogicalNot: {
            if (no < 1) goto unknown;
            const ev_val *a = Vn(c, o[0], lane, nf);
            for (uint32_t k = 0; k < nf; k++)
                r[k] = known(&a[k]) ? kv(!a[k].lo) : unk_bool();
            break;
        }
        case SpvOpLogicalAnd: case SpvOpLogicalOr: {
            if (no < 2) goto unknown;
            const ev_val *a = Vn(c, o[0], lane, nf), *b = Vn(c, o[1], lane, nf);
            uint64_t dom = op == SpvOpLogicalAnd ? 0 : 1;
            for (uint32_t k = 0; k < nf; k++) {
                if ((known(&a[k]) && a[k].lo == dom) || (known(&b[k]) && b[k].lo == dom))
                    r[k] = kv(dom);
                else if (known(&a[k]) && known(&b[k]))
                    r[k] = kv(!dom);
                else
                    r[k] = unk_bool();
            }
            break;
        }
        case SpvOpIEqual: case SpvOpINotEqual: case SpvOpULessThan:
        case SpvOpSLessThan: case SpvOpULessThanEqual: case SpvOpSLessThanEqual:
        case SpvOpUGreaterThan: case SpvOpSGreaterThan:
        case SpvOpUGreaterThanEqual: case SpvOpSGreaterThanEqual:
        case SpvOpLogicalEqual: case SpvOpLogicalNotEqual:
        case SpvOpFOrdEqual: case SpvOpFUnordEqual: case SpvOpFOrdNotEqual:
        case SpvOpFUnordNotEqual: case SpvOpFOrdLessThan:
        case SpvOpFUnordLessThan: case SpvOpFOrdGreaterThan:
        case SpvOpFUnordGreaterThan: case SpvOpFOrdLessThanEqual:
        case SpvOpFUnordLessThanEqual: case SpvOpFOrdGreaterThanEqual:
        case SpvOpFUnordGreaterThanEqual: {
            if (no < 2) goto unknown;
            const ev_type *ot = val_type(c, o[0]);
            const ev_val *a = Vn(c, o[0], lane, nf), *b = Vn(c, o[1], lane, nf);
            for (uint32_t k = 0; k < nf; k++)
                r[k] = compare(op, a[k], b[k], ot);
            break;
        }
        case SpvOpIsNan: case SpvOpIsInf: {
            if (no < 1) goto unknown;
            const ev_type *ot = val_type(c, o[0]);
            const ev_val *a = Vn(c, o[0], lane, nf);
            for (uint32_t k = 0; k < nf; k++) {
                if (!known(&a[k])) { r[k] = unk_bool(); continue; }
                double x = getf(a[k].lo, ot->width);
                r[k] = kv(op == SpvOpIsNan ? isnan(x) != 0 : isinf(x) != 0);
            }
            break;
        }
        case SpvOpAny: case SpvOpAll: {
            if (no < 1) goto unknown;
            const ev_val *a = V(c, o[0], lane);
            uint32_t na = NF(c, o[0]);
            int any = 0, all = 1, unk = 0;
            for (uint32_t k = 0; k < na; k++) {
                if (!known(&a[k])) { unk = 1; continue; }
                any |= a[k].lo != 0;
                all &= a[k].lo != 0;
            }
            if (op == SpvOpAny)
                r[0] = any ? kv(1) : unk ? unk_bool() : kv(0);
            else
                r[0] = !all ? kv(0) : unk ? unk_bool() : kv(1);
            break;
        }
        case SpvOpSelect: {
            if (no < 3) goto unknown;
            uint32_t nc = NF(c, o[0]) > 1 ? 1 : 0;
            const ev_val *cd = Vn(c, o[0], lane, nc ? nf : 1), *a = Vn(c, o[1], lane, nf),
                         *b = Vn(c, o[2], lane, nf);
            for (uint32_t k = 0; k < nf; k++) {
                const ev_val *cc = &cd[nc ? k : 0];
                if (known(cc)) {
                    r[k] = cc->lo ? a[k] : b[k];
                } else if (rt->kind == EVK_INT) {
                    ev_val h = {a[k].lo < b[k].lo ? a[k].lo : b[k].lo,
                                a[k].hi > b[k].hi ? a[k].hi : b[k].hi};
                    r[k] = h;
                } else if (known(&a[k]) && known(&b[k]) && a[k].lo == b[k].lo) {
                    r[k] = a[k];
                } else {
                    r[k] = rt->kind == EVK_BOOL ? unk_bool() : unk_float();
                }
            }
            break;
        }
        case SpvOpConvertFToU: case SpvOpConvertFToS: case SpvOpConvertSToF:
        case SpvOpConvertUToF: case SpvOpUConvert: case SpvOpSConvert:
        case SpvOpFConvert: case SpvOpQuantizeToF16: case SpvOpBitcast: {
            if (no < 1) goto unknown;
            const ev_type *ft = val_type(c, o[0]);
            const ev_val *a = Vn(c, o[0], lane, nf);
            if (op == SpvOpBitcast && NF(c, o[0]) != nf) {
                if (ft->kind == EVK_PTR || rt->kind == EVK_PTR)
                    goto unknown;
                goto unknown;
            }
            for (uint32_t k = 0; k < nf; k++)
                r[k] = convert(op, a[k], ft, rt);
            break;
        }
        case SpvOpCopyObject: {
            if (no < 1) goto unknown;
            memcpy(r, Vn(c, o[0], lane, nf), nf * sizeof *r);
            break;
        }
        case SpvOpCompositeConstruct: {
            uint32_t pos = 0;
            for (uint32_t i = 0; i < no && pos < nf; i++) {
                uint32_t pn = NF(c, o[i]) ? NF(c, o[i]) : 1;
                const ev_val *a = V(c, o[i], lane);
                for (uint32_t k = 0; k < pn && pos < nf; k++)
                    r[pos++] = a[k];
            }
            while (pos < nf)
                r[pos++] = unk_float();
            break;
        }
        case SpvOpCompositeExtract: {
            if (no < 1) goto unknown;
            const spv_type *ct = spv_value_type(c->m, o[0]);
            uint32_t et;
            uint32_t off = flat_path(c, ct ? ct->id : 0, o + 1, no - 1, &et);
            if (off == EV_NONE || off + nf > NF(c, o[0]))
                goto unknown;
            memcpy(r, V(c, o[0], lane) + off, nf * sizeof *r);
            break;
        }
        case SpvOpCompositeInsert: {
            if (no < 2) goto unknown;
            uint32_t et;
            uint32_t off = flat_path(c, in->type_id, o + 2, no - 2, &et);
            memcpy(r, Vn(c, o[1], lane, nf), nf * sizeof *r);
            uint32_t pn = NF(c, o[0]) ? NF(c, o[0]) : 1;
            if (off != EV_NONE && off + pn <= nf)
                memcpy(r + off, V(c, o[0], lane), pn * sizeof *r);
            break;
        }
        case SpvOpVectorShuffle: {
            if (no < 2) goto unknown;
            uint32_t na = NF(c, o[0]);
            const ev_val *a = Vn(c, o[0], lane, na), *b = Vn(c, o[1], lane, na);
            for (uint32_t k = 0; k < nf && 2 + k < no; k++) {
                uint32_t s = o[2 + k];
                if (s == 0xffffffffu)
                    r[k] = unk_of(rt);
                else if (s < na)
                    r[k] = a[s];
                else if (s - na < NF(c, o[1]))
                    r[k] = b[s - na];
                else
                    r[k] = unk_of(rt);
            }
            break;
        }
        case SpvOpVectorExtractDynamic: {
            if (no < 2) goto unknown;
            const ev_val *a = V(c, o[0], lane), *ix = V(c, o[1], lane);
            if (known(ix) && ix->lo < NF(c, o[0]))
                r[0] = a[ix->lo];
            else
                r[0] = unk_of(rt);
            break;
        }
        case SpvOpVectorInsertDynamic: {
            if (no < 3) goto unknown;
            const ev_val *ix = V(c, o[2], lane);
            memcpy(r, Vn(c, o[0], lane, nf), nf * sizeof *r);
            if (known(ix) && ix->lo < nf)
                r[ix->lo] = V(c, o[1], lane)[0];
            else
                for (uint32_t k = 0; k < nf; k++)
                    r[k] = unk_of(rt);
            break;
        }
        case SpvOpArrayLength: {
            if (no < 1) goto unknown;
            const ev_val *p = V(c, o[0], lane);
            if (known(&p[0]) && p[0].lo < c->info.nvars) {
                const ev_var *v = &c->info.vars[p[0].lo];
                if (v->buf_known && v->rt_stride && v->buf_bytes >= v->rt_base) {
                    r[0] = kv(((v->buf_bytes - v->rt_base) / v->rt_stride) & wmask(w));
                    break;
                }
            }
            goto unknown;
        }
        case SpvOpExtInst: {
            if (no < 2 || o[0] != c->m->glsl_std_450) goto unknown;
            const ev_val *args[3] = {g_unknown, g_unknown, g_unknown};
            uint32_t argn[3] = {1, 1, 1};
            uint32_t na = no - 2 > 3 ? 3 : no - 2;
            for (uint32_t i = 0; i < na; i++) {
                args[i] = V(c, o[2 + i], lane);
                argn[i] = NF(c, o[2 + i]) ? NF(c, o[2 + i]) : 1;
            }
            uint32_t fn = o[1];
            if (fn == GLSLstd450Length || fn == GLSLstd450Distance) {
                double s = 0;
                int ok = 1;
                const ev_type *at = val_type(c, o[2]);
                for (uint32_t k = 0; k < argn[0]; k++) {
                    if (!known(&args[0][k]) ||
                        (fn == GLSLstd450Distance && !known(&args[1][k]))) {
                        ok = 0;
                        break;
                    }
                    double x = getf(args[0][k].lo, at->width);
                    if (fn == GLSLstd450Distance)
                        x -= getf(args[1][k].lo, at->width);
                    s += x * x;
                }
                r[0] = ok ? kv(putf(sqrt(s), w)) : unk_float();
                break;
            }
            if (fn == GLSLstd450Normalize || fn == GLSLstd450Cross ||
                fn == GLSLstd450SmoothStep || fn == GLSLstd450FaceForward ||
                fn == GLSLstd450Reflect || fn == GLSLstd450Refract ||
                fn == GLSLstd450Ldexp || fn == GLSLstd450Frexp ||
                fn == GLSLstd450Modf || fn == GLSLstd450ModfStruct ||
                fn == GLSLstd450FrexpStruct)
                goto unknown;
            if (fn >= GLSLstd450PackSnorm4x8 && fn <= GLSLstd450UnpackDouble2x32)
                goto unknown;
            for (uint32_t k = 0; k < nf; k++)
                r[k] = glsl_comp(fn, args, na, k, rt, argn);
            break;
        }
        default:
        unknown:
            fill_unknown(c, in->type_id, r, nf);
            if (rt->kind == EVK_PTR)
                for (uint32_t k = 0; k + 1 < nf; k += 2)
                    r[k] = kv(EV_NONE);
            break;
        }
    }
}

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

enum { EVE_MEM = 0, EVE_BRANCH = 1 };

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

static void evl_push(ev_evlist *l, const ev_event *e)
{
    if (l->n >= (1u << 18))
        return;
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 256;
        l->e = realloc(l->e, l->cap * sizeof *l->e);
        if (!l->e)
            abort();
    }
    l->e[l->n++] = *e;
}

/* Static: which ids and variables feed branch conditions or addresses. */
static void setup_ctrl(ev_ctx *c)
{
    const spv_module *m = c->m;
    c->ctrl = xcalloc(c->bound, 1);
    c->vctrl = xcalloc(c->info.nvars + 1, 1);
    for (size_t i = 0; i < m->ninsts; i++) {
        const spv_inst *in = &m->insts[i];
        if (in->func == SPV_NONE || !in->nops)
            continue;
        switch (in->opcode) {
        case SpvOpBranchConditional: case SpvOpSwitch:
            if (in->ops[0] < c->bound)
                c->ctrl[in->ops[0]] = 1;
            break;
        case SpvOpAccessChain: case SpvOpInBoundsAccessChain:
        case SpvOpPtrAccessChain:
            for (uint32_t k = 1; k < in->nops; k++)
                if (in->ops[k] < c->bound)
                    c->ctrl[in->ops[k]] = 1;
            break;
        default:
            break;
        }
    }
    for (int pass = 0; pass < 12; pass++) {
        int changed = 0;
        for (size_t i = m->ninsts; i-- > 0;) {
            const spv_inst *in = &m->insts[i];
            if (in->func == SPV_NONE)
                continue;
            if (in->opcode == SpvOpStore && in->nops >= 2) {
                uint32_t vi = root_var(c, in->ops[0]);
                if (vi != EV_NONE && c->vctrl[vi] && in->ops[1] < c->bound &&
                    !c->ctrl[in->ops[1]]) {
                    c->ctrl[in->ops[1]] = 1;
                    changed = 1;
                }
                continue;
            }
            uint32_t r = in->result_id;
            if (!r || r >= c->bound || !c->ctrl[r])
                continue;
            if (in->opcode == SpvOpLoad && in->nops) {
                uint32_t vi = root_var(c, in->ops[0]);
                if (vi != EV_NONE && !c->vctrl[vi]) {
                    c->vctrl[vi] = 1;
                    changed = 1;
                }
            }
            for (uint32_t k = 0; k < in->nops; k++)
                if (in->ops[k] < c->bound && !c->ctrl[in->ops[k]]) {
                    c->ctrl[in->ops[k]] = 1;
                    changed = 1;
                }
        }
        if (!changed)
            break;
    }
}

static int nonaffine_op(const spv_inst *in, uint32_t glsl)
{
    switch (in->opcode) {
    case SpvOpUDiv: case SpvOpSDiv: case SpvOpUMod: case SpvOpSRem:
    case SpvOpSMod: case SpvOpBitwiseAnd: case SpvOpBitwiseOr:
    case SpvOpBitwiseXor: case SpvOpShiftRightLogical:
    case SpvOpShiftRightArithmetic: case SpvOpNot: case SpvOpSelect:
    case SpvOpConvertFToU: case SpvOpConvertFToS: case SpvOpBitFieldInsert:
    case SpvOpBitFieldSExtract: case SpvOpBitFieldUExtract:
    case SpvOpBitReverse: case SpvOpBitCount: case SpvOpPhi:
        return 1;
    case SpvOpIMul: case SpvOpShiftLeftLogical:
        return 1; /* affine only by an invariant: decided below */
    case SpvOpExtInst:
        return in->nops >= 1 && in->ops[0] == glsl;
    default:
        return 0;
    }
}

/* Static: which ids are non-affine functions of values that change from
 * one loop iteration to the next (k % 4, s >> 1, k * k): loop
 * acceleration must not extrapolate branches or addresses built on them. */
static void setup_affine(ev_ctx *c)
{
    const spv_module *m = c->m;
    ev_info *I = &c->info;
    uint8_t *var = xcalloc(c->bound, 1);      /* variant */
    uint8_t *vvar = xcalloc(I->nvars + 1, 1), *vna = xcalloc(I->nvars + 1, 1);
    c->na = xcalloc(c->bound, 1);
    for (int pass = 0; pass < 12; pass++) {
        int changed = 0;
        for (size_t i = 0; i < m->ninsts; i++) {
            const spv_inst *in = &m->insts[i];
            if (in->func == SPV_NONE || in->block >= m->nblocks)
                continue;
            const spv_block *bl = &m->blocks[in->block];
            int in_loop = bl->loop_header != SPV_NONE || bl->merge == SPV_MERGE_LOOP;
            if (in->opcode == SpvOpStore && in->nops >= 2) {
                uint32_t vi = root_var(c, in->ops[0]);
                uint32_t val = in->ops[1];
                if (vi == EV_NONE || val >= c->bound)
                    continue;
                uint8_t nv = vvar[vi] | (uint8_t)(in_loop ? 1 : 0) | var[val];
                uint8_t nn = vna[vi] | c->na[val];
                if (nv != vvar[vi] || nn != vna[vi]) {
                    vvar[vi] = nv;
                    vna[vi] = nn;
                    changed = 1;
                }
                continue;
            }
            uint32_t r = in->result_id;
            if (!r || r >= c->bound)
                continue;
            uint8_t v = 0, n = 0;
            if (in->opcode == SpvOpLoad && in->nops) {
                uint32_t vi = root_var(c, in->ops[0]);
                if (vi != EV_NONE && (I->vars[vi].cls == EVM_FUNCTION ||
                                      I->vars[vi].cls == EVM_PRIVATE)) {
                    v = vvar[vi];
                    n = vna[vi];
                }
                if (in->ops[0] < c->bound)
                    n |= c->na[in->ops[0]];
            } else {
                uint32_t nvariant = 0;
                for (uint32_t k = 0; k < in->nops; k++) {
                    uint32_t o = in->ops[k];
                    if (o >= c->bound)
                        continue;
                    if (var[o])
                        nvariant++;
                    v |= var[o];
                    n |= c->na[o];
                }
                if (in->opcode == SpvOpPhi && bl->merge == SPV_MERGE_LOOP)
                    v = 1;
                if (nonaffine_op(in, m->glsl_std_450) && nvariant) {
                    /* a product or shift by an invariant stays affine */
                    int affine_mul = (in->opcode == SpvOpIMul ||
                                      in->opcode == SpvOpShiftLeftLogical) &&
                                     nvariant == 1 &&
                                     !(in->opcode == SpvOpShiftLeftLogical && in->nops >= 2 &&
                                       in->ops[1] < c->bound && var[in->ops[1]]);
                    if (in->opcode != SpvOpPhi && !affine_mul)
                        n = 1;
                }
            }
            if (v != var[r] || n != c->na[r]) {
                var[r] |= v;
                c->na[r] |= n;
                changed = 1;
            }
        }
        if (!changed)
            break;
    }
    free(var);
    free(vvar);
    free(vna);
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
    t->seg = realloc(t->seg, (t->nseg + 1) * sizeof *t->seg);
    if (!t->seg)
        abort();
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

static ev_trk *trk_get(ev_ctx *c, uint32_t h)
{
    if (c->trk[h])
        return c->trk[h];
    const spv_module *m = c->m;
    ev_trk *t = xcalloc(1, sizeof *t);
    c->trk[h] = t;
    t->header = h;
    t->fn = m->blocks[h].func;
    t->lo = UINT32_MAX;
    t->hi = 0;
    t->eligible = 1;
    const spv_function *fn = &m->funcs[t->fn];
    for (uint32_t b = fn->first_block; b < fn->first_block + fn->nblocks; b++) {
        if (!block_in_loop(m, b, h))
            continue;
        if (m->blocks[b].first < t->lo)
            t->lo = m->blocks[b].first;
        if (m->blocks[b].last > t->hi)
            t->hi = m->blocks[b].last;
    }
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
    /* state: function and private variables, the header's phis */
    ev_info *I = &c->info;
    for (size_t v = 0; v < I->nvars; v++) {
        ev_var *var = &I->vars[v];
        if (!var->mem || (var->cls != EVM_FUNCTION && var->cls != EVM_PRIVATE))
            continue;
        const spv_var *sv = spv_var_of(m, var->id);
        if (var->cls == EVM_FUNCTION && (!sv || sv->func != t->fn))
            continue;
        seg_add(t, var->mem, var->nflat, var->nflat, c->vctrl[v],
                tinfo(c, var->pointee));
    }
    for (uint32_t i = m->blocks[h].first; i <= m->blocks[h].last; i++) {
        const spv_inst *in = &m->insts[i];
        if (in->opcode != SpvOpPhi || !has_reg(c, in->result_id))
            continue;
        seg_add(t, c->pool + c->reg_off[in->result_id], c->nflat[in->result_id],
                c->nflat[in->result_id], c->ctrl[in->result_id], tinfo(c, in->type_id));
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

static void trk_free(ev_trk *t)
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

static void trk_bad(ev_ctx *c, uint32_t inst)
{
    for (int k = 0; k < c->narmed; k++) {
        ev_trk *t = c->armed[k];
        if (inst >= t->lo && inst <= t->hi)
            t->bad_cur = 1;
    }
}

static void trk_mem(ev_ctx *c, uint32_t inst, uint32_t lane, uint32_t vi,
                    int64_t lo, int64_t hi, int store, int atomic)
{
    if (!c->narmed)
        return;
    uint8_t na = 0;
    if (lo == hi && c->m->insts[inst].nops && c->m->insts[inst].ops[0] < c->bound &&
        c->na[c->m->insts[inst].ops[0]]) {
        /* an address that is not affine in the loop state: only counted
           in skipped iterations, which is exact for workgroup memory (no
           bytes from DRAM depend on it); a buffer's touched bytes would
           not be */
        if (c->info.vars[vi].cls != EVM_SHARED) {
            trk_bad(c, inst);
            return;
        }
        na = 4;
    }
    ev_event e = {inst, (uint16_t)lane, EVE_MEM,
                  (uint8_t)((store ? 1 : 0) | (atomic ? 2 : 0) | na), lo, vi, 0, 0, hi - lo};
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

static void trk_branch(ev_ctx *c, uint32_t inst, uint32_t lane, uint32_t cond)
{
    if (!c->narmed)
        return;
    const spv_inst *d = spv_def(c->m, cond);
    if (!d || !is_cmp(d->opcode) || d->nops < 2) {
        /* a constant condition is fine; anything else is not modelled */
        if (!(cond < c->bound && c->const_off[cond] != EV_NONE))
            trk_bad(c, inst);
        return;
    }
    if ((d->ops[0] < c->bound && c->na[d->ops[0]]) ||
        (d->ops[1] < c->bound && c->na[d->ops[1]])) {
        trk_bad(c, inst);
        return;
    }
    const ev_val *a = V(c, d->ops[0], lane), *b = V(c, d->ops[1], lane);
    const ev_type *t = val_type(c, d->ops[0]);
    if (!known(a) || !known(b) || t->kind != EVK_INT || NF(c, d->ops[0]) > 1) {
        trk_bad(c, inst);
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
        uint32_t lid[3], g[3];
        lane_ids(c, e->lane, lid);
        for (int d = 0; d < 3; d++)
            g[d] = c->gid[d] * c->info.local[d] + lid[d];
        if (s->oob_count == 0 || idx < s->oob_idx_min)
            s->oob_idx_min = idx;
        if (s->oob_count == 0 || idx > s->oob_idx_max)
            s->oob_idx_max = idx;
        for (int d = 0; d < 3; d++) {
            if (s->oob_count == 0 || g[d] < s->oob_gid_min[d])
                s->oob_gid_min[d] = g[d];
            if (s->oob_count == 0 || g[d] > s->oob_gid_max[d])
                s->oob_gid_max[d] = g[d];
        }
        s->oob_count += 1;
        s->oob_certain |= !c->l_taint[e->lane] && !uncertain;
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
            (p->kind == EVE_MEM && (p->b != q->b || p->span != q->span)))
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
    double Kd = (double)K;

    /* account the skipped iterations */
    for (size_t k = 0; k < R; k++)
        c->grp->icount[t->lo + k] += Kd * (t->ic[i2][k] - t->ic[i1][k]);
    c->grp->barriers += Kd * (t->bars[i2] - t->bars[i1]);
    c->epoch += (uint32_t)(t->bars[i2] - t->bars[i1]) * (K > 1000000 ? 1000000 : (uint32_t)K);
    for (size_t k = 0; k < ce->n; k++) {
        const ev_event *q = &ce->e[k];
        if (q->kind != EVE_MEM)
            continue;
        int64_t d = q->a - pe->e[k].a;
        uint32_t a = c->acc_of_inst[q->inst];
        if (a != EV_NONE)
            c->grp->acc[a].count += Kd;
        if (q->flags & 3)
            c->l_side[q->lane] = 1;
        if (q->flags & 4)
            continue; /* not affine: counted only */
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
        fp_tuple *tu = xcalloc(ce->n + 1, sizeof *tu);
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
                    tu = realloc(tu, (nt + ce->n + 2) * sizeof *tu);
                    if (!tu)
                        abort();
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
                runs_add(r, lo < 0 ? 0 : lo, hi > t2->lim ? t2->lim : hi);
                continue;
            }
            for (int64_t st = 1; st <= tmax; st++) {
                int64_t lo = t2->lo + st * d, hi = lo + ext;
                if (lo < 0) lo = 0;
                if (hi > t2->lim) hi = t2->lim;
                runs_add(r, lo, hi);
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
        for (int64_t s = 1; s <= K; s++)
            for (size_t e = 0; e < ce->n; e++) {
                ev_event q = ce->e[e];
                int64_t da = q.a - pe->e[e].a, db = q.b - pe->e[e].b;
                q.a += s * da;
                if (q.kind == EVE_BRANCH)
                    q.b += s * db;
                evl_push(&o->cur, &q);
            }
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
        if (q->flags & 4) {
            /* stored somewhere not extrapolated: the whole variable now
               holds values we did not compute */
            for (uint32_t cc = 0; cc < v->nflat; cc++) {
                v->mem[cc] = unk_of(NULL);
                v->shm[cc].init = 1;
            }
            continue;
        }
        int64_t d = q->a - pe->e[k].a;
        uint32_t a = c->acc_of_inst[q->inst];
        const ev_type *et = tinfo(c, v->pointee);
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
                if (at + cc >= 0 && (uint64_t)(at + cc) < v->nflat) {
                    v->mem[at + cc] = unk_of(NULL);
                    v->shm[at + cc].init = 1;
                }
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
static void trk_arrive(ev_ctx *c, uint32_t b, const uint16_t *lanes, int n)
{
    const spv_module *m = c->m;
    if (!c->trk || m->blocks[b].merge != SPV_MERGE_LOOP)
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
        t->lanes = realloc(t->lanes, (size_t)(n ? n : 1) * sizeof *t->lanes);
        if (!t->lanes)
            abort();
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

static void trk_group_start(ev_ctx *c)
{
    for (int k = 0; k < c->narmed; k++)
        c->armed[k]->armed = 0;
    c->narmed = 0;
    if (c->trk)
        for (size_t b = 0; b < c->m->nblocks; b++)
            if (c->trk[b])
                trk_reset(c->trk[b]);
}

/* ------------------------------------------------------------------ */
/* control flow and scheduling                                          */

static void lane_goto_block(ev_ctx *c, uint32_t lane, uint32_t from, uint32_t t)
{
    if (t == SPV_NONE || t >= c->m->nblocks) {
        c->l_state[lane] = LS_DEAD;
        if (c->nlive)
            c->nlive--;
        return;
    }
    c->l_prev[lane] = from;
    c->l_block[lane] = t;
    c->l_inst[lane] = c->m->blocks[t].first + 1;
}

static void lane_goto(ev_ctx *c, uint32_t lane, uint32_t from, uint32_t label)
{
    lane_goto_block(c, lane, from, spv_block_of_label(c->m, label));
}

static int inst_line_or_block(ev_ctx *c, uint32_t ii, uint32_t b)
{
    int line = ev_inst_line(c->m, ii);
    const spv_block *bl = &c->m->blocks[b];
    for (uint32_t k = bl->last + 1; line == 0 && k-- > bl->first;)
        line = ev_inst_line(c->m, k);
    return line;
}

/* Target for a lane whose branch condition depends on unknown data. */
static uint32_t pick_unknown(ev_ctx *c, uint32_t b, uint32_t ii,
                             uint32_t lane, uint32_t t_true, uint32_t t_false)
{
    const spv_module *m = c->m;
    const spv_block *bl = &m->blocks[b];
    uint32_t hdr = bl->merge == SPV_MERGE_LOOP ? b : bl->loop_header;
    c->l_taint[lane] = 1;
    c->grp->unknown_branch = 1;
    if (hdr != SPV_NONE && hdr < m->nblocks) {
        uint32_t mb = m->blocks[hdr].merge_block;
        uint32_t ml = mb < m->nblocks ? m->blocks[mb].label : 0;
        if (ml && (t_true == ml || t_false == ml)) {
            uint32_t exit = ml, stay = t_true == ml ? t_false : t_true;
            trk_bad(c, ii); /* the assumed trip count is not a comparison */
            if (!c->noted_inst[ii]) {
                c->noted_inst[ii] = 1;
                ev_note(c, "loop at line %d depends on buffer contents: "
                           "assumed %u iterations",
                        inst_line_or_block(c, ii, b), c->opt.unknown_loop_iterations);
            }
            if (c->l_unk_iter[lane] < c->opt.unknown_loop_iterations) {
                c->l_unk_iter[lane]++;
                return stay;
            }
            c->l_unk_iter[lane] = 0;
            return exit;
        }
    }
    if (!c->noted_inst[ii]) {
        c->noted_inst[ii] = 1;
        ev_note(c, "branch at line %d depends on buffer contents: assumed taken",
                inst_line_or_block(c, ii, b));
    }
    return t_true;
}

static void lane_finish(ev_ctx *c, uint32_t lane, uint32_t ii, int depth,
                        int kill)
{
    if (kill || depth == 0) {
        c->l_state[lane] = kill ? LS_DEAD : LS_RET;
        c->l_ret_inst[lane] = ii;
        if (c->nlive)
            c->nlive--;
    } else {
        c->l_state[lane] = LS_RET;
    }
}

static void run_frame(ev_ctx *c, uint32_t f, const uint16_t *lanes, int n,
                      int depth, uint32_t ret_id);

static void init_function_vars(ev_ctx *c, uint32_t f, const uint16_t *lanes,
                               int n)
{
    ev_info *I = &c->info;
    for (size_t i = 0; i < I->nvars; i++) {
        ev_var *v = &I->vars[i];
        if (v->cls != EVM_FUNCTION || !v->mem)
            continue;
        const spv_var *sv = spv_var_of(c->m, v->id);
        if (!sv || sv->func != f)
            continue;
        for (int j = 0; j < n; j++) {
            ev_val *dst = v->mem + (size_t)lanes[j] * v->nflat;
            if (sv->init && NF(c, sv->init) == v->nflat)
                memcpy(dst, V(c, sv->init, lanes[j]), v->nflat * sizeof *dst);
            else
                fill_unknown(c, v->pointee, dst, v->nflat);
        }
    }
}

static void exec_call(ev_ctx *c, uint32_t ii, const spv_inst *in,
                      const uint16_t *lanes, int n, int depth)
{
    const spv_function *fn = in->nops ? spv_func_of(c->m, in->ops[0]) : NULL;
    if (!fn || depth + 1 >= c->depth_max) {
        if (has_reg(c, in->result_id))
            for (int j = 0; j < n; j++)
                fill_unknown(c, in->type_id, RV(c, in->result_id, lanes[j]),
                             c->nflat[in->result_id]);
        ev_note(c, "function call at line %d not evaluated (nesting too deep)",
                ev_inst_line(c->m, ii));
        return;
    }
    uint32_t fi = (uint32_t)(fn - c->m->funcs);
    for (uint32_t k = 0; k < fn->nparams && k + 1 < in->nops; k++) {
        uint32_t pid = fn->params[k];
        if (!has_reg(c, pid))
            continue;
        uint32_t nf = c->nflat[pid];
        for (int j = 0; j < n; j++)
            memcpy(RV(c, pid, lanes[j]), Vn(c, in->ops[k + 1], lanes[j], nf),
                   nf * sizeof(ev_val));
    }
    uint32_t *save = xcalloc((size_t)n * 2, sizeof *save);
    for (int j = 0; j < n; j++) {
        save[2 * j] = c->l_block[lanes[j]];
        save[2 * j + 1] = c->l_prev[lanes[j]];
    }
    run_frame(c, fi, lanes, n, depth + 1, in->result_id);
    for (int j = 0; j < n; j++) {
        uint32_t l = lanes[j];
        if (c->l_state[l] == LS_DEAD)
            continue;
        if (c->l_state[l] == LS_RET && c->budget_hit)
            continue;
        c->l_state[l] = LS_RUN;
        c->l_block[l] = save[2 * j];
        c->l_prev[l] = save[2 * j + 1];
        c->l_inst[l] = ii + 1;
    }
    free(save);
}

static void exec_phis(ev_ctx *c, uint32_t b, uint32_t *pi,
                      const uint16_t *lanes, int n)
{
    const spv_module *m = c->m;
    uint32_t i = *pi, end = m->blocks[b].last;
    uint32_t first = i;
    size_t need = 0;
    while (i <= end && (m->insts[i].opcode == SpvOpPhi ||
                        m->insts[i].opcode == SpvOpLine ||
                        m->insts[i].opcode == SpvOpNoLine)) {
        if (m->insts[i].opcode == SpvOpPhi && has_reg(c, m->insts[i].result_id))
            need += (size_t)c->nflat[m->insts[i].result_id] * (size_t)n;
        i++;
    }
    *pi = i;
    if (i == first)
        return;
    ev_val *tmp = xcalloc(need + 1, sizeof *tmp);
    size_t pos = 0;
    for (uint32_t k = first; k < i; k++) {
        const spv_inst *in = &m->insts[k];
        if (in->opcode != SpvOpPhi || !has_reg(c, in->result_id))
            continue;
        uint32_t nf = c->nflat[in->result_id];
        c->grp->icount[k] += n;
        for (int j = 0; j < n; j++) {
            uint32_t lane = lanes[j];
            uint32_t prev = c->l_prev[lane];
            uint32_t plabel = prev < m->nblocks ? m->blocks[prev].label : 0;
            const ev_val *src = g_unknown;
            for (uint32_t q = 0; q + 1 < in->nops; q += 2)
                if (in->ops[q + 1] == plabel) {
                    src = Vn(c, in->ops[q], lane, nf);
                    break;
                }
            memcpy(tmp + pos, src, nf * sizeof *tmp);
            pos += nf;
        }
    }
    pos = 0;
    for (uint32_t k = first; k < i; k++) {
        const spv_inst *in = &m->insts[k];
        if (in->opcode != SpvOpPhi || !has_reg(c, in->result_id))
            continue;
        uint32_t nf = c->nflat[in->result_id];
        for (int j = 0; j < n; j++) {
            memcpy(RV(c, in->result_id, lanes[j]), tmp + pos, nf * sizeof *tmp);
            pos += nf;
        }
    }
    free(tmp);
}

static void exec_block(ev_ctx *c, uint32_t b, uint32_t start,
                       const uint16_t *lanes, int n, int depth,
                       uint32_t ret_id)
{
    const spv_module *m = c->m;
    const spv_block *bl = &m->blocks[b];
    uint32_t i = start;
    if (i == bl->first + 1) {
        exec_phis(c, b, &i, lanes, n);
        if (bl->merge == SPV_MERGE_LOOP)
            trk_arrive(c, b, lanes, n);
    }
    for (; i <= bl->last; i++) {
        const spv_inst *in = &m->insts[i];
        uint32_t op = in->opcode;
        c->grp->icount[i] += n;
        c->steps_total += n;
        switch (op) {
        case SpvOpLine: case SpvOpNoLine: case SpvOpSelectionMerge:
        case SpvOpLoopMerge: case SpvOpNop: case SpvOpVariable: case SpvOpPhi:
        case SpvOpMemoryBarrier:
            break;
        case SpvOpControlBarrier:
            for (int j = 0; j < n; j++) {
                c->l_state[lanes[j]] = LS_BAR;
                c->l_block[lanes[j]] = b;
                c->l_inst[lanes[j]] = i;
            }
            return;
        case SpvOpFunctionCall:
            for (int j = 0; j < n; j++) {
                c->l_block[lanes[j]] = b;
                c->l_inst[lanes[j]] = i + 1;
            }
            exec_call(c, i, in, lanes, n, depth);
            return;
        case SpvOpAccessChain: case SpvOpInBoundsAccessChain:
        case SpvOpPtrAccessChain:
            exec_access_chain(c, i, in, lanes, n);
            break;
        case SpvOpBranch: {
            uint32_t tb = spv_block_of_label(m, in->ops[0]);
            for (int j = 0; j < n; j++)
                lane_goto_block(c, lanes[j], b, tb);
            return;
        }
        case SpvOpBranchConditional: {
            uint32_t tbt = spv_block_of_label(m, in->ops[1]);
            uint32_t tbf = spv_block_of_label(m, in->ops[2]);
            for (int j = 0; j < n; j++) {
                const ev_val *cd = V(c, in->ops[0], lanes[j]);
                uint32_t t;
                if (c->narmed && known(cd))
                    trk_branch(c, i, lanes[j], in->ops[0]);
                if (known(cd))
                    t = cd->lo ? in->ops[1] : in->ops[2];
                else if (in->ops[1] == in->ops[2])
                    t = in->ops[1];
                else
                    t = pick_unknown(c, b, i, lanes[j], in->ops[1], in->ops[2]);
                lane_goto_block(c, lanes[j], b, t == in->ops[1] ? tbt : tbf);
            }
            return;
        }
        case SpvOpSwitch: {
            const ev_type *st = val_type(c, in->ops[0]);
            uint32_t lw = st->width > 32 ? 2 : 1;
            for (int j = 0; j < n; j++) {
                const ev_val *sel = V(c, in->ops[0], lanes[j]);
                uint32_t t = in->ops[1];
                if (known(sel)) {
                    for (uint32_t q = 2; q + lw < in->nops; q += lw + 1) {
                        uint64_t lit = in->ops[q];
                        if (lw == 2)
                            lit |= (uint64_t)in->ops[q + 1] << 32;
                        if ((lit & wmask(st->width ? st->width : 32)) == sel->lo) {
                            t = in->ops[q + lw];
                            break;
                        }
                    }
                } else {
                    c->l_taint[lanes[j]] = 1;
                    if (!c->noted_inst[i]) {
                        c->noted_inst[i] = 1;
                        ev_note(c, "switch at line %d depends on buffer contents: "
                                   "assumed default", inst_line_or_block(c, i, b));
                    }
                }
                lane_goto(c, lanes[j], b, t);
            }
            return;
        }
        case SpvOpReturnValue:
            if (has_reg(c, ret_id) && in->nops >= 1)
                for (int j = 0; j < n; j++)
                    memcpy(RV(c, ret_id, lanes[j]), Vn(c, in->ops[0], lanes[j], c->nflat[ret_id]),
                           c->nflat[ret_id] * sizeof(ev_val));
            /* fall through */
        case SpvOpReturn:
            for (int j = 0; j < n; j++)
                lane_finish(c, lanes[j], i, depth, 0);
            return;
        case SpvOpKill: case SpvOpTerminateInvocation: case SpvOpUnreachable:
            for (int j = 0; j < n; j++)
                lane_finish(c, lanes[j], i, depth, 1);
            return;
        case SpvOpLoad: case SpvOpStore: case SpvOpCopyMemory:
        case SpvOpAtomicLoad: case SpvOpAtomicStore: case SpvOpAtomicExchange:
        case SpvOpAtomicCompareExchange: case SpvOpAtomicIIncrement:
        case SpvOpAtomicIDecrement: case SpvOpAtomicIAdd: case SpvOpAtomicISub:
        case SpvOpAtomicSMin: case SpvOpAtomicUMin: case SpvOpAtomicSMax:
        case SpvOpAtomicUMax: case SpvOpAtomicAnd: case SpvOpAtomicOr:
        case SpvOpAtomicXor: case SpvOpAtomicFAddEXT:
            exec_memory(c, i, in, lanes, n);
            break;
        default:
            exec_value(c, i, in, lanes, n);
            break;
        }
    }
    /* a block without terminator cannot come from the reader; be safe */
    for (int j = 0; j < n; j++)
        lane_finish(c, lanes[j], bl->last, depth, 1);
}

static void barrier_sync(ev_ctx *c, const uint16_t *lanes, int n)
{
    uint32_t inst = EV_NONE, other = EV_NONE, reached = 0, nw = 0;
    uint32_t lane_r = 0, lane_o = EV_NONE;
    int tainted = 0;
    for (int j = 0; j < n; j++) {
        uint32_t l = lanes[j];
        if (c->l_state[l] != LS_BAR)
            continue;
        nw++;
        if (inst == EV_NONE) {
            inst = c->l_inst[l];
            lane_r = l;
        }
        if (c->l_inst[l] == inst) {
            reached++;
        } else if (other == EV_NONE) {
            other = c->l_inst[l];
            lane_o = l;
        }
    }
    for (uint32_t l = 0; l < c->exec_lanes; l++)
        tainted |= c->l_taint[l];
    if (reached != c->exec_lanes) {
        ev_info *I = &c->info;
        int dup = 0;
        for (size_t i = 0; i < I->nbars; i++)
            dup |= I->bars[i].inst == inst;
        if (!dup) {
            ev_bar_rec r;
            memset(&r, 0, sizeof r);
            r.inst = inst;
            r.other_inst = other;
            r.ret_inst = EV_NONE;
            for (uint32_t l = 0; l < c->exec_lanes; l++)
                if ((c->l_state[l] == LS_RET || c->l_state[l] == LS_DEAD) &&
                    c->l_ret_inst[l] != EV_NONE) {
                    r.ret_inst = c->l_ret_inst[l];
                    if (lane_o == EV_NONE)
                        lane_o = l;
                    break;
                }
            if (lane_o == EV_NONE)
                for (uint32_t l = 0; l < c->exec_lanes; l++)
                    if (c->l_state[l] != LS_BAR || c->l_inst[l] != inst) {
                        lane_o = l;
                        break;
                    }
            r.reached = reached;
            r.missing = c->exec_lanes - reached;
            r.lane_reached = c->lane_real[lane_r];
            r.lane_missing = lane_o == EV_NONE ? 0 : c->lane_real[lane_o];
            memcpy(r.group, c->gid, sizeof r.group);
            r.certain = !tainted;
            add_rec((void **)&I->bars, &I->nbars, sizeof r, &r);
        }
    }
    (void)nw;
    c->epoch++;
    c->grp->barriers += 1;
    for (int j = 0; j < n; j++) {
        uint32_t l = lanes[j];
        if (c->l_state[l] == LS_BAR) {
            c->l_state[l] = LS_RUN;
            c->l_inst[l]++;
        }
    }
}

static void run_frame(ev_ctx *c, uint32_t f, const uint16_t *lanes, int n,
                      int depth, uint32_t ret_id)
{
    const spv_module *m = c->m;
    const spv_function *fn = &m->funcs[f];
    uint32_t entry = fn->first_block;
    init_function_vars(c, f, lanes, n);
    for (int j = 0; j < n; j++) {
        uint32_t l = lanes[j];
        c->l_block[l] = entry;
        c->l_inst[l] = m->blocks[entry].first + 1;
        c->l_prev[l] = EV_NONE;
        c->l_state[l] = LS_RUN;
    }
    uint16_t *grp = c->lane_buf + (size_t)(depth + 1) * c->exec_lanes;
    for (;;) {
        if (c->steps_total > c->opt.step_budget) {
            c->budget_hit = 1;
            for (int j = 0; j < n; j++)
                if (c->l_state[lanes[j]] != LS_DEAD)
                    c->l_state[lanes[j]] = LS_RET;
            return;
        }
        /* one pass: the earliest runnable position and its lanes */
        uint64_t best = UINT64_MAX;
        int ng = 0;
        for (int j = 0; j < n; j++) {
            uint32_t l = lanes[j];
            if (c->l_state[l] != LS_RUN)
                continue;
            uint64_t key = ((uint64_t)c->order[c->l_block[l]] << 32) | c->l_inst[l];
            if (key < best) {
                best = key;
                ng = 0;
            }
            if (key == best)
                grp[ng++] = (uint16_t)l;
        }
        if (best == UINT64_MAX) {
            int nb = 0;
            for (int j = 0; j < n; j++)
                nb += c->l_state[lanes[j]] == LS_BAR;
            if (!nb)
                return;
            barrier_sync(c, lanes, n);
            continue;
        }
        uint32_t b = c->l_block[grp[0]], start = c->l_inst[grp[0]];
        exec_block(c, b, start, grp, ng, depth, ret_id);
    }
}

static uint64_t sig_hash(const double *ic, size_t n, double active)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++) {
        if (ic[i] == 0)
            continue;
        uint64_t x = (uint64_t)i * 0x9e3779b97f4a7c15ull ^ (uint64_t)ic[i];
        h = (h ^ x) * 1099511628211ull;
    }
    h = (h ^ (uint64_t)active) * 1099511628211ull;
    return h;
}

void ev_group_run(ev_ctx *c, const uint32_t g[3], ev_group *out)
{
    ev_info *I = &c->info;
    memset(out, 0, sizeof *out);
    memcpy(out->g, g, sizeof out->g);
    out->icount = xcalloc(c->m->ninsts + 1, sizeof(double));
    out->acc = xcalloc(I->nacc + 1, sizeof(ev_acc));
    out->fp = xcalloc((size_t)I->nfp + 1, sizeof(ev_runs));
    if (!g_unknown_init) {
        for (int i = 0; i < EV_MAX_FLAT; i++) {
            g_unknown[i].lo = 0;
            g_unknown[i].hi = ~0ull;
        }
        g_unknown_init = 1;
    }
    c->grp = out;
    memcpy(c->gid, g, sizeof c->gid);
    c->epoch = 1;
    trk_group_start(c);
    double steps0 = c->steps_total;
    int budget0 = c->budget_hit;
    for (size_t i = 0; i < I->nvars; i++) {
        ev_var *v = &I->vars[i];
        if (!v->mem)
            continue;
        const spv_var *sv = spv_var_of(c->m, v->id);
        uint32_t init = sv ? sv->init : 0;
        if (v->cls == EVM_SHARED) {
            memset(v->shm, 0, (size_t)v->nflat * sizeof *v->shm);
            v->unknown_store = 0;
            if (init && NF(c, init) == v->nflat) {
                memcpy(v->mem, V(c, init, 0), v->nflat * sizeof *v->mem);
                for (uint32_t k = 0; k < v->nflat; k++)
                    v->shm[k].init = 1;
            } else {
                fill_unknown(c, v->pointee, v->mem, v->nflat);
            }
        } else if (v->cls == EVM_PRIVATE) {
            for (uint32_t l = 0; l < c->exec_lanes; l++) {
                ev_val *dst = v->mem + (size_t)l * v->nflat;
                if (init && NF(c, init) == v->nflat)
                    memcpy(dst, V(c, init, l), v->nflat * sizeof *dst);
                else
                    fill_unknown(c, v->pointee, dst, v->nflat);
            }
        }
    }
    uint16_t *lanes = c->lane_buf;
    for (uint32_t l = 0; l < c->exec_lanes; l++) {
        c->l_taint[l] = 0;
        c->l_side[l] = 0;
        c->l_ret_inst[l] = EV_NONE;
        c->l_unk_iter[l] = 0;
        c->l_state[l] = LS_DEAD;
    }
    memcpy(lanes, c->run_lanes, c->nrun * sizeof *lanes);
    c->nlive = c->nrun;
    c->budget_hit = 0;
    run_frame(c, c->entry_func, lanes, (int)c->nrun, 0, 0);
    double active = 0;
    for (uint32_t j = 0; j < c->nrun; j++)
        active += c->l_side[c->run_lanes[j]];
    double scale = (double)I->lanes / c->nrun;
    if (scale != 1.0) {
        for (size_t i = 0; i < c->m->ninsts; i++)
            out->icount[i] *= scale;
        for (size_t a = 0; a < I->nacc; a++)
            out->acc[a].count *= scale;
    }
    out->active = active * scale;
    for (int s = 0; s < I->nfp; s++) {
        ev_runs_normalize(&out->fp[s]);
        if (c->sampled)
            out->fp[s].inexact = 1; /* the lanes in between are not in it */
    }
    out->steps = c->steps_total - steps0;
    out->budget_hit = c->budget_hit;
    c->budget_hit |= budget0;
    out->sig = sig_hash(out->icount, c->m->ninsts, out->active);
    c->grp = NULL;
}

void ev_group_free(ev_ctx *c, ev_group *g)
{
    if (!g)
        return;
    free(g->icount);
    free(g->acc);
    if (g->fp)
        for (int s = 0; s < c->info.nfp; s++)
            free(g->fp[s].r);
    free(g->fp);
    memset(g, 0, sizeof *g);
}

/* Independent floating-point chains in the hottest loop: float phis of its
 * header plus float function variables both loaded and stored inside it. */
int ev_fp_chains(ev_ctx *c, const double *icount)
{
    const spv_module *m = c->m;
    uint32_t best = EV_NONE;
    double bestw = 0;
    for (size_t h = 0; h < m->nblocks; h++) {
        if (m->blocks[h].merge != SPV_MERGE_LOOP)
            continue;
        double w = 0;
        for (size_t b = 0; b < m->nblocks; b++) {
            uint32_t x = (uint32_t)b;
            int in_loop = 0;
            for (int guard = 0; guard < 64 && x != SPV_NONE && x < m->nblocks; guard++) {
                if (x == h) { in_loop = 1; break; }
                x = m->blocks[x].loop_header;
            }
            if (!in_loop)
                continue;
            for (uint32_t i = m->blocks[b].first; i <= m->blocks[b].last; i++)
                w += icount[i];
        }
        if (w > bestw) {
            bestw = w;
            best = (uint32_t)h;
        }
    }
    if (best == EV_NONE)
        return 1;
    uint8_t *ld = xcalloc(c->info.nvars + 1, 1), *st = xcalloc(c->info.nvars + 1, 1);
    int chains = 0;
    for (size_t b = 0; b < m->nblocks; b++) {
        uint32_t x = (uint32_t)b;
        int in_loop = 0;
        for (int guard = 0; guard < 64 && x != SPV_NONE && x < m->nblocks; guard++) {
            if (x == best) { in_loop = 1; break; }
            x = m->blocks[x].loop_header;
        }
        if (!in_loop)
            continue;
        for (uint32_t i = m->blocks[b].first; i <= m->blocks[b].last; i++) {
            const spv_inst *in = &m->insts[i];
            if (b == best && in->opcode == SpvOpPhi) {
                const ev_type *t = tinfo(c, in->type_id);
                if (t->kind == EVK_FLOAT && t->flat != EV_NONE)
                    chains += (int)t->flat;
            }
            if ((in->opcode == SpvOpLoad || in->opcode == SpvOpStore) && in->nops) {
                uint32_t vi = root_var(c, in->ops[0]);
                if (vi == EV_NONE || c->info.vars[vi].cls != EVM_FUNCTION)
                    continue;
                (in->opcode == SpvOpLoad ? ld : st)[vi] = 1;
            }
        }
    }
    for (size_t v = 0; v < c->info.nvars; v++) {
        const ev_type *t = tinfo(c, c->info.vars[v].pointee);
        if (ld[v] && st[v] && t->kind == EVK_FLOAT && t->flat != EV_NONE)
            chains += (int)t->flat;
    }
    free(ld);
    free(st);
    return chains > 0 ? chains : 1;
}

/* "tile[3][5]" for component comp of variable vi (component-addressed). */
void ev_comp_name(const ev_info *info, uint32_t vi, uint32_t comp, char *buf,
                  size_t n)
{
    ev_ctx *c = (ev_ctx *)(uintptr_t)info; /* info is the first member */
    const ev_var *v = &info->vars[vi];
    size_t len = (size_t)snprintf(buf, n, "%s", v->name && *v->name ? v->name : "shared");
    uint32_t t = v->pointee;
    for (int guard = 0; guard < 8 && len < n; guard++) {
        const spv_type *st = spv_type_of(c->m, t);
        if (!st || (st->kind != SPV_T_ARRAY && st->kind != SPV_T_VECTOR &&
                    st->kind != SPV_T_STRUCT))
            break;
        if (st->kind == SPV_T_STRUCT) {
            uint32_t off = 0, mi = 0;
            for (mi = 0; mi < st->nmembers; mi++) {
                uint32_t f = tinfo(c, st->members[mi].type)->flat;
                if (f == EV_NONE || comp < off + f)
                    break;
                off += f;
            }
            if (mi >= st->nmembers)
                break;
            const char *mn = st->members[mi].name;
            len += (size_t)snprintf(buf + len, n - len, ".%s", mn ? mn : "member");
            comp -= off;
            t = st->members[mi].type;
            continue;
        }
        uint32_t f = tinfo(c, st->elem)->flat;
        if (f == EV_NONE || f == 0)
            break;
        len += (size_t)snprintf(buf + len, n - len, "[%u]", comp / f);
        comp %= f;
        t = st->elem;
    }
}
