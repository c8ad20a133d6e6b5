/* spirv_spec.c - specialization constants: folding and plan values.
 * See spirv_int.h. */
#include "spirv_int.h"
#include "alloc.h"

#include <spirv/unified1/spirv.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- specialization ---- */



void spv_fold_spec_op(spv_module *m, spv_const *k)
{
    const spv_inst *in = spv_def(m, k->id);
    const spv_type *rt = type_at(m, k->type);
    k->known = 0;
    k->traps = 0;
    if (!in || !rt || (rt->kind != SPV_T_INT && rt->kind != SPV_T_BOOL && rt->kind != SPV_T_FLOAT))
        return;
    const uint32_t *a = in->ops + 1;
    uint32_t na = in->nops - 1;
    uint32_t op = k->spec_op;
    uint64_t x = 0, y = 0, z = 0, r = 0;
    const spv_type *tx = NULL, *ty = NULL, *tz = NULL;
    uint32_t rw = rt->kind == SPV_T_BOOL ? 1 : rt->width;

    if (op == SpvOpCompositeExtract) {
        if (na < 2)
            return;
        uint32_t cur = a[0];
        for (uint32_t i = 1; i < na; i++) {
            const spv_const *cc = cget(m, cur);
            if (!cc)
                return;
            if (cc->kind == SPV_C_NULL) {
                k->bits = 0;
                k->known = 1;
                return;
            }
            if (cc->kind != SPV_C_COMPOSITE || a[i] >= cc->nparts)
                return;
            cur = cc->parts[a[i]];
        }
        if (scalar_operand(m, cur, &x, &tx))
            return;
        k->bits = x & width_mask(rw);
        k->known = 1;
        return;
    }
    if (na < 1 || scalar_operand(m, a[0], &x, &tx))
        return;
    if (na >= 2 && scalar_operand(m, a[1], &y, &ty))
        ty = NULL;
    if (na >= 3 && scalar_operand(m, a[2], &z, &tz))
        tz = NULL;
    uint32_t xw = tx->kind == SPV_T_BOOL ? 1 : tx->width;
    uint32_t yw = ty ? (ty->kind == SPV_T_BOOL ? 1 : ty->width) : 0;
    int64_t sx = sext(x, xw), sy = sext(y, yw);
    if (ty && (op == SpvOpSDiv || op == SpvOpSRem || op == SpvOpSMod) && xw >= 2) {
        /* Mesa folds these with the host's division: INT_MIN / -1 at the
         * operands' width kills the process with SIGFPE (a check that
         * passed such a kernel crashed run; division by 0 it guards) */
        int64_t smin = xw >= 64 ? INT64_MIN : -((int64_t)1 << (xw - 1));
        k->traps = sy == -1 && sx == smin;
    }
#define BIN do { if (!ty) return; } while (0)
    switch (op) {
    case SpvOpSConvert: r = (uint64_t)sx; break;
    case SpvOpUConvert: r = x; break;
    case SpvOpFConvert:
        if (tx->kind != SPV_T_FLOAT || rt->kind != SPV_T_FLOAT)
            return;
        r = double_to_bits(bits_to_double(x, xw), rw);
        break;
    case SpvOpSNegate: r = (uint64_t)0 - x; break;
    case SpvOpNot: r = ~x; break;
    case SpvOpLogicalNot: r = !x; break;
    case SpvOpIAdd: BIN; r = x + y; break;
    case SpvOpISub: BIN; r = x - y; break;
    case SpvOpIMul: BIN; r = x * y; break;
    case SpvOpUDiv: BIN; if (!y) return; r = (x & width_mask(xw)) / (y & width_mask(yw)); break;
    case SpvOpUMod: BIN; if (!y) return; r = (x & width_mask(xw)) % (y & width_mask(yw)); break;
    case SpvOpSDiv: BIN; if (!sy || (sy == -1 && sx == INT64_MIN)) return; r = (uint64_t)(sx / sy); break;
    case SpvOpSRem: BIN; if (!sy || (sy == -1 && sx == INT64_MIN)) return; r = (uint64_t)(sx % sy); break;
    case SpvOpSMod: {
        BIN;
        if (!sy || (sy == -1 && sx == INT64_MIN)) return;
        int64_t q = sx % sy;
        if (q != 0 && ((q < 0) != (sy < 0))) q += sy;
        r = (uint64_t)q;
        break;
    }
    case SpvOpShiftRightLogical: BIN; r = y >= 64 ? 0 : (x & width_mask(xw)) >> y; break;
    case SpvOpShiftRightArithmetic: BIN; r = (uint64_t)(y >= 63 ? (sx < 0 ? -1 : 0) : sx >> y); break;
    case SpvOpShiftLeftLogical: BIN; r = y >= 64 ? 0 : x << y; break;
    case SpvOpBitwiseOr: BIN; r = x | y; break;
    case SpvOpBitwiseXor: BIN; r = x ^ y; break;
    case SpvOpBitwiseAnd: BIN; r = x & y; break;
    case SpvOpLogicalOr: BIN; r = (x || y); break;
    case SpvOpLogicalAnd: BIN; r = (x && y); break;
    case SpvOpLogicalEqual: BIN; r = (!x == !y); break;
    case SpvOpLogicalNotEqual: BIN; r = (!x != !y); break;
    case SpvOpIEqual: BIN; r = (x & width_mask(xw)) == (y & width_mask(yw)); break;
    case SpvOpINotEqual: BIN; r = (x & width_mask(xw)) != (y & width_mask(yw)); break;
    case SpvOpULessThan: BIN; r = (x & width_mask(xw)) < (y & width_mask(yw)); break;
    case SpvOpULessThanEqual: BIN; r = (x & width_mask(xw)) <= (y & width_mask(yw)); break;
    case SpvOpUGreaterThan: BIN; r = (x & width_mask(xw)) > (y & width_mask(yw)); break;
    case SpvOpUGreaterThanEqual: BIN; r = (x & width_mask(xw)) >= (y & width_mask(yw)); break;
    case SpvOpSLessThan: BIN; r = sx < sy; break;
    case SpvOpSLessThanEqual: BIN; r = sx <= sy; break;
    case SpvOpSGreaterThan: BIN; r = sx > sy; break;
    case SpvOpSGreaterThanEqual: BIN; r = sx >= sy; break;
    case SpvOpSelect: if (!ty || !tz) return; r = x ? y : z; break;
    case SpvOpQuantizeToF16:
        if (tx->kind != SPV_T_FLOAT) return;
        r = double_to_bits(half_to_double(double_to_half(bits_to_double(x, xw))), rw);
        break;
    default:
        return; /* vector or kernel-only ops: left unknown */
    }
#undef BIN
    k->bits = r & width_mask(rw);
    k->known = 1;
}

