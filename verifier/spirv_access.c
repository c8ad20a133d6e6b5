/* spirv_access.c - bound-checked accessors and type sizes.  See spirv.h. */
#include "spirv_int.h"
#include "alloc.h"

#include <spirv/unified1/spirv.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- accessors ---- */

const spv_inst *spv_def(const spv_module *m, uint32_t id)
{
    if (!m || id == 0 || id >= m->bound || !m->id_inst || !m->id_inst[id])
        return NULL;
    return &m->insts[m->id_inst[id] - 1];
}

const spv_type *spv_type_of(const spv_module *m, uint32_t type_id)
{
    if (!m || !m->id_type)
        return NULL;
    return type_at(m, type_id);
}

const spv_type *spv_value_type(const spv_module *m, uint32_t id)
{
    const spv_inst *in = spv_def(m, id);
    return in ? spv_type_of(m, in->type_id) : NULL;
}

const spv_const *spv_const_of(const spv_module *m, uint32_t id)
{
    if (!m || !m->id_const)
        return NULL;
    return cget(m, id);
}

const spv_var *spv_var_of(const spv_module *m, uint32_t id)
{
    if (!m || !m->id_var || id == 0 || id >= m->bound || !m->id_var[id])
        return NULL;
    return &m->vars[m->id_var[id] - 1];
}

const spv_function *spv_func_of(const spv_module *m, uint32_t func_id)
{
    if (!m || !m->id_func || func_id == 0 || func_id >= m->bound || !m->id_func[func_id])
        return NULL;
    return &m->funcs[m->id_func[func_id] - 1];
}

uint32_t spv_block_of_label(const spv_module *m, uint32_t label_id)
{
    if (!m || !m->id_block || label_id == 0 || label_id >= m->bound || !m->id_block[label_id])
        return SPV_NONE;
    return m->id_block[label_id] - 1;
}

const char *spv_name(const spv_module *m, uint32_t id)
{
    if (!m || !m->id_name || id == 0 || id >= m->bound)
        return NULL;
    return m->id_name[id];
}

const char *spv_member_name(const spv_module *m, uint32_t struct_id,
                            uint32_t member)
{
    const spv_type *t = spv_type_of(m, struct_id);
    if (!t || t->kind != SPV_T_STRUCT || member >= t->nmembers)
        return NULL;
    return t->members[member].name;
}

const char *spv_string(const spv_module *m, uint32_t string_id)
{
    if (!m || !m->id_string || string_id == 0 || string_id >= m->bound)
        return NULL;
    return m->id_string[string_id];
}

const spv_entry *spv_entry_find(const spv_module *m, const char *name)
{
    if (!m || !name)
        return NULL;
    for (size_t i = 0; i < m->nentries; i++)
        if (strcmp(m->entries[i].name, name) == 0)
            return &m->entries[i];
    return NULL;
}

int spv_const_u64(const spv_module *m, uint32_t id, uint64_t *out)
{
    uint64_t bits;
    const spv_type *t;
    if (!m || scalar_operand(m, id, &bits, &t))
        return -1;
    *out = bits & width_mask(t->kind == SPV_T_BOOL ? 1 : t->width);
    return 0;
}

int spv_const_i64(const spv_module *m, uint32_t id, int64_t *out)
{
    uint64_t bits;
    const spv_type *t;
    if (!m || scalar_operand(m, id, &bits, &t))
        return -1;
    if (t->kind == SPV_T_INT && t->is_signed)
        *out = sext(bits, t->width);
    else if (t->kind == SPV_T_FLOAT)
        *out = (int64_t)bits_to_double(bits, t->width);
    else
        *out = (int64_t)bits;
    return 0;
}

int spv_const_f64(const spv_module *m, uint32_t id, double *out)
{
    uint64_t bits;
    const spv_type *t;
    if (!m || scalar_operand(m, id, &bits, &t))
        return -1;
    if (t->kind == SPV_T_FLOAT)
        *out = bits_to_double(bits, t->width);
    else if (t->kind == SPV_T_INT && t->is_signed)
        *out = (double)sext(bits, t->width);
    else
        *out = (double)bits;
    return 0;
}

