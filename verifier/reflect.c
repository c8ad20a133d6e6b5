/* reflect.c - reflection of one entry point of a parsed (specialized)
 * module: descriptor bindings with their static read/write use, push
 * constants, spec constants, workgroup memory and local size.  Also the
 * plan-facing helpers of verifier.h that only need the reflection
 * (verifier_push_bytes, verifier_buffer_bytes) and scalar kinds.
 *
 * Static use: the functions reachable from the entry point are scanned;
 * every pointer is traced back to its root variable through access chains,
 * copies and function parameters, and loads / stores / atomics through it
 * mark the variable read / written.
 */
#include "bufinit.h"
#include "checks.h"
#include "alloc.h"

#include <spirv/unified1/spirv.h>

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *zalloc(size_t n, size_t size)
{
    void *p = xcalloc(n ? n : 1, size);
    return p;
}

size_t scalar_size(scalar_kind k)
{
    switch (k) {
    case SCALAR_BOOL: return 4;
    case SCALAR_I8: case SCALAR_U8: return 1;
    case SCALAR_I16: case SCALAR_U16: case SCALAR_F16: return 2;
    case SCALAR_I32: case SCALAR_U32: case SCALAR_F32: return 4;
    case SCALAR_I64: case SCALAR_U64: case SCALAR_F64: return 8;
    default: return 0;
    }
}

bufinit_elem verifier_bufinit_elem(scalar_kind k)
{
    bufinit_elem e = {(uint8_t)scalar_size(k), 0, 0, 0};
    e.is_float = k == SCALAR_F16 || k == SCALAR_F32 || k == SCALAR_F64 || k == SCALAR_NONE;
    e.is_signed = k == SCALAR_I8 || k == SCALAR_I16 || k == SCALAR_I32 || k == SCALAR_I64;
    e.is_bool = k == SCALAR_BOOL;
    return e;
}

const char *scalar_name(scalar_kind k)
{
    switch (k) {
    case SCALAR_BOOL: return "bool";
    case SCALAR_I8: return "int8";
    case SCALAR_U8: return "uint8";
    case SCALAR_I16: return "int16";
    case SCALAR_U16: return "uint16";
    case SCALAR_I32: return "int";
    case SCALAR_U32: return "uint";
    case SCALAR_I64: return "int64";
    case SCALAR_U64: return "uint64";
    case SCALAR_F16: return "float16";
    case SCALAR_F32: return "float";
    case SCALAR_F64: return "double";
    default: return "none";
    }
}

static scalar_kind kind_of(const spv_type *t)
{
    if (!t)
        return SCALAR_NONE;
    if (t->kind == SPV_T_BOOL)
        return SCALAR_BOOL;
    if (t->kind == SPV_T_FLOAT)
        return t->width == 16 ? SCALAR_F16 : t->width == 32 ? SCALAR_F32 : SCALAR_F64;
    if (t->kind == SPV_T_INT) {
        switch (t->width) {
        case 8: return t->is_signed ? SCALAR_I8 : SCALAR_U8;
        case 16: return t->is_signed ? SCALAR_I16 : SCALAR_U16;
        case 32: return t->is_signed ? SCALAR_I32 : SCALAR_U32;
        default: return t->is_signed ? SCALAR_I64 : SCALAR_U64;
        }
    }
    return SCALAR_NONE;
}

/* ---- static use ---- */

typedef struct use_info {
    uint32_t *root;    /* per id: root variable id of a pointer, 0 none */
    uint8_t *reads;    /* per var index */
    uint8_t *writes;
    uint8_t *used;
    uint8_t *reach;    /* per function index: reachable from the entry */
} use_info;

static uint32_t root_of(const spv_module *m, const use_info *u, uint32_t id)
{
    if (id == 0 || id >= m->bound)
        return 0;
    return u->root[id];
}