static int parse_key_digits(const char *s, uint32_t *out)
{
    uint64_t v = 0;
    if (!s || !*s)
        return -1;
    for (; *s; s++) {
        if (*s < '0' || *s > '9')
            return -1;
        v = v * 10 + (uint64_t)(*s - '0');
        if (v > 0xffffffffu)
            return -1;
    }
    *out = (uint32_t)v;
    return 0;
}

static int spec_value_bits(const spv_module *m, const spv_const *k,
                           const spv_spec_value *pv, uint64_t *bits, cw_error *err)
{
    const spv_type *t = type_at(m, k->type);
    const char *what = k->name ? k->name : "spec constant";
    if (!t)
        return -1;
    if (t->kind == SPV_T_BOOL) {
        *bits = pv->value != 0;
        return 0;
    }
    if (t->kind == SPV_T_FLOAT) {
        *bits = double_to_bits(pv->is_integer ? (double)pv->ivalue : pv->value, t->width);
        return 0;
    }
    if (t->kind != SPV_T_INT)
        return -1;
    if (!pv->is_integer) {
        spv_set_err(err, (size_t)-1, "spec constant '%s' (SpecId %u) is an integer, but the plan gives %g",
                what, k->spec_id, pv->value);
        err->line = pv->line;
        err->column = pv->column;
        return -1;
    }
    int64_t v = pv->ivalue;
    if (t->width < 64) {
        int64_t lo = t->is_signed ? -((int64_t)1 << (t->width - 1)) : 0;
        int64_t hi = t->is_signed ? ((int64_t)1 << (t->width - 1)) - 1
                                  : (int64_t)(((uint64_t)1 << t->width) - 1);
        if (v < lo || v > hi) {
            spv_set_err(err, (size_t)-1, "spec constant '%s' (SpecId %u) is a %d-bit %s integer; %lld does not fit",
                    what, k->spec_id, (int)t->width, t->is_signed ? "signed" : "unsigned",
                    (long long)v);
            err->line = pv->line;
            err->column = pv->column;
            return -1;
        }
    } else if (!t->is_signed && v < 0) {
        spv_set_err(err, (size_t)-1, "spec constant '%s' (SpecId %u) is unsigned; %lld is negative",
                what, k->spec_id, (long long)v);
        err->line = pv->line;
        err->column = pv->column;
        return -1;
    }
    *bits = (uint64_t)v & width_mask(t->width);
    return 0;
}

