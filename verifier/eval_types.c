/* eval_types.c - type flattening: every SPIR-V type the evaluator holds
 * in registers or component-addressed memory is a run of scalar
 * components (ev_type); constants and explicitly laid-out bytes (push
 * constants, buffer contents) are decoded into such runs.  Contract in
 * eval_types.h. */
#include "eval_ctx.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/GLSL.std.450.h>
#include <spirv/unified1/spirv.h>

static uint32_t flat_mul(uint32_t a, uint64_t n)
{
    if (a == EV_NONE || n == 0)
        return EV_NONE;
    uint64_t r = (uint64_t)a * n;
    return r > EV_MAX_FLAT ? EV_NONE : (uint32_t)r;
}

const ev_type *ev_tinfo_compute(ev_ctx *c, uint32_t tid)
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
            const ev_type *e = ev_tinfo(c, st->elem);
            t->flat = flat_mul(e->flat, st->count);
            t->kind = e->kind; t->width = e->width; t->sign = e->sign;
            t->is_vec = e->is_vec && e->flat == 1;
            break;
        }
        case SPV_T_MATRIX: {
            const ev_type *e = ev_tinfo(c, st->elem);
            t->flat = flat_mul(e->flat, st->count);
            t->kind = e->kind; t->width = e->width;
            break;
        }
        case SPV_T_ARRAY: {
            const ev_type *e = ev_tinfo(c, st->elem);
            t->flat = flat_mul(e->flat, st->length);
            t->kind = e->kind; t->width = e->width; t->sign = e->sign;
            break;
        }
        case SPV_T_STRUCT: {
            uint64_t n = 0;
            for (uint32_t i = 0; i < st->nmembers; i++) {
                const ev_type *e = ev_tinfo(c, st->members[i].type);
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
uint32_t ev_flat_member_offset(ev_ctx *c, const spv_type *st, uint32_t idx)
{
    uint32_t off = 0;
    for (uint32_t i = 0; i < idx && i < st->nmembers; i++) {
        const ev_type *e = ev_tinfo(c, st->members[i].type);
        if (e->flat == EV_NONE)
            return EV_NONE;
        off += e->flat;
    }
    return off;
}

uint32_t ev_scalar_bytes(ev_ctx *c, uint32_t tid)
{
    const ev_type *t = ev_tinfo(c, tid);
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

/* Writes the flattened value of constant id into out[0..n). */
void ev_const_flat(ev_ctx *c, uint32_t id, ev_val *out, uint32_t n,
                       int depth)
{
    const spv_const *k = spv_const_of(c->m, id);
    const ev_type *t = ev_tinfo(c, k ? k->type : 0);
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
            const ev_type *pt = ev_tinfo(c, pk ? pk->type : 0);
            if (pt->flat == EV_NONE || pos + pt->flat > n)
                return;
            ev_const_flat(c, k->parts[i], out + pos, pt->flat, depth + 1);
            pos += pt->flat;
        }
        break;
    }
    default:
        break;
    }
}

/* Decodes a value of type tid at byte offset off of buf (explicit layout). */
void ev_decode_layout(ev_ctx *c, uint32_t tid, const uint8_t *buf,
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
            out[(*pos)++] = unk_of(ev_tinfo(c, tid));
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
        uint32_t sb = ev_scalar_bytes(c, st->elem);
        for (uint32_t i = 0; i < st->count; i++)
            ev_decode_layout(c, st->elem, buf, len, off + (int64_t)i * sb, out,
                          pos, n, depth + 1);
        return;
    }
    case SPV_T_MATRIX: {
        uint64_t cs = 0;
        spv_type_size(c->m, st->elem, &cs);
        for (uint32_t i = 0; i < st->count; i++)
            ev_decode_layout(c, st->elem, buf, len, off + (int64_t)(i * cs), out,
                          pos, n, depth + 1);
        return;
    }
    case SPV_T_ARRAY: {
        uint64_t es = st->array_stride;
        if (!es)
            spv_type_size(c->m, st->elem, &es);
        for (uint64_t i = 0; i < st->length && *pos < n; i++)
            ev_decode_layout(c, st->elem, buf, len, off + (int64_t)(i * es), out,
                          pos, n, depth + 1);
        return;
    }
    case SPV_T_STRUCT:
        for (uint32_t i = 0; i < st->nmembers; i++)
            ev_decode_layout(c, st->members[i].type, buf, len,
                          off + st->members[i].offset, out, pos, n, depth + 1);
        return;
    default:
        return;
    }
}

/* Fills out[0..n) with "unknown" of the right scalar kinds of type tid. */
void ev_fill_unknown(ev_ctx *c, uint32_t tid, ev_val *out, uint32_t n)
{
    const ev_type *t = ev_tinfo(c, tid);
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

uint32_t ev_flat_path(ev_ctx *c, uint32_t tid, const uint32_t *idx,
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
            uint32_t d = ev_flat_member_offset(c, st, idx[i]);
            if (d == EV_NONE)
                return EV_NONE;
            off += d;
            tid = st->members[idx[i]].type;
            break;
        }
        case SPV_T_ARRAY: case SPV_T_VECTOR: case SPV_T_MATRIX: {
            uint32_t f = ev_tinfo(c, st->elem)->flat;
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

const ev_type *ev_val_type(ev_ctx *c, uint32_t id)
{
    const spv_type *t = ev_stype(c, id);
    return ev_tinfo(c, t ? t->id : 0);
}