static void mark(const spv_module *m, use_info *u, uint32_t ptr, int rd, int wr)
{
    uint32_t r = root_of(m, u, ptr);
    const spv_var *v = r ? spv_var_of(m, r) : NULL;
    if (!v)
        return;
    size_t vi = (size_t)(v - m->vars);
    u->used[vi] = 1;
    if (rd)
        u->reads[vi] = 1;
    if (wr)
        u->writes[vi] = 1;
}

static void scan_function(const spv_module *m, use_info *u, const spv_function *f)
{
    for (uint32_t i = f->first_inst; i < f->end_inst && i < m->ninsts; i++) {
        const spv_inst *in = &m->insts[i];
        const uint32_t *o = in->ops;
        switch (in->opcode) {
        case SpvOpAccessChain: case SpvOpInBoundsAccessChain:
        case SpvOpPtrAccessChain: case SpvOpInBoundsPtrAccessChain:
        case SpvOpCopyObject: case SpvOpBitcast:
            if (in->nops >= 1 && in->result_id)
                u->root[in->result_id] = root_of(m, u, o[0]);
            if (in->nops >= 1)
                mark(m, u, o[0], 0, 0);
            break;
        case SpvOpSelect:
            if (in->nops >= 3 && in->result_id) {
                uint32_t r = root_of(m, u, o[1]);
                u->root[in->result_id] = r ? r : root_of(m, u, o[2]);
            }
            break;
        case SpvOpPhi:
            for (uint32_t k = 0; k + 1 < in->nops && in->result_id; k += 2) {
                uint32_t r = root_of(m, u, o[k]);
                if (r) {
                    u->root[in->result_id] = r;
                    break;
                }
            }
            break;
        case SpvOpLoad:
            if (in->nops >= 1)
                mark(m, u, o[0], 1, 0);
            break;
        case SpvOpStore:
            if (in->nops >= 1)
                mark(m, u, o[0], 0, 1);
            break;
        case SpvOpCopyMemory: case SpvOpCopyMemorySized:
            if (in->nops >= 2) {
                mark(m, u, o[0], 0, 1);
                mark(m, u, o[1], 1, 0);
            }
            break;
        case SpvOpArrayLength:
            /* .length() needs the buffer bound: counts as a read */
            if (in->nops >= 1)
                mark(m, u, o[0], 1, 0);
            break;
        case SpvOpFunctionCall: {
            const spv_function *g = in->nops ? spv_func_of(m, o[0]) : NULL;
            if (!g)
                break;
            for (uint32_t k = 1; k < in->nops && k - 1 < g->nparams; k++) {
                uint32_t r = root_of(m, u, o[k]);
                if (r && g->params[k - 1] < m->bound)
                    u->root[g->params[k - 1]] = r;
                mark(m, u, o[k], 0, 0);
            }
            break;
        }
        default:
            if (in->nops >= 1 && strcmp(spv_opcode_class(in->opcode), "Atomic") == 0) {
                int rd = in->opcode != SpvOpAtomicStore;
                int wr = in->opcode != SpvOpAtomicLoad;
                mark(m, u, o[0], rd, wr);
            }
            break;
        }
    }
}

/* Functions reachable from the entry through OpFunctionCall (bounded:
 * each function is queued at most once). */
static void find_reachable(const spv_module *m, const spv_entry *e, uint8_t *reach)
{
    uint32_t *queue = zalloc(m->nfuncs, sizeof *queue);
    size_t qh = 0, qt = 0;
    if (e->func < m->nfuncs) {
        reach[e->func] = 1;
        queue[qt++] = e->func;
    }
    while (qh < qt) {
        const spv_function *f = &m->funcs[queue[qh++]];
        for (uint32_t i = f->first_inst; i < f->end_inst && i < m->ninsts; i++) {
            const spv_inst *in = &m->insts[i];
            if (in->opcode != SpvOpFunctionCall || in->nops < 1)
                continue;
            const spv_function *g = spv_func_of(m, in->ops[0]);
            if (!g)
                continue;
            size_t gi = (size_t)(g - m->funcs);
            if (!reach[gi]) {
                reach[gi] = 1;
                queue[qt++] = (uint32_t)gi;
            }
        }
    }
    free(queue);
}

