/* spirv_int.h - internals shared by the SPIR-V reader's files:
 *   spirv.c         the pass over the words into tables, decorations,
 *                   names, types; spv_parse / spv_free
 *   spirv_cfg.c     the CFG of each function (edges, dominators,
 *                   reducibility, loops), the call graph, entry points
 *   spirv_spec.c    specialization: folding OpSpecConstantOp, applying
 *                   spec values (spv_specialize)
 *   spirv_access.c  the bound-checked accessors and type sizes
 * Nothing here is used outside verifier/spirv*.c. */
#ifndef CW_SPIRV_INT_H
#define CW_SPIRV_INT_H

#include "spirv.h"
#include "half.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#define SPV_MAGIC 0x07230203u
/* SPIR-V's universal limit on ids (spec 2.17). */
#define SPV_MAX_BOUND 0x400000u
/* Type nesting deeper than this is rejected as absurd. */
#define SPV_MAX_TYPE_DEPTH 64
/* Work budget of the CFG analysis (dominators, irreducibility, loop
 * bodies), in steps over the whole module. */
#define SPV_CFG_BUDGET 20000000u
/* More entry points than this is rejected as absurd. */
#define SPV_MAX_ENTRIES 4096

/* ---- parse context ---- */

typedef struct member_name {
    uint32_t type, member;
    const char *text; /* owned by m->member_names */
} member_name;

typedef struct branch_ref {
    uint32_t block; /* block index */
    uint32_t label; /* target id */
} branch_ref;

typedef struct parse_ctx {
    spv_module *m;
    cw_error *err;
    uint32_t cur_func;  /* SPV_NONE outside a function */
    uint32_t cur_block; /* SPV_NONE outside a block */
    int line, column;
    uint32_t file;
    uint32_t *param_pool;
    size_t nparam_pool;
    branch_ref *brefs;
    size_t nbrefs, capbrefs;
    member_name *mnames;
    size_t nmnames;
    uint32_t *fwd_ptr; /* forward-declared pointer ids */
    size_t nfwd;
    uint8_t *fwd_mark; /* per id: named by OpTypeForwardPointer */
    uint32_t debug_info; /* NonSemantic.Shader.DebugInfo.100 import id */
} parse_ctx;

void spv_set_err(cw_error *err, size_t word, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static inline uint32_t bswap32(uint32_t w)
{
    return (w >> 24) | ((w >> 8) & 0xff00u) | ((w << 8) & 0xff0000u) | (w << 24);
}

static inline uint64_t width_mask(uint32_t width)
{
    return width >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << width) - 1);
}

static inline int64_t sext(uint64_t bits, uint32_t width)
{
    if (width == 0 || width >= 64)
        return (int64_t)bits;
    bits &= width_mask(width);
    if (bits & ((uint64_t)1 << (width - 1)))
        bits |= ~width_mask(width);
    return (int64_t)bits;
}

static inline double half_to_double(uint16_t h)
{
    int sign = h >> 15, exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
    double v;
    if (exp == 0)
        v = mant / 1024.0 / 16384.0; /* 2^-14 * mant/1024 */
    else if (exp == 31)
        v = mant ? NAN : INFINITY;
    else {
        v = 1.0 + mant / 1024.0;
        int e = exp - 15;
        while (e > 0) { v *= 2; e--; }
        while (e < 0) { v /= 2; e++; }
    }
    return sign ? -v : v;
}

static inline uint16_t double_to_half(double d)
{
    uint16_t sign = 0;
    int e = 0;
    if (d != d)
        return 0x7e00;
    if (d < 0) { sign = 0x8000; d = -d; }
    if (d >= 65520.0)
        return sign | 0x7c00;
    if (d < 6.103515625e-05) { /* subnormal */
        unsigned m = (unsigned)(d * 16777216.0 + 0.5); /* / 2^-24 */
        return sign | (uint16_t)m;
    }
    while (d >= 2.0) { d /= 2; e++; }
    while (d < 1.0) { d *= 2; e--; }
    unsigned mant = (unsigned)((d - 1.0) * 1024.0 + 0.5);
    if (mant == 1024) { mant = 0; e++; }
    if (e + 15 >= 31)
        return sign | 0x7c00;
    return sign | (uint16_t)((e + 15) << 10) | (uint16_t)mant;
}

static inline double bits_to_double(uint64_t bits, uint32_t width)
{
    if (width == 16)
        return half_to_double((uint16_t)bits);
    if (width == 32) {
        float f;
        uint32_t w = (uint32_t)bits;
        memcpy(&f, &w, 4);
        return f;
    }
    double d;
    memcpy(&d, &bits, 8);
    return d;
}

static inline uint64_t double_to_bits(double d, uint32_t width)
{
    if (width == 16)
        return double_to_half(d);
    if (width == 32) {
        float f = (float)d;
        uint32_t w;
        memcpy(&w, &f, 4);
        return w;
    }
    uint64_t b;
    memcpy(&b, &d, 8);
    return b;
}

static inline const spv_type *type_at(const spv_module *m, uint32_t id)
{
    if (id == 0 || id >= m->bound || !m->id_type[id])
        return NULL;
    return &m->types[m->id_type[id] - 1];
}

static inline int check_id(parse_ctx *c, size_t word, uint32_t id, const char *what)
{
    if (id == 0 || id >= c->m->bound) {
        spv_set_err(c->err, word, "%s id %u is out of range (module bound %u)",
                what, id, c->m->bound);
        return -1;
    }
    return 0;
}

static inline const spv_const *cget(const spv_module *m, uint32_t id)
{
    if (id == 0 || id >= m->bound || !m->id_const[id])
        return NULL;
    return &m->consts[m->id_const[id] - 1];
}

/* Scalar bits + type of a constant operand; -1 if not a known scalar. */
static inline int scalar_operand(const spv_module *m, uint32_t id, uint64_t *bits,
                          const spv_type **t)
{
    const spv_const *k = cget(m, id);
    if (!k || !k->known)
        return -1;
    *t = type_at(m, k->type);
    if (!*t || ((*t)->kind != SPV_T_INT && (*t)->kind != SPV_T_FLOAT &&
                (*t)->kind != SPV_T_BOOL))
        return -1;
    if (k->kind == SPV_C_NULL) {
        *bits = 0;
        return 0;
    }
    if (k->kind != SPV_C_SCALAR)
        return -1;
    *bits = k->bits;
    return 0;
}

/* spirv_cfg.c */
int spv_build_edges(spv_module *m, parse_ctx *c);
int spv_analyse_cfg(spv_module *m, spv_function *f, parse_ctx *c, uint64_t *budget);
int spv_check_calls(spv_module *m, parse_ctx *c);
int spv_resolve_entries(spv_module *m, parse_ctx *c);
/* spirv_spec.c */
void spv_fold_spec_op(spv_module *m, spv_const *k);

#endif
