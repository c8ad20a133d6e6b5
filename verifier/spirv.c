/* spirv.c - SPIR-V reader: one pass over the words into tables, then
 * decorations, names, the CFG (dominators, irreducibility, loops) and the
 * folding of specialization constants.  See spirv.h for the contract.
 *
 * Hostile input: every word count, id, index and string is checked before
 * use; every loop is bounded by the module's size or an explicit budget;
 * recursion over types has a depth limit.
 */
#include "spirv_int.h"
#include "alloc.h"

#include <spirv/unified1/spirv.h>

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* ---- opcode table ---- */

typedef struct op_row {
    uint16_t op;
    const char *name;
    const char *cls;
    uint8_t has_type, has_result;
} op_row;

static const op_row op_table[] = {
#define SPV_OP(o, n, c, t, r) {o, n, c, t, r},
#include "spirv_ops.inc"
#undef SPV_OP
};

static const op_row *op_lookup(uint32_t op)
{
    size_t lo = 0, hi = sizeof op_table / sizeof op_table[0];
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (op_table[mid].op == op)
            return &op_table[mid];
        if (op_table[mid].op < op)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

const char *spv_opcode_name(uint32_t opcode)
{
    const op_row *r = op_lookup(opcode);
    return r ? r->name : "Op?";
}

const char *spv_opcode_class(uint32_t opcode)
{
    const op_row *r = op_lookup(opcode);
    return r ? r->cls : "";
}

void spv_opcode_shape(uint32_t opcode, int *has_result, int *has_type)
{
    const op_row *r = op_lookup(opcode);
    if (has_result)
        *has_result = r ? r->has_result : 0;
    if (has_type)
        *has_type = r ? r->has_type : 0;
}

/* ---- small helpers ---- */

static char *xstrndup(const char *s, size_t n)
{
    char *p = xcalloc(n + 1, 1);
    memcpy(p, s, n);
    return p;
}


void spv_set_err(cw_error *err, size_t word, const char *fmt, ...)
{
    va_list ap;
    if (!err)
        return;
    memset(err, 0, sizeof *err);
    err->line = 0;
    err->column = word == (size_t)-1 ? 0 : (int)(word > 0x7ffffffe ? 0x7ffffffe : word + 1);
    va_start(ap, fmt);
    vsnprintf(err->text, sizeof err->text, fmt, ap);
    va_end(ap);
}



/* Decode a literal string starting at ops[k]; returns its length in bytes
 * (NUL excluded) and the words it used, or -1 if it has no terminator. */
static int read_string(const uint32_t *ops, uint32_t nops, uint32_t k,
                       const char **s, size_t *len, uint32_t *nwords_used)
{
    if (k >= nops)
        return -1;
    const char *p = (const char *)(ops + k);
    size_t maxb = (size_t)(nops - k) * 4;
    const char *z = memchr(p, 0, maxb);
    if (!z)
        return -1;
    *s = p;
    *len = (size_t)(z - p);
    *nwords_used = (uint32_t)(*len / 4 + 1);
    return 0;
}

static void add_bref(parse_ctx *c, uint32_t block, uint32_t label)
{
    if (c->nbrefs == c->capbrefs) {
        size_t cap = c->capbrefs ? c->capbrefs * 2 : 64;
        branch_ref *nb = xrealloc(c->brefs, cap * sizeof *nb);
        c->brefs = nb;
        c->capbrefs = cap;
    }
    c->brefs[c->nbrefs].block = block;
    c->brefs[c->nbrefs].label = label;
    c->nbrefs++;
}


static int is_terminator(uint32_t op)
{
    switch (op) {
    case SpvOpBranch: case SpvOpBranchConditional: case SpvOpSwitch:
    case SpvOpReturn: case SpvOpReturnValue: case SpvOpKill:
    case SpvOpUnreachable: case SpvOpTerminateInvocation:
    case SpvOpIgnoreIntersectionKHR: case SpvOpTerminateRayKHR:
    case SpvOpEmitMeshTasksEXT:
        return 1;
    default:
        return 0;
    }
}

/* ---- per-instruction handlers ---- */

#define NEED(n)                                                           \
    do {                                                                  \
        if (in->nops < (n)) {                                             \
            spv_set_err(c->err, in->offset, "%s has %u operand words, needs %u", \
                    spv_opcode_name(in->opcode), in->nops, (unsigned)(n)); \
            return -1;                                                    \
        }                                                                 \
    } while (0)

static int is_forward_pointer(const parse_ctx *c, uint32_t id)
{
    return id < c->m->bound && c->fwd_mark[id];
}

/* A type operand must be declared before its use; the one exception is a
 * pointer named by OpTypeForwardPointer (how a struct refers to itself
 * through a pointer), accepted where the operand is not looked into. */
static int need_type_fwd(parse_ctx *c, const spv_inst *in, uint32_t id,
                         const char *what)
{
    if (check_id(c, in->offset, id, what))
        return -1;
    if (!type_at(c->m, id) && is_forward_pointer(c, id))
        return 0;
    if (!type_at(c->m, id)) {
        spv_set_err(c->err, in->offset, "%s: %s %%%u is not a type declared before it",
                spv_opcode_name(in->opcode), what, id);
        return -1;
    }
    return 0;
}

static int need_type(parse_ctx *c, const spv_inst *in, uint32_t id,
                     const char *what)
{
    if (check_id(c, in->offset, id, what))
        return -1;
    if (!type_at(c->m, id)) {
        spv_set_err(c->err, in->offset, "%s: %s %%%u is not a type declared before it",
                spv_opcode_name(in->opcode), what, id);
        return -1;
    }
    return 0;
}

static int do_type(parse_ctx *c, spv_inst *in)
{
    spv_module *m = c->m;
    spv_type *t = &m->types[m->ntypes];
    memset(t, 0, sizeof *t);
    t->id = in->result_id;
    switch (in->opcode) {
    case SpvOpTypeVoid: t->kind = SPV_T_VOID; break;
    case SpvOpTypeBool: t->kind = SPV_T_BOOL; t->width = 1; break;
    case SpvOpTypeInt:
        NEED(2);
        t->kind = SPV_T_INT;
        t->width = in->ops[0];
        t->is_signed = in->ops[1] != 0;
        if (t->width != 8 && t->width != 16 && t->width != 32 && t->width != 64) {
            spv_set_err(c->err, in->offset, "OpTypeInt width %u is not 8, 16, 32 or 64", t->width);
            return -1;
        }
        break;
    case SpvOpTypeFloat:
        NEED(1);
        t->kind = SPV_T_FLOAT;
        t->width = in->ops[0];
        if (t->width != 16 && t->width != 32 && t->width != 64) {
            spv_set_err(c->err, in->offset, "OpTypeFloat width %u is not 16, 32 or 64", t->width);
            return -1;
        }
        break;
    case SpvOpTypeVector:
    case SpvOpTypeMatrix: {
        NEED(2);
        if (need_type(c, in, in->ops[0], "component type"))
            return -1;
        const spv_type *e = type_at(m, in->ops[0]);
        t->kind = in->opcode == SpvOpTypeVector ? SPV_T_VECTOR : SPV_T_MATRIX;
        t->elem = in->ops[0];
        t->count = in->ops[1];
        if (t->kind == SPV_T_VECTOR &&
            (e->kind != SPV_T_INT && e->kind != SPV_T_FLOAT && e->kind != SPV_T_BOOL)) {
            spv_set_err(c->err, in->offset, "OpTypeVector of a non-scalar type");
            return -1;
        }
        if (t->kind == SPV_T_MATRIX && e->kind != SPV_T_VECTOR) {
            spv_set_err(c->err, in->offset, "OpTypeMatrix column type is not a vector");
            return -1;
        }
        if (t->count < 2 || t->count > 16) {
            spv_set_err(c->err, in->offset, "%s with %u components",
                    spv_opcode_name(in->opcode), t->count);
            return -1;
        }
        break;
    }
    case SpvOpTypeArray:
        NEED(2);
        if (need_type_fwd(c, in, in->ops[0], "element type"))
            return -1;
        if (check_id(c, in->offset, in->ops[1], "array length"))
            return -1;
        if (!m->id_const[in->ops[1]]) {
            spv_set_err(c->err, in->offset, "OpTypeArray length %%%u is not a constant declared before it",
                    in->ops[1]);
            return -1;
        }
        t->kind = SPV_T_ARRAY;
        t->elem = in->ops[0];
        t->length_id = in->ops[1];
        break;
    case SpvOpTypeRuntimeArray:
        NEED(1);
        if (need_type_fwd(c, in, in->ops[0], "element type"))
            return -1;
        t->kind = SPV_T_RUNTIME_ARRAY;
        t->elem = in->ops[0];
        break;
    case SpvOpTypeStruct:
        t->kind = SPV_T_STRUCT;
        t->nmembers = in->nops;
        t->members = xcalloc(in->nops, sizeof *t->members);
        for (uint32_t i = 0; i < in->nops; i++) {
            if (need_type_fwd(c, in, in->ops[i], "member type")) {
                free(t->members);
                t->members = NULL;
                return -1;
            }
            t->members[i].type = in->ops[i];
            t->members[i].builtin = -1;
        }
        break;
    case SpvOpTypePointer:
        NEED(2);
        if (check_id(c, in->offset, in->ops[1], "pointee type"))
            return -1;
        t->kind = SPV_T_POINTER;
        t->storage = in->ops[0];
        t->elem = in->ops[1]; /* may be forward-declared: checked later */
        break;
    case SpvOpTypeFunction:
        NEED(1);
        if (need_type(c, in, in->ops[0], "return type"))
            return -1;
        t->kind = SPV_T_FUNCTION;
        t->elem = in->ops[0];
        t->nparams = in->nops - 1;
        t->params = xcalloc(t->nparams, sizeof *t->params);
        for (uint32_t i = 1; i < in->nops; i++) {
            if (need_type_fwd(c, in, in->ops[i], "parameter type")) {
                free(t->params);
                t->params = NULL;
                return -1;
            }
            t->params[i - 1] = in->ops[i];
        }
        break;
    case SpvOpTypeImage:
        NEED(7);
        if (need_type(c, in, in->ops[0], "sampled type"))
            return -1;
        t->kind = SPV_T_IMAGE;
        t->elem = in->ops[0];
        t->image_dim = in->ops[1];
        t->image_sampled = in->ops[5];
        t->image_format = in->ops[6];
        break;
    case SpvOpTypeSampler: t->kind = SPV_T_SAMPLER; break;
    case SpvOpTypeSampledImage:
        NEED(1);
        if (need_type(c, in, in->ops[0], "image type"))
            return -1;
        t->kind = SPV_T_SAMPLED_IMAGE;
        t->elem = in->ops[0];
        break;
    default: t->kind = SPV_T_OTHER; break;
    }
    m->ntypes++;
    m->id_type[in->result_id] = (uint32_t)m->ntypes;
    return 0;
}

static int do_const(parse_ctx *c, spv_inst *in)
{
    spv_module *m = c->m;
    spv_const *k = &m->consts[m->nconsts];
    memset(k, 0, sizeof *k);
    k->id = in->result_id;
    k->type = in->type_id;
    k->known = 1;
    if (need_type(c, in, in->type_id, "result type"))
        return -1;
    const spv_type *t = type_at(m, in->type_id);
    switch (in->opcode) {
    case SpvOpConstantTrue: case SpvOpConstantFalse:
    case SpvOpSpecConstantTrue: case SpvOpSpecConstantFalse:
        if (t->kind != SPV_T_BOOL) {
            spv_set_err(c->err, in->offset, "%s of a non-bool type", spv_opcode_name(in->opcode));
            return -1;
        }
        k->kind = SPV_C_SCALAR;
        k->bits = (in->opcode == SpvOpConstantTrue || in->opcode == SpvOpSpecConstantTrue);
        k->is_spec = in->opcode == SpvOpSpecConstantTrue || in->opcode == SpvOpSpecConstantFalse;
        break;
    case SpvOpConstant: case SpvOpSpecConstant:
        if (t->kind != SPV_T_INT && t->kind != SPV_T_FLOAT) {
            spv_set_err(c->err, in->offset, "%s of a non-numeric type", spv_opcode_name(in->opcode));
            return -1;
        }
        if (t->width > 32) {
            NEED(2);
            k->bits = (uint64_t)in->ops[0] | ((uint64_t)in->ops[1] << 32);
        } else {
            NEED(1);
            k->bits = in->ops[0] & width_mask(t->width);
        }
        k->kind = SPV_C_SCALAR;
        k->is_spec = in->opcode == SpvOpSpecConstant;
        break;
    case SpvOpConstantComposite: case SpvOpSpecConstantComposite:
        k->kind = SPV_C_COMPOSITE;
        k->nparts = in->nops;
        k->parts = xcalloc(in->nops, sizeof *k->parts);
        for (uint32_t i = 0; i < in->nops; i++) {
            uint32_t id = in->ops[i];
            if (check_id(c, in->offset, id, "constituent")) {
                free(k->parts);
                k->parts = NULL;
                return -1;
            }
            if (!m->id_const[id]) {
                spv_set_err(c->err, in->offset, "%s constituent %%%u is not a constant declared before it",
                        spv_opcode_name(in->opcode), id);
                free(k->parts);
                k->parts = NULL;
                return -1;
            }
            k->parts[i] = id;
        }
        k->is_spec = in->opcode == SpvOpSpecConstantComposite;
        break;
    case SpvOpConstantNull:
        k->kind = SPV_C_NULL;
        break;
    case SpvOpUndef:
        k->kind = SPV_C_UNDEF;
        k->known = 0;
        break;
    case SpvOpSpecConstantOp:
        NEED(1);
        k->kind = SPV_C_SCALAR;
        k->is_spec = 1;
        k->spec_op = in->ops[0];
        k->known = 0;
        break;
    default:
        return 0; /* OpConstantSampler etc.: not tracked */
    }
    k->default_bits = k->bits;
    m->nconsts++;
    m->id_const[in->result_id] = (uint32_t)m->nconsts;
    return 0;
}

static int do_decoration(parse_ctx *c, spv_inst *in)
{
    spv_module *m = c->m;
    spv_decoration *d = &m->decos[m->ndecos];
    memset(d, 0, sizeof *d);
    switch (in->opcode) {
    case SpvOpDecorate: case SpvOpDecorateId: case SpvOpDecorateString:
        NEED(2);
        if (check_id(c, in->offset, in->ops[0], "decoration target"))
            return -1;
        d->target = in->ops[0];
        d->member = -1;
        d->decoration = in->ops[1];
        d->args = in->ops + 2;
        d->nargs = in->nops - 2;
        break;
    case SpvOpMemberDecorate: case SpvOpMemberDecorateString:
        NEED(3);
        if (check_id(c, in->offset, in->ops[0], "decoration target"))
            return -1;
        if (in->ops[1] > 0x7fffffffu) {
            spv_set_err(c->err, in->offset, "member index %u is absurd", in->ops[1]);
            return -1;
        }
        d->target = in->ops[0];
        d->member = (int32_t)in->ops[1];
        d->decoration = in->ops[2];
        d->args = in->ops + 3;
        d->nargs = in->nops - 3;
        break;
    default:
        return 0; /* decoration groups: left to the validator */
    }
    m->ndecos++;
    return 0;
}

static int do_function(parse_ctx *c, spv_inst *in, size_t idx)
{
    spv_module *m = c->m;
    if (c->cur_func != SPV_NONE) {
        spv_set_err(c->err, in->offset, "OpFunction inside another function");
        return -1;
    }
    NEED(2);
    if (need_type(c, in, in->ops[1], "function type"))
        return -1;
    const spv_type *ft = type_at(m, in->ops[1]);
    if (ft->kind != SPV_T_FUNCTION) {
        spv_set_err(c->err, in->offset, "OpFunction type %%%u is not an OpTypeFunction", in->ops[1]);
        return -1;
    }
    spv_function *f = &m->funcs[m->nfuncs];
    memset(f, 0, sizeof *f);
    f->id = in->result_id;
    f->type = in->ops[1];
    f->ret_type = in->type_id;
    f->control = in->ops[0];
    f->first_inst = (uint32_t)idx;
    f->end_inst = SPV_NONE;
    f->params = c->param_pool + c->nparam_pool;
    f->first_block = (uint32_t)m->nblocks;
    m->nfuncs++;
    m->id_func[in->result_id] = (uint32_t)m->nfuncs;
    c->cur_func = (uint32_t)(m->nfuncs - 1);
    in->func = c->cur_func;
    return 0;
}

static int do_line(parse_ctx *c, spv_inst *in)
{
    if (in->opcode == SpvOpNoLine) {
        c->line = c->column = 0;
        c->file = 0;
        return 0;
    }
    NEED(3);
    if (check_id(c, in->offset, in->ops[0], "OpLine file"))
        return -1;
    c->file = in->ops[0];
    c->line = in->ops[1] > 0x7fffffffu ? 0 : (int)in->ops[1];
    c->column = in->ops[2] > 0x7fffffffu ? 0 : (int)in->ops[2];
    return 0;
}

static int do_block_inst(parse_ctx *c, spv_inst *in, size_t idx)
{
    spv_module *m = c->m;
    if (in->opcode == SpvOpLabel) {
        if (c->cur_func == SPV_NONE) {
            spv_set_err(c->err, in->offset, "OpLabel outside a function");
            return -1;
        }
        if (c->cur_block != SPV_NONE) {
            spv_set_err(c->err, in->offset, "OpLabel before the previous block's terminator");
            return -1;
        }
        spv_block *b = &m->blocks[m->nblocks];
        memset(b, 0, sizeof *b);
        b->label = in->result_id;
        b->func = c->cur_func;
        b->first = (uint32_t)idx;
        b->last = SPV_NONE;
        b->merge_inst = b->merge_block = b->continue_block = SPV_NONE;
        b->idom = SPV_NONE;
        b->loop_header = SPV_NONE;
        m->nblocks++;
        m->id_block[in->result_id] = (uint32_t)m->nblocks;
        m->funcs[c->cur_func].nblocks++;
        c->cur_block = (uint32_t)(m->nblocks - 1);
        in->block = c->cur_block;
        return 0;
    }
    if (c->cur_block == SPV_NONE) {
        spv_set_err(c->err, in->offset, "%s outside a block", spv_opcode_name(in->opcode));
        return -1;
    }
    spv_block *b = &m->blocks[c->cur_block];
    if (in->opcode == SpvOpSelectionMerge || in->opcode == SpvOpLoopMerge) {
        NEED(in->opcode == SpvOpLoopMerge ? 2 : 1);
        if (b->merge_inst != SPV_NONE) {
            spv_set_err(c->err, in->offset, "second merge instruction in one block");
            return -1;
        }
        if (check_id(c, in->offset, in->ops[0], "merge block"))
            return -1;
        if (in->opcode == SpvOpLoopMerge && check_id(c, in->offset, in->ops[1], "continue target"))
            return -1;
        b->merge_inst = (uint32_t)idx;
        b->merge = in->opcode == SpvOpLoopMerge ? SPV_MERGE_LOOP : SPV_MERGE_SELECTION;
        return 0;
    }
    if (!is_terminator(in->opcode)) {
        if (b->merge_inst != SPV_NONE) {
            spv_set_err(c->err, in->offset, "%s after a merge instruction: the merge must come just before the branch",
                    spv_opcode_name(in->opcode));
            return -1;
        }
        return 0;
    }
    /* terminator */
    switch (in->opcode) {
    case SpvOpBranch:
        NEED(1);
        if (check_id(c, in->offset, in->ops[0], "branch target"))
            return -1;
        add_bref(c, c->cur_block, in->ops[0]);
        break;
    case SpvOpBranchConditional:
        NEED(3);
        if (check_id(c, in->offset, in->ops[0], "condition") ||
            check_id(c, in->offset, in->ops[1], "true target") ||
            check_id(c, in->offset, in->ops[2], "false target"))
            return -1;
        add_bref(c, c->cur_block, in->ops[1]);
        add_bref(c, c->cur_block, in->ops[2]);
        break;
    case SpvOpSwitch: {
        NEED(2);
        if (check_id(c, in->offset, in->ops[0], "selector") ||
            check_id(c, in->offset, in->ops[1], "default target"))
            return -1;
        uint32_t lw = 1;
        const spv_inst *sel = spv_def(m, in->ops[0]);
        if (sel && sel->type_id) {
            const spv_type *st = type_at(m, sel->type_id);
            if (st && st->width > 32)
                lw = 2;
        }
        if ((in->nops - 2) % (lw + 1) != 0) {
            spv_set_err(c->err, in->offset, "OpSwitch has a dangling case operand");
            return -1;
        }
        add_bref(c, c->cur_block, in->ops[1]);
        for (uint32_t k = 2; k + lw < in->nops; k += lw + 1) {
            if (check_id(c, in->offset, in->ops[k + lw], "case target"))
                return -1;
            add_bref(c, c->cur_block, in->ops[k + lw]);
        }
        break;
    }
    default:
        break;
    }
    if (b->merge_inst != SPV_NONE && b->merge_inst + 1 != idx) {
        spv_set_err(c->err, in->offset, "merge instruction is not just before the branch");
        return -1;
    }
    b->last = (uint32_t)idx;
    c->cur_block = SPV_NONE;
    return 0;
}

/* NonSemantic.Shader.DebugInfo.100: DebugLine / DebugNoLine set the
 * source position like OpLine (toolchains that emit this instead of
 * OpLine); DebugSource gives the file and, if OpSource had none, the text.
 * Malformed operands are ignored: these instructions carry no semantics. */
static uint32_t const_u32(const spv_module *m, uint32_t id)
{
    if (id == 0 || id >= m->bound || !m->id_const[id])
        return 0;
    const spv_const *k = &m->consts[m->id_const[id] - 1];
    return k->kind == SPV_C_SCALAR && k->bits <= 0x7fffffffu ? (uint32_t)k->bits : 0;
}

static void do_debug_info(parse_ctx *c, spv_inst *in)
{
    spv_module *m = c->m;
    uint32_t what = in->ops[1];
    if (what == 104) { /* DebugNoLine */
        c->line = c->column = 0;
        c->file = 0;
        in->line = in->column = 0;
        in->file = 0;
        return;
    }
    if (what == 35 && in->nops >= 3) { /* DebugSource File [Text] */
        if (in->ops[2] < m->bound && m->id_string[in->ops[2]] && !m->source_file)
            m->source_file = in->ops[2];
        if (in->nops >= 4 && !m->source_text && in->ops[3] < m->bound &&
            m->id_string[in->ops[3]]) {
            m->source_text = xstrndup(m->id_string[in->ops[3]], strlen(m->id_string[in->ops[3]]));
            m->source_len = strlen(m->source_text);
        }
        return;
    }
    if (what != 103 || in->nops < 7) /* DebugLine Source Line.. Col.. */
        return;
    const spv_inst *src = spv_def(m, in->ops[2]);
    uint32_t file = 0;
    if (src && src->opcode == SpvOpExtInst && src->nops >= 3 && src->ops[0] == c->debug_info &&
        src->ops[1] == 35 && src->ops[2] < m->bound && m->id_string[src->ops[2]])
        file = src->ops[2];
    c->file = file;
    c->line = (int)const_u32(m, in->ops[3]);
    c->column = (int)const_u32(m, in->ops[5]);
    if (c->cur_func != SPV_NONE) {
        in->line = c->line;
        in->column = c->column;
        in->file = c->file;
    }
}

/* One instruction of the main pass.  idx is its index in m->insts. */
static int do_inst(parse_ctx *c, spv_inst *in, size_t idx)
{
    spv_module *m = c->m;
    uint32_t op = in->opcode;
    const char *s;
    size_t len;
    uint32_t used;

    in->func = c->cur_func;
    in->block = c->cur_block;
    if (c->cur_func != SPV_NONE) {
        in->line = c->line;
        in->column = c->column;
        in->file = c->file;
    }

    switch (op) {
    case SpvOpLine: case SpvOpNoLine:
        return do_line(c, in);
    case SpvOpCapability:
        NEED(1);
        m->capabilities[m->ncapabilities++] = in->ops[0];
        return 0;
    case SpvOpMemoryModel:
        NEED(2);
        m->addressing = in->ops[0];
        m->memory_model = in->ops[1];
        return 0;
    case SpvOpExtInstImport:
        if (read_string(in->ops, in->nops, 0, &s, &len, &used)) {
            spv_set_err(c->err, in->offset, "OpExtInstImport name has no terminating NUL");
            return -1;
        }
        if (len == 12 && memcmp(s, "GLSL.std.450", 12) == 0)
            m->glsl_std_450 = in->result_id;
        if (len == 32 && memcmp(s, "NonSemantic.Shader.DebugInfo.100", 32) == 0)
            c->debug_info = in->result_id;
        return 0;
    case SpvOpString:
        if (read_string(in->ops, in->nops, 0, &s, &len, &used)) {
            spv_set_err(c->err, in->offset, "OpString has no terminating NUL");
            return -1;
        }
        m->id_string[in->result_id] = xstrndup(s, len);
        return 0;
    case SpvOpSource:
        NEED(2);
        m->source_lang = in->ops[0];
        m->source_version = in->ops[1];
        if (in->nops >= 3) {
            if (check_id(c, in->offset, in->ops[2], "OpSource file"))
                return -1;
            if (!m->source_file)
                m->source_file = in->ops[2];
        }
        if (in->nops >= 4 && !m->source_text) {
            if (read_string(in->ops, in->nops, 3, &s, &len, &used)) {
                spv_set_err(c->err, in->offset, "OpSource text has no terminating NUL");
                return -1;
            }
            m->source_text = xstrndup(s, len);
            m->source_len = len;
        }
        return 0;
    case SpvOpSourceContinued:
        if (read_string(in->ops, in->nops, 0, &s, &len, &used)) {
            spv_set_err(c->err, in->offset, "OpSourceContinued has no terminating NUL");
            return -1;
        }
        if (m->source_text) {
            char *t = xrealloc(m->source_text, m->source_len + len + 1);
            memcpy(t + m->source_len, s, len);
            m->source_len += len;
            t[m->source_len] = 0;
            m->source_text = t;
        }
        return 0;
    case SpvOpName:
        NEED(1);
        if (check_id(c, in->offset, in->ops[0], "OpName target"))
            return -1;
        if (read_string(in->ops, in->nops, 1, &s, &len, &used)) {
            spv_set_err(c->err, in->offset, "OpName has no terminating NUL");
            return -1;
        }
        if (!m->id_name[in->ops[0]])
            m->id_name[in->ops[0]] = xstrndup(s, len);
        return 0;
    case SpvOpMemberName:
        NEED(2);
        if (check_id(c, in->offset, in->ops[0], "OpMemberName target"))
            return -1;
        if (read_string(in->ops, in->nops, 2, &s, &len, &used)) {
            spv_set_err(c->err, in->offset, "OpMemberName has no terminating NUL");
            return -1;
        }
        m->member_names[m->nmember_names] = xstrndup(s, len);
        c->mnames[c->nmnames].type = in->ops[0];
        c->mnames[c->nmnames].member = in->ops[1];
        c->mnames[c->nmnames].text = m->member_names[m->nmember_names];
        m->nmember_names++;
        c->nmnames++;
        return 0;
    case SpvOpEntryPoint: {
        NEED(3);
        if (check_id(c, in->offset, in->ops[1], "entry point function"))
            return -1;
        if (read_string(in->ops, in->nops, 2, &s, &len, &used)) {
            spv_set_err(c->err, in->offset, "OpEntryPoint name has no terminating NUL");
            return -1;
        }
        spv_entry *e = &m->entries[m->nentries];
        memset(e, 0, sizeof *e);
        e->name = xstrndup(s, len);
        e->model = in->ops[0];
        e->func_id = in->ops[1];
        e->func = SPV_NONE;
        m->nentries++;
        uint32_t k = 2 + used;
        e->ninterface = in->nops > k ? in->nops - k : 0;
        e->interface = xcalloc(e->ninterface, sizeof *e->interface);
        for (uint32_t i = 0; i < e->ninterface; i++) {
            if (check_id(c, in->offset, in->ops[k + i], "interface"))
                return -1;
            e->interface[i] = in->ops[k + i];
        }
        return 0;
    }
    case SpvOpExecutionMode: case SpvOpExecutionModeId:
        NEED(2);
        return check_id(c, in->offset, in->ops[0], "execution mode entry point");
    case SpvOpDecorate: case SpvOpDecorateId: case SpvOpDecorateString:
    case SpvOpMemberDecorate: case SpvOpMemberDecorateString:
        return do_decoration(c, in);
    case SpvOpTypeForwardPointer:
        NEED(1);
        if (check_id(c, in->offset, in->ops[0], "forward pointer"))
            return -1;
        c->fwd_ptr[c->nfwd++] = in->ops[0];
        c->fwd_mark[in->ops[0]] = 1;
        return 0;
    case SpvOpVariable: {
        NEED(1);
        if (need_type(c, in, in->type_id, "result type"))
            return -1;
        const spv_type *pt = type_at(m, in->type_id);
        if (pt->kind != SPV_T_POINTER) {
            spv_set_err(c->err, in->offset, "OpVariable type %%%u is not a pointer", in->type_id);
            return -1;
        }
        if (c->cur_func != SPV_NONE && c->cur_block == SPV_NONE) {
            spv_set_err(c->err, in->offset, "OpVariable outside a block");
            return -1;
        }
        spv_var *v = &m->vars[m->nvars];
        memset(v, 0, sizeof *v);
        v->id = in->result_id;
        v->type = in->type_id;
        v->pointee = pt->elem;
        v->storage = in->ops[0];
        if (in->nops >= 2) {
            if (check_id(c, in->offset, in->ops[1], "initializer"))
                return -1;
            v->init = in->ops[1];
        }
        v->func = c->cur_func;
        v->builtin = -1;
        m->nvars++;
        m->id_var[in->result_id] = (uint32_t)m->nvars;
        return 0;
    }
    case SpvOpFunction:
        return do_function(c, in, idx);
    case SpvOpFunctionParameter:
        if (c->cur_func == SPV_NONE || c->cur_block != SPV_NONE ||
            m->funcs[c->cur_func].nblocks) {
            spv_set_err(c->err, in->offset, "OpFunctionParameter outside a function header");
            return -1;
        }
        c->param_pool[c->nparam_pool++] = in->result_id;
        m->funcs[c->cur_func].nparams++;
        return 0;
    case SpvOpFunctionEnd:
        if (c->cur_func == SPV_NONE) {
            spv_set_err(c->err, in->offset, "OpFunctionEnd without OpFunction");
            return -1;
        }
        if (c->cur_block != SPV_NONE) {
            spv_set_err(c->err, in->offset, "OpFunctionEnd inside a block (missing terminator)");
            return -1;
        }
        m->funcs[c->cur_func].end_inst = (uint32_t)idx;
        in->func = c->cur_func;
        c->cur_func = SPV_NONE;
        c->line = c->column = 0;
        c->file = 0;
        return 0;
    default:
        break;
    }

    if (op == SpvOpExtInst && c->debug_info && in->nops >= 2 && in->ops[0] == c->debug_info)
        do_debug_info(c, in);
    if (op == SpvOpLabel || c->cur_block != SPV_NONE)
        return do_block_inst(c, in, idx);
    if (c->cur_func != SPV_NONE) {
        spv_set_err(c->err, in->offset, "%s outside a block", spv_opcode_name(op));
        return -1;
    }
    if (in->result_id && strcmp(spv_opcode_class(op), "Type-Declaration") == 0)
        return do_type(c, in);
    if (in->result_id && (strcmp(spv_opcode_class(op), "Constant-Creation") == 0 ||
                          op == SpvOpUndef))
        return do_const(c, in);
    if (is_terminator(op)) {
        spv_set_err(c->err, in->offset, "%s outside a function", spv_opcode_name(op));
        return -1;
    }
    return 0;
}

/* ---- post-pass ---- */

static int deco_cmp(const void *a, const void *b)
{
    const spv_decoration *x = a, *y = b;
    if (x->target != y->target)
        return x->target < y->target ? -1 : 1;
    /* stable: args pointers increase with module order */
    return x->args < y->args ? -1 : x->args > y->args;
}

static void apply_decorations(spv_module *m)
{
    qsort(m->decos, m->ndecos, sizeof *m->decos, deco_cmp);
    for (size_t i = m->ndecos; i-- > 0;)
        m->deco_first[m->decos[i].target] = (uint32_t)i + 1;
    for (size_t i = 0; i < m->ndecos; i++) {
        const spv_decoration *d = &m->decos[i];
        uint32_t a0 = d->nargs ? d->args[0] : 0;
        spv_type *t = m->id_type[d->target] ? &m->types[m->id_type[d->target] - 1] : NULL;
        spv_var *v = m->id_var[d->target] ? &m->vars[m->id_var[d->target] - 1] : NULL;
        spv_const *k = m->id_const[d->target] ? &m->consts[m->id_const[d->target] - 1] : NULL;
        if (d->member >= 0) {
            if (!t || t->kind != SPV_T_STRUCT || (uint32_t)d->member >= t->nmembers)
                continue;
            spv_member *mb = &t->members[d->member];
            switch (d->decoration) {
            case SpvDecorationOffset:
                if (d->nargs) { mb->has_offset = 1; mb->offset = a0; }
                break;
            case SpvDecorationMatrixStride: mb->matrix_stride = a0; break;
            case SpvDecorationRowMajor: mb->row_major = 1; break;
            case SpvDecorationNonWritable: mb->non_writable = 1; break;
            case SpvDecorationNonReadable: mb->non_readable = 1; break;
            case SpvDecorationBuiltIn:
                if (d->nargs) mb->builtin = (int)(a0 & 0x7fffffff);
                break;
            default: break;
            }
            continue;
        }
        switch (d->decoration) {
        case SpvDecorationArrayStride:
            if (t) t->array_stride = a0;
            break;
        case SpvDecorationBlock:
            if (t) t->block = 1;
            break;
        case SpvDecorationBufferBlock:
            if (t) t->buffer_block = 1;
            break;
        case SpvDecorationBinding:
            if (v && d->nargs) { v->has_binding = 1; v->binding = a0; }
            break;
        case SpvDecorationDescriptorSet:
            if (v && d->nargs) { v->has_set = 1; v->set = a0; }
            break;
        case SpvDecorationBuiltIn:
            if (v && d->nargs) v->builtin = (int)(a0 & 0x7fffffff);
            break;
        case SpvDecorationSpecId:
            if (k && d->nargs) { k->has_spec_id = 1; k->spec_id = a0; }
            break;
        default: break;
        }
    }
}

static void apply_names(spv_module *m, parse_ctx *c)
{
    for (size_t i = 0; i < c->nmnames; i++) {
        const spv_type *ct = type_at(m, c->mnames[i].type);
        if (!ct || ct->kind != SPV_T_STRUCT || c->mnames[i].member >= ct->nmembers)
            continue;
        spv_type *t = &m->types[m->id_type[c->mnames[i].type] - 1];
        if (!t->members[c->mnames[i].member].name)
            t->members[c->mnames[i].member].name = c->mnames[i].text;
    }
    for (size_t i = 0; i < m->nconsts; i++)
        m->consts[i].name = m->id_name[m->consts[i].id];
    for (size_t i = 0; i < m->nvars; i++)
        m->vars[i].name = m->id_name[m->vars[i].id];
    for (size_t i = 0; i < m->nfuncs; i++)
        m->funcs[i].name = m->id_name[m->funcs[i].id];
}

static int check_types(spv_module *m, parse_ctx *c)
{
    for (size_t i = 0; i < c->nfwd; i++) {
        const spv_type *t = type_at(m, c->fwd_ptr[i]);
        if (!t || t->kind != SPV_T_POINTER) {
            spv_set_err(c->err, (size_t)-1, "OpTypeForwardPointer %%%u is never declared as a pointer",
                    c->fwd_ptr[i]);
            return -1;
        }
    }
    for (size_t i = 0; i < m->ntypes; i++) {
        const spv_type *t = &m->types[i];
        if (t->kind == SPV_T_POINTER && !type_at(m, t->elem)) {
            spv_set_err(c->err, (size_t)-1, "pointer type %%%u points to %%%u, which is not a type",
                    t->id, t->elem);
            return -1;
        }
    }
    return 0;
}


/* ---- entry ---- */

int spv_parse_bytes(const void *bytes, size_t len, spv_module *out,
                    cw_error *err)
{
    memset(out, 0, sizeof *out);
    if (len % 4 != 0) {
        spv_set_err(err, (size_t)-1, "SPIR-V size %zu bytes is not a multiple of 4", len);
        return -1;
    }
    if (len < 20) {
        spv_set_err(err, (size_t)-1, "SPIR-V of %zu bytes is shorter than its 20-byte header", len);
        return -1;
    }
    uint32_t *w = xcalloc(len / 4, 4);
    memcpy(w, bytes, len);
    int rc = spv_parse(w, len / 4, out, err);
    free(w);
    return rc;
}

int spv_parse(const uint32_t *words, size_t nwords, spv_module *out,
              cw_error *err)
{
    spv_module *m = out;
    parse_ctx c;
    int rc = -1;

    memset(m, 0, sizeof *m);
    memset(&c, 0, sizeof c);
    if (!words || nwords < 5) {
        spv_set_err(err, (size_t)-1, "SPIR-V of %zu words is shorter than its 5-word header", nwords);
        return -1;
    }
    if (nwords > 0x3fffffffu / 4) {
        spv_set_err(err, (size_t)-1, "SPIR-V of %zu words is absurdly large", nwords);
        return -1;
    }
    if (words[0] != SPV_MAGIC && words[0] != bswap32(SPV_MAGIC)) {
        spv_set_err(err, 0, "not SPIR-V: magic number 0x%08x, expected 0x07230203", words[0]);
        return -1;
    }
    m->swapped = words[0] != SPV_MAGIC;
    m->nwords = nwords;
    m->words = xcalloc(nwords, 4);
    for (size_t i = 0; i < nwords; i++)
        m->words[i] = m->swapped ? bswap32(words[i]) : words[i];
    m->version = m->words[1];
    m->generator = m->words[2];
    m->bound = m->words[3];
    if (m->bound == 0 || m->bound > SPV_MAX_BOUND ||
        (uint64_t)m->bound > (uint64_t)nwords * 4 + 4096) {
        spv_set_err(err, 3, "id bound %u is absurd for a module of %zu words", m->bound, nwords);
        goto out;
    }

    /* pass 1: count and check word counts */
    size_t ninsts = 0, ntypes = 0, nconsts = 0, nvars = 0, ndecos = 0, nentries = 0;
    size_t nfuncs = 0, nblocks = 0, nparams = 0, ncaps = 0, nmnames = 0, nfwd = 0;
    for (size_t w = 5; w < nwords;) {
        uint32_t wc = m->words[w] >> 16, op = m->words[w] & 0xffff;
        if (wc == 0) {
            spv_set_err(err, w, "instruction at word %zu has a word count of 0", w);
            goto out;
        }
        if (wc > nwords - w) {
            spv_set_err(err, w, "%s at word %zu has %u words, running past the end of the module",
                    spv_opcode_name(op), w, wc);
            goto out;
        }
        const op_row *r = op_lookup(op);
        if (!r) {
            spv_set_err(err, w, "unknown opcode %u at word %zu", op, w);
            goto out;
        }
        ninsts++;
        if (strcmp(r->cls, "Type-Declaration") == 0) ntypes++;
        if (strcmp(r->cls, "Constant-Creation") == 0 || op == SpvOpUndef) nconsts++;
        if (op == SpvOpVariable) nvars++;
        if (strcmp(r->cls, "Annotation") == 0) ndecos++;
        if (op == SpvOpEntryPoint) nentries++;
        if (op == SpvOpFunction) nfuncs++;
        if (op == SpvOpLabel) nblocks++;
        if (op == SpvOpFunctionParameter) nparams++;
        if (op == SpvOpCapability) ncaps++;
        if (op == SpvOpMemberName) nmnames++;
        if (op == SpvOpTypeForwardPointer) nfwd++;
        w += wc;
    }

    if (nentries > SPV_MAX_ENTRIES) {
        spv_set_err(err, (size_t)-1, "%zu entry points is absurd (at most %d are read)", nentries,
                SPV_MAX_ENTRIES);
        goto out;
    }
    m->insts = xcalloc(ninsts, sizeof *m->insts);
    m->types = xcalloc(ntypes, sizeof *m->types);
    m->consts = xcalloc(nconsts, sizeof *m->consts);
    m->vars = xcalloc(nvars, sizeof *m->vars);
    m->decos = xcalloc(ndecos, sizeof *m->decos);
    m->entries = xcalloc(nentries, sizeof *m->entries);
    m->funcs = xcalloc(nfuncs, sizeof *m->funcs);
    m->blocks = xcalloc(nblocks, sizeof *m->blocks);
    m->capabilities = xcalloc(ncaps, sizeof *m->capabilities);
    m->member_names = xcalloc(nmnames, sizeof *m->member_names);
    m->id_inst = xcalloc(m->bound, sizeof *m->id_inst);
    m->id_type = xcalloc(m->bound, sizeof *m->id_type);
    m->id_const = xcalloc(m->bound, sizeof *m->id_const);
    m->id_var = xcalloc(m->bound, sizeof *m->id_var);
    m->id_block = xcalloc(m->bound, sizeof *m->id_block);
    m->id_func = xcalloc(m->bound, sizeof *m->id_func);
    m->id_name = xcalloc(m->bound, sizeof *m->id_name);
    m->id_string = xcalloc(m->bound, sizeof *m->id_string);
    m->deco_first = xcalloc(m->bound, sizeof *m->deco_first);
    c.m = m;
    c.err = err;
    c.cur_func = c.cur_block = SPV_NONE;
    c.param_pool = m->param_pool = xcalloc(nparams, sizeof *c.param_pool);
    c.mnames = xcalloc(nmnames, sizeof *c.mnames);
    c.fwd_ptr = xcalloc(nfwd, sizeof *c.fwd_ptr);
    c.fwd_mark = xcalloc(m->bound, 1);
    m->ninsts = 0;

    /* pass 2: decode */
    for (size_t w = 5; w < nwords;) {
        uint32_t wc = m->words[w] >> 16, op = m->words[w] & 0xffff;
        const op_row *r = op_lookup(op);
        spv_inst *in = &m->insts[m->ninsts];
        uint32_t k = 1;
        in->opcode = (uint16_t)op;
        in->nwords = (uint16_t)wc;
        in->offset = (uint32_t)w;
        in->block = in->func = SPV_NONE;
        if (r->has_type) {
            if (k >= wc) {
                spv_set_err(err, w, "%s is too short for its result type", r->name);
                goto out;
            }
            in->type_id = m->words[w + k++];
            if (check_id(&c, w, in->type_id, "result type"))
                goto out;
        }
        if (r->has_result) {
            if (k >= wc) {
                spv_set_err(err, w, "%s is too short for its result id", r->name);
                goto out;
            }
            in->result_id = m->words[w + k++];
            if (check_id(&c, w, in->result_id, "result"))
                goto out;
            if (m->id_inst[in->result_id]) {
                spv_set_err(err, w, "%s redefines id %%%u", r->name, in->result_id);
                goto out;
            }
            m->id_inst[in->result_id] = (uint32_t)m->ninsts + 1;
        }
        in->ops = m->words + w + k;
        in->nops = wc - k;
        m->ninsts++;
        if (do_inst(&c, in, m->ninsts - 1))
            goto out;
        w += wc;
    }
    if (c.cur_func != SPV_NONE) {
        spv_set_err(err, nwords, "module ends inside a function (no OpFunctionEnd)");
        goto out;
    }
    if (check_types(m, &c))
        goto out;
    apply_decorations(m);
    apply_names(m, &c);
    if (spv_build_edges(m, &c))
        goto out;
    {
        uint64_t budget = 0;
        for (size_t i = 0; i < m->nfuncs; i++) {
            if (m->funcs[i].nblocks == 0)
                continue;
            if (spv_analyse_cfg(m, &m->funcs[i], &c, &budget))
                goto out;
        }
    }
    if (spv_check_calls(m, &c) || spv_resolve_entries(m, &c))
        goto out;
    if (spv_specialize(m, NULL, 0, NULL, err))
        goto out;
    rc = 0;
out:
    free(c.brefs);
    free(c.mnames);
    free(c.fwd_ptr);
    free(c.fwd_mark);
    if (rc != 0)
        spv_free(m);
    return rc;
}

void spv_free(spv_module *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->ntypes; i++) {
        free(m->types[i].members);
        free(m->types[i].params);
    }
    for (size_t i = 0; i < m->nconsts; i++)
        free(m->consts[i].parts);
    for (size_t i = 0; i < m->nentries; i++) {
        free(m->entries[i].name);
        free(m->entries[i].interface);
    }
    for (size_t i = 0; i < m->nblocks; i++) {
        free(m->blocks[i].succ);
        free(m->blocks[i].pred);
    }
    for (size_t i = 0; i < m->nfuncs; i++)
        free(m->funcs[i].rpo_order);
    free(m->param_pool);
    if (m->id_name)
        for (uint32_t i = 0; i < m->bound; i++)
            free(m->id_name[i]);
    if (m->id_string)
        for (uint32_t i = 0; i < m->bound; i++)
            free(m->id_string[i]);
    for (size_t i = 0; i < m->nmember_names; i++)
        free(m->member_names[i]);
    free(m->member_names);
    free(m->words);
    free(m->insts);
    free(m->types);
    free(m->consts);
    free(m->vars);
    free(m->decos);
    free(m->entries);
    free(m->funcs);
    free(m->blocks);
    free(m->capabilities);
    free(m->source_text);
    free(m->id_inst);
    free(m->id_type);
    free(m->id_const);
    free(m->id_var);
    free(m->id_block);
    free(m->id_func);
    free(m->id_name);
    free(m->id_string);
    free(m->deco_first);
    memset(m, 0, sizeof *m);
}