/* ---- bindings ---- */

static void fill_block_layout(const spv_module *m, const spv_type *st, refl_binding *b)
{
    uint64_t size = 0;
    /* a block past 2^62 bytes (float[2^32-1] at ArrayStride 2^32-4) is
     * saturated: as 0 it passed check bound to a 64-byte buffer */
    int src = spv_type_size(m, st->id, &size);
    b->fixed_bytes = src == 0 ? size : src == -2 ? UINT64_MAX : 0;
    b->array_offset = b->fixed_bytes;
    if (st->kind != SPV_T_STRUCT || st->nmembers == 0)
        return;
    const spv_member *last = &st->members[st->nmembers - 1];
    const spv_type *lt = spv_type_of(m, last->type);
    if (!lt || (lt->kind != SPV_T_RUNTIME_ARRAY && lt->kind != SPV_T_ARRAY))
        return;
    b->array_offset = last->has_offset ? last->offset : b->fixed_bytes;
    uint32_t stride = lt->array_stride;
    if (!stride) {
        uint64_t es;
        if (spv_type_size(m, lt->elem, &es) == 0 && es <= 0xffffffffu)
            stride = (uint32_t)es;
    }
    if (lt->kind == SPV_T_RUNTIME_ARRAY)
        b->array_stride = stride;
    else
        b->sized_array_stride = stride;
    const spv_type *et = spv_type_of(m, lt->elem);
    if (et && (et->kind == SPV_T_INT || et->kind == SPV_T_FLOAT || et->kind == SPV_T_BOOL ||
               et->kind == SPV_T_VECTOR)) {
        uint32_t comps = 1;
        b->elem = kind_of(spv_scalar_of(m, lt->elem, &comps));
        b->elem_components = comps;
    }
}

static void add_binding(const spv_module *m, const spv_var *v, const use_info *u,
                        reflection *out)
{
    const spv_type *pt = spv_type_of(m, v->pointee);
    /* descriptor arrays: reflect the element */
    for (int d = 0; d < 4 && pt && (pt->kind == SPV_T_ARRAY || pt->kind == SPV_T_RUNTIME_ARRAY); d++)
        pt = spv_type_of(m, pt->elem);
    refl_binding *b = &out->bindings[out->nbindings++];
    memset(b, 0, sizeof *b);
    b->set = v->has_set ? v->set : 0;
    b->binding = v->binding;
    b->var_id = v->id;
    size_t vi = (size_t)(v - m->vars);
    b->reads = u->reads[vi];
    b->writes = u->writes[vi];
    const char *name = v->name && v->name[0] ? v->name : NULL;
    if (!name && pt)
        name = spv_name(m, pt->id);
    b->name = zalloc(1, 1);
    if (name && name[0]) {
        free(b->name);
        b->name = cw_strdup(name);
    }
    if (v->storage == SpvStorageClassStorageBuffer && pt && pt->kind == SPV_T_STRUCT)
        b->kind = DESC_STORAGE_BUFFER;
    else if (v->storage == SpvStorageClassUniform && pt && pt->kind == SPV_T_STRUCT)
        b->kind = pt->buffer_block ? DESC_STORAGE_BUFFER : DESC_UNIFORM_BUFFER;
    else
        b->kind = DESC_OTHER;
    if (b->kind != DESC_OTHER)
        fill_block_layout(m, pt, b);
}

static int binding_cmp(const void *a, const void *b)
{
    const refl_binding *x = a, *y = b;
    if (x->set != y->set)
        return x->set < y->set ? -1 : 1;
    return x->binding < y->binding ? -1 : x->binding > y->binding;
}

static char *dup_or_empty(const char *s)
{
    char *p = cw_strdup(s ? s : "");
    return p;
}