int spv_const_default_f64(const spv_module *m, uint32_t id, double *out)
{
    const spv_const *k = spv_const_of(m, id);
    const spv_type *t = k ? spv_type_of(m, k->type) : NULL;
    if (!k || !t || k->kind != SPV_C_SCALAR || k->spec_op)
        return -1;
    if (t->kind == SPV_T_FLOAT)
        *out = bits_to_double(k->default_bits, t->width);
    else if (t->kind == SPV_T_INT && t->is_signed)
        *out = (double)sext(k->default_bits, t->width);
    else if (t->kind == SPV_T_INT || t->kind == SPV_T_BOOL)
        *out = (double)k->default_bits;
    else
        return -1;
    return 0;
}

uint32_t spv_const_component(const spv_module *m, uint32_t id, uint32_t i)
{
    const spv_const *k = spv_const_of(m, id);
    if (!k || k->kind != SPV_C_COMPOSITE || i >= k->nparts)
        return 0;
    return k->parts[i];
}

const spv_decoration *spv_decorations(const spv_module *m, uint32_t id,
                                      size_t *n)
{
    *n = 0;
    if (!m || !m->deco_first || id == 0 || id >= m->bound || !m->deco_first[id])
        return NULL;
    size_t first = m->deco_first[id] - 1, end = first;
    while (end < m->ndecos && m->decos[end].target == id)
        end++;
    *n = end - first;
    return &m->decos[first];
}

const spv_decoration *spv_decoration_find(const spv_module *m, uint32_t id,
                                          int32_t member, uint32_t deco)
{
    size_t n;
    const spv_decoration *d = spv_decorations(m, id, &n);
    for (size_t i = 0; i < n; i++)
        if (d[i].member == member && d[i].decoration == deco)
            return &d[i];
    return NULL;
}

int spv_decorated(const spv_module *m, uint32_t id, uint32_t deco,
                  uint32_t *value)
{
    const spv_decoration *d = spv_decoration_find(m, id, -1, deco);
    if (!d)
        return 0;
    if (value)
        *value = d->nargs ? d->args[0] : 0;
    return 1;
}

int spv_member_decorated(const spv_module *m, uint32_t struct_id,
                         uint32_t member, uint32_t deco, uint32_t *value)
{
    if (member > 0x7fffffffu)
        return 0;
    const spv_decoration *d = spv_decoration_find(m, struct_id, (int32_t)member, deco);
    if (!d)
        return 0;
    if (value)
        *value = d->nargs ? d->args[0] : 0;
    return 1;
}

#define SIZE_LIMIT ((uint64_t)1 << 62)

