/* eval_prepass.c - the static prepasses that run once per module before
 * any workgroup executes, and the evaluation context's life.  Contract in
 * eval_prepass.h. */
#include "eval_ctx.h"
#include "bufinit.h"
#include "alloc.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/GLSL.std.450.h>
#include <spirv/unified1/spirv.h>

static void setup_ctrl(ev_ctx *c);
static void setup_affine(ev_ctx *c);

int ev_inst_line(const spv_module *m, uint32_t inst)
{
    if (inst >= m->ninsts)
        return 0;
    return m->insts[inst].line;
}

ev_info *ev_ctx_info(ev_ctx *c) { return &c->info; }

int ev_lanes_sampled(const ev_ctx *c) { return c->exec_lanes < c->info.lanes; }

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
    c->info.notes = xrealloc(c->info.notes,
                            (c->info.nnotes + 1) * sizeof *c->info.notes);
    c->info.notes[c->info.nnotes++] = cw_strdup(buf);
}

void eval_default_options(eval_options *o)
{
    o->step_budget = 6e6;
    o->unknown_loop_iterations = 64;
    o->max_groups = 96;
    o->all_groups_below = 16;
    o->every_iteration = 0;
    o->on_access = NULL;
    o->on_access_user = NULL;
    o->runner_contents = 0;
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
    c->cpool = xrealloc(c->cpool, cap * sizeof *c->cpool);
    c->capcpool = cap;
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
uint32_t ev_root_var(ev_ctx *c, uint32_t id)
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

/* Contents the plan gives for a buffer the kernel only reads: the bytes the
 * runner uploads (core/bufinit), so that values read from it can decide
 * control flow and addresses. */
#define EV_IMAGE_MAX ((uint64_t)16 << 20)

static void load_contents(ev_ctx *c, ev_var *v, const plan_buffer *b)
{
    const reflection *r = c->info.r;
    const refl_binding *rb = NULL;
    for (size_t i = 0; r && i < r->nbindings; i++)
        if (r->bindings[i].set == v->set && r->bindings[i].binding == v->binding)
            rb = &r->bindings[i];
    if (!bufinit_given(b)) {
        /* random contents: read lazily as the runner fills them, when
         * asked (eval_options.runner_contents) */
        if (c->opt.runner_contents && rb && !rb->writes) {
            v->peek = b;
            v->peek_elem = verifier_bufinit_elem(rb->elem);
        }
        return;
    }
    const char *name = v->name && *v->name ? v->name : "buffer";
    /* a buffer the kernel writes, or one above 16 MiB, reads as unknown
       (a branch or index that depends on it says so) */
    if (!rb || rb->writes || v->buf_bytes > EV_IMAGE_MAX)
        return;
    cw_error err;
    cw_error_clear(&err);
    v->image = xcalloc(v->buf_bytes ? v->buf_bytes : 1, 1);
    v->image_bytes = v->buf_bytes;
    if (bufinit_fill(v->image, v->buf_bytes, verifier_bufinit_elem(rb->elem), b, 0, &err)) {
        ev_note(c, "contents of %s not used: %s", name, err.text);
        free(v->image);
        v->image = NULL;
        v->image_bytes = 0;
    }
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
        const ev_type *pt = ev_tinfo(c, sv->pointee);
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
                    load_contents(c, v, b);
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
        uint32_t vi = ev_root_var(c, ptr);
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
            I->acc = xrealloc(I->acc, cap * sizeof *I->acc);
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
            const ev_type *et = ev_tinfo(c, vt);
            sz = et->flat != EV_NONE ? (uint64_t)et->flat * ev_scalar_bytes(c, vt) : 0;
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
        const ev_type *rt = ev_tinfo(c, in->type_id);
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
            const ev_type *at = in->nops ? ev_tinfo(c, spv_value_type(m, in->ops[0]) ?
                                 spv_value_type(m, in->ops[0])->id : 0) : rt;
            float k = at->flat != EV_NONE ? (float)at->flat : 1.0f;
            fl = 2 * k - 1;
            break;
        }
        case SpvOpMatrixTimesVector: case SpvOpVectorTimesMatrix: {
            const ev_type *at = in->nops ? ev_tinfo(c, spv_value_type(m, in->ops[0]) ?
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
        case SpvOpUMulExtended: case SpvOpSMulExtended: case SpvOpIAddCarry:
        case SpvOpISubBorrow:
            io = comps / 2 > 0 ? comps / 2 : 1;
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
                    const ev_type *at = ev_tinfo(c, spv_value_type(m, in->nops > 2 ?
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
    int converged = 0;
    for (int pass = 0; pass < EV_PREPASS_MAX_PASSES && !converged; pass++) {
        int changed = 0;
        for (size_t i = 0; i < m->ninsts; i++) {
            const spv_inst *in = &m->insts[i];
            if (in->func == SPV_NONE)
                continue;
            uint8_t d = 0;
            if (in->opcode == SpvOpLoad || is_atomic_op(in->opcode)) {
                uint32_t vi = in->nops ? ev_root_var(c, in->ops[0]) : EV_NONE;
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
                uint32_t vi = ev_root_var(c, in->ops[0]);
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
        converged = !changed;
    }
    if (!converged)
        ev_note(c, "dependence analysis stopped after %d passes: the causes named "
                   "in barrier-divergence messages may be incomplete",
                EV_PREPASS_MAX_PASSES);
}

uint8_t ev_barrier_kind(const spv_module *m, const spv_inst *in)
{
    if (in->opcode != SpvOpControlBarrier || in->nops < 3)
        return EV_BAR_NOT;
    uint64_t scope = SpvScopeWorkgroup, sem = 0;
    if (spv_const_u64(m, in->ops[0], &scope) != 0)
        scope = SpvScopeWorkgroup;
    int orders = spv_const_u64(m, in->ops[2], &sem) != 0 || sem == 0 ||
                 (sem & SpvMemorySemanticsWorkgroupMemoryMask) != 0;
    uint8_t k = scope == SpvScopeSubgroup ? EV_BAR_SUBGROUP
              : scope == SpvScopeInvocation ? EV_BAR_INVOCATION : EV_BAR_WORKGROUP;
    return (uint8_t)(k | (orders ? EV_BAR_ORDERS : 0));
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
    /* checked: (64, 2^31, 2^31) must not wrap to a small number */
    uint64_t lanes = (uint64_t)I->local[0] * I->local[1];
    lanes = lanes > UINT64_MAX / I->local[2] ? UINT64_MAX : lanes * I->local[2];
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
    c->vtype = xcalloc((size_t)c->bound + 1, sizeof *c->vtype);
    for (uint32_t id = 0; id < c->bound; id++)
        c->vtype[id] = spv_value_type(m, id);
    c->tstate = xcalloc(c->bound, 1);
    c->nflat = xcalloc(c->bound, sizeof *c->nflat);
    c->reg_off = xcalloc(c->bound, sizeof *c->reg_off);
    c->const_off = xcalloc(c->bound, sizeof *c->const_off);
    c->var_of_id = xcalloc(c->bound, sizeof *c->var_of_id);
    c->acc_of_inst = xcalloc(m->ninsts + 1, sizeof *c->acc_of_inst);
    c->order = xcalloc(m->nblocks + 1, sizeof *c->order);
    c->noted_inst = xcalloc(m->ninsts + 1, 1);
    c->unk_site = xcalloc(m->ninsts + 1, 1);
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
        uint32_t n = ev_tinfo(c, in->type_id)->flat;
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
    c->lane_sg = xcalloc(c->exec_lanes, sizeof *c->lane_sg);
    for (uint32_t l = 0; l < c->exec_lanes; l++)
        c->lane_sg[l] = (uint16_t)(c->lane_real[l] / (I->subgroup ? I->subgroup : 32));
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
        uint32_t n = ev_tinfo(c, k2->type)->flat;
        if (n == EV_NONE || n == 0)
            continue;
        cpool_reserve(c, n);
        c->const_off[k2->id] = (uint32_t)c->ncpool;
        c->nflat[k2->id] = n;
        ev_const_flat(c, k2->id, c->cpool + c->ncpool, n, 0);
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
    c->bar_kind = xcalloc(m->ninsts + 1, 1);
    for (size_t i = 0; i < m->ninsts; i++)
        c->bar_kind[i] = ev_barrier_kind(m, &m->insts[i]);
    c->nsub = (I->lanes + I->subgroup - 1) / I->subgroup;
    c->sg_epoch = xcalloc(c->nsub + 1, sizeof *c->sg_epoch);
    c->sg_bar_inst = xcalloc(c->nsub + 1, sizeof *c->sg_bar_inst);
    setup_deps(c);
    setup_ctrl(c);
    setup_affine(c);
    ev_setup_wgdep(c);
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
    /* the loads whose chains are followed: the first EV_CHAIN_LOADS (a
     * straight line of 25,000 loads would make the per-lane counts and
     * their peers quadratic) */
    c->chain_slot = xcalloc(c->info.nacc + 1, sizeof(uint32_t));
    c->slot_acc = xcalloc(EV_CHAIN_LOADS, sizeof(uint32_t));
    for (size_t a = 0; a < c->info.nacc; a++) {
        c->chain_slot[a] = EV_NONE;
        if (!c->info.acc[a].is_load)
            continue;
        if (c->nslots == EV_CHAIN_LOADS)
            continue;
        c->slot_acc[c->nslots] = (uint32_t)a;
        c->chain_slot[a] = c->nslots++;
    }
    c->lane_execs = xcalloc((c->nslots + 1) * (size_t)L, sizeof(double));
    c->lane_stamp = xcalloc((c->nslots + 1) * (size_t)L, sizeof(uint32_t));
    c->acc_stamp = xcalloc(c->nslots + 1, sizeof(uint32_t));
    c->acc_most = xcalloc(c->nslots + 1, sizeof(double));
    c->acc_star = xcalloc(c->nslots + 1, sizeof(uint32_t));
    c->run_slots = xcalloc(c->nslots + 1, sizeof(uint32_t));
    c->chain_stamp = 1;
    c->lane_instr = xcalloc(L, sizeof(double));
    c->instr_before = xcalloc(m->ninsts + 1, sizeof(double));
    for (size_t i = 0; i < m->ninsts; i++)
        c->instr_before[i + 1] = c->instr_before[i] + I->instr[i];
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
        free(I->vars[i].image);
    }
    free(I->vars);
    free(I->acc);
    free(I->flops16); free(I->flops32); free(I->flops64);
    free(I->sfu); free(I->intops); free(I->instr); free(I->is_atomic);
    free(I->bars); free(I->races); free(I->uninit); free(I->arrs);
    for (size_t i = 0; i < I->nnotes; i++)
        free(I->notes[i]);
    free(I->notes);
    free(c->types); free(c->tstate); free(c->vtype); free(c->nflat); free(c->reg_off);
    free(c->pool); free(c->const_off); free(c->cpool); free(c->var_of_id);
    free(c->acc_of_inst); free(c->order); free(c->dep); free(c->vdep);
    free(c->push); free(c->l_block); free(c->l_inst); free(c->l_prev);
    free(c->unk_site);
    free(c->lane_sg);
    free(c->l_state); free(c->l_taint); free(c->l_side); free(c->l_ret_inst);
    free(c->l_unk_iter); free(c->tmp_off); free(c->lane_buf);
    free(c->lane_execs); free(c->lane_stamp);
    free(c->chain_slot); free(c->slot_acc); free(c->run_slots);
    free(c->acc_stamp); free(c->acc_most); free(c->acc_star); free(c->lane_instr);
    free(c->instr_before);
    free(c->tmp_vals); free(c->noted_inst);
    free(c->bar_kind); free(c->sg_epoch); free(c->sg_bar_inst); free(c->variant);
    if (c->trk)
        for (size_t b = 0; b < c->m->nblocks; b++)
            ev_trk_free(c->trk[b]);
    free(c->trk); free(c->loop_lo); free(c->loop_hi);
    free(c->ctrl); free(c->vctrl); free(c->na);
    free(c->pc_off); free(c->pc_val); free(c->run_lanes); free(c->lane_real);
    free(c);
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
    int converged = 0;
    for (int pass = 0; pass < EV_PREPASS_MAX_PASSES && !converged; pass++) {
        int changed = 0;
        for (size_t i = m->ninsts; i-- > 0;) {
            const spv_inst *in = &m->insts[i];
            if (in->func == SPV_NONE)
                continue;
            if (in->opcode == SpvOpStore && in->nops >= 2) {
                uint32_t vi = ev_root_var(c, in->ops[0]);
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
                uint32_t vi = ev_root_var(c, in->ops[0]);
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
        converged = !changed;
    }
    if (!converged) {
        /* every id then counts as feeding a branch or an address: loop
           acceleration only gets stricter */
        memset(c->ctrl, 1, c->bound);
        memset(c->vctrl, 1, c->info.nvars + 1);
        ev_note(c, "control data-flow stopped after %d passes: every value "
                   "treated as deciding control flow", EV_PREPASS_MAX_PASSES);
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
    int converged = 0;
    for (int pass = 0; pass < EV_PREPASS_MAX_PASSES && !converged; pass++) {
        int changed = 0;
        for (size_t i = 0; i < m->ninsts; i++) {
            const spv_inst *in = &m->insts[i];
            if (in->func == SPV_NONE || in->block >= m->nblocks)
                continue;
            const spv_block *bl = &m->blocks[in->block];
            int in_loop = bl->loop_header != SPV_NONE || bl->merge == SPV_MERGE_LOOP;
            if (in->opcode == SpvOpStore && in->nops >= 2) {
                uint32_t vi = ev_root_var(c, in->ops[0]);
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
                uint32_t vi = ev_root_var(c, in->ops[0]);
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
        converged = !changed;
    }
    if (!converged) {
        /* every id non-affine: no loop is accelerated, every iteration runs */
        memset(c->na, 1, c->bound);
        memset(var, 1, c->bound);
        ev_note(c, "affinity data-flow stopped after %d passes: loops not "
                   "accelerated", EV_PREPASS_MAX_PASSES);
    }
    c->variant = var;
    free(vvar);
    free(vna);
}