void reflect_module(const spv_module *m, const spv_entry *e, reflection *out)
{
    use_info u;
    memset(out, 0, sizeof *out);
    out->entry = dup_or_empty(e ? e->name : "");
    if (!m)
        return;
    memset(&u, 0, sizeof u);
    u.root = zalloc(m->bound, sizeof *u.root);
    u.reads = zalloc(m->nvars, 1);
    u.writes = zalloc(m->nvars, 1);
    u.used = zalloc(m->nvars, 1);
    u.reach = zalloc(m->nfuncs, 1);
    for (size_t i = 0; i < m->nvars; i++)
        u.root[m->vars[i].id] = m->vars[i].id;
    if (e) {
        for (int d = 0; d < 3; d++)
            out->local_size[d] = e->local_size[d];
        find_reachable(m, e, u.reach);
        /* twice, so pointers passed to functions defined before their
         * caller are traced too */
        for (int pass = 0; pass < 2; pass++)
            for (size_t f = 0; f < m->nfuncs; f++)
                if (u.reach[f])
                    scan_function(m, &u, &m->funcs[f]);
    }

    out->bindings = zalloc(m->nvars, sizeof *out->bindings);
    out->shared = zalloc(m->nvars, sizeof *out->shared);
    const spv_var *push = NULL;
    for (size_t i = 0; i < m->nvars; i++) {
        const spv_var *v = &m->vars[i];
        switch (v->storage) {
        case SpvStorageClassStorageBuffer:
        case SpvStorageClassUniform:
        case SpvStorageClassUniformConstant:
            if (v->has_binding)
                add_binding(m, v, &u, out);
            break;
        case SpvStorageClassPushConstant:
            if (!push || (u.used[i] && !u.used[push - m->vars]))
                push = v;
            break;
        case SpvStorageClassWorkgroup: {
            if (!u.used[i])
                break; /* not statically used: the driver drops it */
            refl_shared_var *s = &out->shared[out->nshared++];
            uint64_t bytes = 0;
            int zero = 0;
            /* past 2^62 (overflow) the size saturates: a 2^64-byte array
             * that wrapped to 0 passed check and crashed the driver */
            if (spv_type_size(m, v->pointee, &bytes))
                bytes = spv_type_size_saturated(m, v->pointee, &zero);
            if (zero)
                bytes = 0; /* array-length-invalid says it */
            s->name = dup_or_empty(v->name);
            s->bytes = bytes;
            s->var_id = v->id;
            out->shared_bytes = out->shared_bytes > UINT64_MAX - bytes ? UINT64_MAX
                                                                       : out->shared_bytes + bytes;
            break;
        }
        default:
            break;
        }
    }
    qsort(out->bindings, out->nbindings, sizeof *out->bindings, binding_cmp);

    if (push) {
        const spv_type *st = spv_type_of(m, push->pointee);
        uint64_t size = 0;
        /* past 4 GiB: saturated, not 0 (a block at Offset 2^32-4 passed
         * check as an empty one) */
        if (st && spv_type_size(m, st->id, &size) == 0)
            out->push_bytes = size <= 0xffffffffu ? (uint32_t)size : UINT32_MAX;
        if (st && st->kind == SPV_T_STRUCT) {
            out->push = zalloc(st->nmembers, sizeof *out->push);
            for (uint32_t i = 0; i < st->nmembers; i++) {
                const spv_member *mb = &st->members[i];
                refl_push_member *pm = &out->push[out->npush++];
                uint64_t ms = 0;
                uint32_t comps = 1;
                pm->name = dup_or_empty(mb->name);
                pm->offset = mb->has_offset ? mb->offset : 0;
                pm->size = spv_type_size(m, mb->type, &ms) == 0 && ms <= 0xffffffffu
                               ? (uint32_t)ms : 0;
                const spv_type *mt = spv_type_of(m, mb->type);
                if (mt && (mt->kind == SPV_T_INT || mt->kind == SPV_T_FLOAT ||
                           mt->kind == SPV_T_BOOL || mt->kind == SPV_T_VECTOR)) {
                    pm->type = kind_of(spv_scalar_of(m, mb->type, &comps));
                    pm->components = comps;
                } else {
                    pm->type = SCALAR_NONE;
                    pm->components = 0;
                }
            }
        }
    }

    out->specs = zalloc(m->nconsts, sizeof *out->specs);
    for (size_t i = 0; i < m->nconsts; i++) {
        const spv_const *k = &m->consts[i];
        if (!k->is_spec || !k->has_spec_id || k->spec_op || k->kind != SPV_C_SCALAR)
            continue;
        const spv_type *t = spv_type_of(m, k->type);
        refl_spec *s = &out->specs[out->nspecs++];
        s->id = k->spec_id;
        s->name = k->name && k->name[0] ? dup_or_empty(k->name) : NULL;
        s->type = kind_of(t);
        s->overridden = k->overridden;
        /* value: read through the module; default: from the default bits */
        double v = 0;
        spv_const_f64(m, k->id, &v);
        s->value = v;
        if (spv_const_default_f64(m, k->id, &s->default_value))
            s->default_value = 0;
    }

    free(u.root);
    free(u.reads);
    free(u.writes);
    free(u.used);
    free(u.reach);
}