int spv_specialize(spv_module *m, const spv_spec_value *spec, size_t nspec,
                   int *matched, cw_error *err)
{
    int rc = 0;
    if (matched)
        for (size_t i = 0; i < nspec; i++)
            matched[i] = 0;
    for (size_t i = 0; i < m->nconsts; i++) {
        spv_const *k = &m->consts[i];
        if (!k->is_spec)
            continue;
        k->overridden = 0;
        if (k->spec_op == 0 && k->kind == SPV_C_SCALAR)
            k->bits = k->default_bits;
        if (!k->has_spec_id || k->spec_op || k->kind != SPV_C_SCALAR)
            continue;
        for (size_t j = 0; j < nspec; j++) {
            uint32_t sid;
            int hit = (parse_key_digits(spec[j].key, &sid) == 0 && sid == k->spec_id) ||
                      (k->name && spec[j].key && strcmp(spec[j].key, k->name) == 0);
            if (!hit)
                continue;
            if (matched)
                matched[j] = 1;
            uint64_t b;
            if (spec_value_bits(m, k, &spec[j], &b, err)) {
                rc = -1;
                continue;
            }
            k->bits = b;
            k->overridden = 1;
        }
    }
    /* fold in module order: operands precede their users */
    for (size_t i = 0; i < m->nconsts; i++) {
        spv_const *k = &m->consts[i];
        if (k->spec_op)
            spv_fold_spec_op(m, k);
    }
    for (size_t i = 0; i < m->ntypes; i++) {
        spv_type *t = &m->types[i];
        uint64_t len;
        if (t->kind != SPV_T_ARRAY)
            continue;
        t->length = spv_const_u64(m, t->length_id, &len) == 0 ? len : 0;
    }
    /* local sizes: LocalSize / LocalSizeId, overridden by a WorkgroupSize
     * builtin constant */
    uint32_t wgs = 0;
    for (size_t i = 0; i < m->nconsts; i++) {
        uint32_t bi;
        const spv_const *k = &m->consts[i];
        if (k->kind == SPV_C_COMPOSITE && k->nparts == 3 &&
            spv_decorated(m, k->id, SpvDecorationBuiltIn, &bi) && bi == SpvBuiltInWorkgroupSize)
            wgs = k->id;
    }
    for (size_t i = 0; i < m->nentries; i++) {
        spv_entry *e = &m->entries[i];
        int known = 1;
        if (wgs) {
            e->ls_source = SPV_LS_BUILTIN;
            for (int d = 0; d < 3; d++)
                e->local_size_ids[d] = spv_const_component(m, wgs, (uint32_t)d);
        }
        if (e->ls_source == SPV_LS_NONE) {
            e->local_size[0] = e->local_size[1] = e->local_size[2] = 1;
        } else if (e->ls_source != SPV_LS_LITERAL) {
            for (int d = 0; d < 3; d++) {
                uint64_t v;
                if (spv_const_u64(m, e->local_size_ids[d], &v) || v > 0xffffffffu) {
                    e->local_size[d] = 0;
                    known = 0;
                } else
                    e->local_size[d] = (uint32_t)v;
            }
        }
        for (int d = 0; d < 3; d++)
            if (e->local_size[d] == 0)
                known = 0;
        e->local_size_known = known;
    }
    return rc;
}