static int type_size(const spv_module *m, uint32_t id, uint64_t *bytes,
                     int depth)
{
    const spv_type *t = spv_type_of(m, id);
    uint64_t es, n;
    int rc;
    if (!t || depth > SPV_MAX_TYPE_DEPTH)
        return -1;
    switch (t->kind) {
    case SPV_T_BOOL: *bytes = 4; return 0; /* only in private memory */
    case SPV_T_INT: case SPV_T_FLOAT: *bytes = t->width / 8; return 0;
    case SPV_T_POINTER: *bytes = 8; return 0;
    case SPV_T_VECTOR:
    case SPV_T_MATRIX:
        if ((rc = type_size(m, t->elem, &es, depth + 1)) != 0)
            return rc;
        if (t->kind == SPV_T_MATRIX) {
            /* MatrixStride lives on the struct member; here: packed */
        }
        *bytes = es * t->count;
        return 0;
    case SPV_T_ARRAY:
        if (t->length == 0)
            return -1;
        if ((rc = type_size(m, t->elem, &es, depth + 1)) != 0)
            return rc;
        n = t->length;
        if (t->array_stride)
            es = t->array_stride;
        if (es && n > SIZE_LIMIT / es)
            return -2;
        *bytes = es * n;
        return 0;
    case SPV_T_RUNTIME_ARRAY:
        *bytes = 0;
        return 0;
    case SPV_T_STRUCT: {
        uint64_t end = 0, off = 0;
        for (uint32_t i = 0; i < t->nmembers; i++) {
            const spv_member *mb = &t->members[i];
            const spv_type *mt = spv_type_of(m, mb->type);
            if (mt && mt->kind == SPV_T_RUNTIME_ARRAY) {
                if (mb->has_offset)
                    off = mb->offset;
                if (off > end)
                    end = off;
                continue;
            }
            if ((rc = type_size(m, mb->type, &es, depth + 1)) != 0)
                return rc;
            if (mt && mt->kind == SPV_T_MATRIX && mb->matrix_stride) {
                const spv_type *col = spv_type_of(m, mt->elem);
                uint64_t cs = 0;
                if (col && type_size(m, mt->elem, &cs, depth + 1) == 0) {
                    uint32_t nvec = mb->row_major ? col->count : mt->count;
                    uint64_t vlen = mb->row_major ? (cs / (col->count ? col->count : 1)) * mt->count : cs;
                    es = (uint64_t)mb->matrix_stride * (nvec - 1) + vlen;
                }
            }
            if (mb->has_offset)
                off = mb->offset;
            if (off > SIZE_LIMIT - es)
                return -2;
            if (off + es > end)
                end = off + es;
            off += es;
        }
        *bytes = end;
        return 0;
    }
    default:
        return -1;
    }
}

int spv_type_size(const spv_module *m, uint32_t type_id, uint64_t *bytes)
{
    uint64_t b = 0;
    int rc = type_size(m, type_id, &b, 0);
    if (rc)
        return rc;
    *bytes = b;
    return 0;
}

static uint64_t sat_add(uint64_t a, uint64_t b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static uint64_t sat_mul(uint64_t a, uint64_t b)
{
    return b && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

static uint64_t saturated_size(const spv_module *m, uint32_t id, int *zero, int depth)
{
    const spv_type *t = spv_type_of(m, id);
    if (!t || depth > 64)
        return 0;
    switch (t->kind) {
    case SPV_T_BOOL: return 4;
    case SPV_T_INT: case SPV_T_FLOAT: return t->width / 8 ? t->width / 8 : 1;
    case SPV_T_POINTER: return 8;
    case SPV_T_VECTOR: case SPV_T_MATRIX:
        return sat_mul(saturated_size(m, t->elem, zero, depth + 1), t->count);
    case SPV_T_ARRAY:
        if (t->length == 0)
            *zero = 1;
        return sat_mul(saturated_size(m, t->elem, zero, depth + 1), t->length);
    case SPV_T_STRUCT: {
        uint64_t s = 0;
        for (uint32_t i = 0; i < t->nmembers; i++)
            s = sat_add(s, saturated_size(m, t->members[i].type, zero, depth + 1));
        return s;
    }
    default:
        return 0;
    }
}

uint64_t spv_type_size_saturated(const spv_module *m, uint32_t type_id, int *zero)
{
    return saturated_size(m, type_id, zero, 0);
}

const spv_type *spv_scalar_of(const spv_module *m, uint32_t type_id,
                              uint32_t *components)
{
    const spv_type *t = spv_type_of(m, type_id);
    uint32_t comps = 1;
    for (int depth = 0; t && depth < SPV_MAX_TYPE_DEPTH; depth++) {
        switch (t->kind) {
        case SPV_T_INT: case SPV_T_FLOAT: case SPV_T_BOOL:
            if (components)
                *components = comps;
            return t;
        case SPV_T_VECTOR:
            comps = t->count;
            t = spv_type_of(m, t->elem);
            break;
        case SPV_T_MATRIX: case SPV_T_ARRAY: case SPV_T_RUNTIME_ARRAY:
            comps = 1;
            t = spv_type_of(m, t->elem);
            break;
        default:
            return NULL;
        }
    }
    return NULL;
}

const char *spv_inst_file(const spv_module *m, size_t i)
{
    if (!m || i >= m->ninsts)
        return NULL;
    return spv_string(m, m->insts[i].file);
}