void reflect_free(reflection *r)
{
    if (!r)
        return;
    free(r->entry);
    for (size_t i = 0; i < r->nbindings; i++)
        free(r->bindings[i].name);
    free(r->bindings);
    for (size_t i = 0; i < r->npush; i++)
        free(r->push[i].name);
    free(r->push);
    for (size_t i = 0; i < r->nspecs; i++)
        free(r->specs[i].name);
    free(r->specs);
    for (size_t i = 0; i < r->nshared; i++)
        free(r->shared[i].name);
    free(r->shared);
    memset(r, 0, sizeof *r);
}

/* ---- plan-facing helpers ---- */

static void put_le(uint8_t *p, uint64_t v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static uint16_t to_half(double d)
{
    /* round-to-nearest float16 from a double, via float */
    float f = (float)d;
    uint32_t x;
    memcpy(&x, &f, 4);
    uint32_t sign = (x >> 16) & 0x8000u;
    int32_t exp = (int32_t)((x >> 23) & 0xff) - 127 + 15;
    uint32_t mant = x & 0x7fffffu;
    if (((x >> 23) & 0xff) == 0xff)
        return (uint16_t)(sign | 0x7c00u | (mant ? 0x200u : 0));
    if (exp >= 31)
        return (uint16_t)(sign | 0x7c00u);
    if (exp <= 0) {
        if (exp < -10)
            return (uint16_t)sign;
        mant |= 0x800000u;
        uint32_t shift = (uint32_t)(14 - exp);
        uint32_t h = mant >> shift;
        if ((mant >> (shift - 1)) & 1)
            h++;
        return (uint16_t)(sign | h);
    }
    uint32_t h = sign | ((uint32_t)exp << 10) | (mant >> 13);
    if (mant & 0x1000u)
        h++;
    return (uint16_t)h;
}

/* "12" -> 12; "@8" (at) -> 8; else -1 */
static long push_key_number(const char *key, int at)
{
    if (!key || (at && *key++ != '@') || !isdigit((unsigned char)*key))
        return -1;
    char *end;
    errno = 0;
    long v = strtol(key, &end, 10);
    return *end || errno || v < 0 ? -1 : v;
}

const refl_push_member *verifier_push_member(const reflection *refl, const char *key)
{
    if (!refl || !key)
        return NULL;
    for (size_t j = 0; j < refl->npush; j++)
        if (refl->push[j].name[0] && strcmp(refl->push[j].name, key) == 0)
            return &refl->push[j];
    long idx = push_key_number(key, 0);
    if (idx >= 0 && (size_t)idx < refl->npush)
        return &refl->push[idx];
    long off = push_key_number(key, 1);
    for (size_t j = 0; off >= 0 && j < refl->npush; j++)
        if (refl->push[j].offset == (uint32_t)off)
            return &refl->push[j];
    return NULL;
}

const plan_value *verifier_push_value(const reflection *refl, const plan_kernel *k, size_t j)
{
    if (!refl || !k || j >= refl->npush)
        return NULL;
    for (size_t i = 0; i < k->npush; i++)
        if (verifier_push_member(refl, k->push[i].key) == &refl->push[j])
            return &k->push[i];
    return NULL;
}

int verifier_push_unnamed(const reflection *refl)
{
    if (!refl || !refl->npush)
        return 0;
    for (size_t j = 0; j < refl->npush; j++)
        if (refl->push[j].name[0])
            return 0;
    return 1;
}

void verifier_push_bytes(const reflection *refl, const plan_kernel *k,
                         uint8_t *buf)
{
    if (!refl || !buf)
        return;
    memset(buf, 0, refl->push_bytes);
    if (!k)
        return;
    for (size_t i = 0; i < k->npush; i++) {
        const plan_value *pv = &k->push[i];
        const refl_push_member *pm = verifier_push_member(refl, pv->key);
        if (!pm || pm->components != 1)
            continue;
        size_t sz = scalar_size(pm->type);
        if (sz == 0 || (uint64_t)pm->offset + sz > refl->push_bytes)
            continue;
        uint8_t *p = buf + pm->offset;
        int64_t iv = pv->is_integer ? pv->ivalue : (int64_t)pv->value;
        double dv = pv->is_integer ? (double)pv->ivalue : pv->value;
        switch (pm->type) {
        case SCALAR_F32: {
            float f = (float)dv;
            memcpy(p, &f, 4);
            break;
        }
        case SCALAR_F64:
            memcpy(p, &dv, 8);
            break;
        case SCALAR_F16:
            put_le(p, to_half(dv), 2);
            break;
        case SCALAR_BOOL:
            put_le(p, dv != 0, 4);
            break;
        default:
            put_le(p, (uint64_t)iv, sz);
            break;
        }
    }
}

int verifier_buffer_bytes(const reflection *refl, const plan_kernel *k,
                          const plan_buffer *b, uint64_t *bytes,
                          cw_error *err)
{
    const refl_binding *rb = NULL;
    (void)k;
    if (!refl || !b || !bytes)
        return -1;
    if (b->has_bytes) {
        *bytes = b->bytes;
        return 0;
    }
    for (size_t i = 0; i < refl->nbindings; i++)
        if (refl->bindings[i].set == b->set && refl->bindings[i].binding == b->binding)
            rb = &refl->bindings[i];
    if (!rb) {
        if (err) {
            cw_error_clear(err);
            err->line = b->line;
            err->column = b->column;
            snprintf(err->text, sizeof err->text,
                     "the shader declares no buffer at set %u binding %u, so 'elements' "
                     "cannot be converted to bytes; give 'bytes'", b->set, b->binding);
        }
        return -1;
    }
    uint32_t stride = rb->array_stride ? rb->array_stride : rb->sized_array_stride;
    if (!stride) {
        if (err) {
            cw_error_clear(err);
            err->line = b->line;
            err->column = b->column;
            snprintf(err->text, sizeof err->text,
                     "buffer '%s' (set %u binding %u) ends in no array, so 'elements' has no "
                     "meaning; give 'bytes' (the block needs %llu)", rb->name, b->set, b->binding,
                     (unsigned long long)rb->fixed_bytes);
        }
        return -1;
    }
    if (b->elements > (UINT64_MAX - rb->array_offset) / stride) {
        if (err) {
            cw_error_clear(err);
            err->line = b->line;
            err->column = b->column;
            snprintf(err->text, sizeof err->text,
                     "buffer '%s' (set %u binding %u): %llu elements of %u bytes overflow 64 bits",
                     rb->name, b->set, b->binding, (unsigned long long)b->elements, stride);
        }
        return -1;
    }
    *bytes = rb->array_offset + b->elements * stride;
    return 0;
}
