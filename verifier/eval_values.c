/* eval_values.c - value semantics: integer intervals, known/unknown
 * floats, conversions, comparisons, GLSL.std.450 and the subgroup
 * operations; executes every non-memory, non-control instruction.
 * Contract in eval_values.h. */
#include "eval_ctx.h"
#include "eval_subgroup.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/GLSL.std.450.h>
#include <spirv/unified1/spirv.h>

ev_val ev_int_bin(uint32_t op, ev_val a, ev_val b, unsigned w)
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

ev_val ev_float_bin(uint32_t op, ev_val a, ev_val b, unsigned w)
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
ev_val ev_compare(uint32_t op, ev_val a, ev_val b, const ev_type *t)
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

ev_val ev_convert(uint32_t op, ev_val a, const ev_type *from,
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
ev_val ev_glsl_comp(uint32_t fn, const ev_val *args[], uint32_t nargs,
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
                return ev_glsl_comp(ufn, na, nargs, 0, rt, one);
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
        case GLSLstd450FindSMsb:
            if (known(&a[0])) {
                uint64_t x = a[0].lo & mk;
                if (x >> (w - 1))
                    x = ~x & mk; /* negative: the most significant 0 bit */
                return kv(((uint64_t)bits_for(x) - 1) & mk);
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
    const ev_type *rt = ev_tinfo(c, in->type_id);
    unsigned w = rt->width ? rt->width : 32;
    const ev_type *ot = kind == 2 ? ev_val_type(c, in->ops[0]) : rt;
    ev_val *r = c->pool + c->reg_off[res];
    for (int j = 0; j < n; j++) {
        uint32_t l = lanes[j];
        const ev_val *x = a + l * sa, *y = b + l * sb;
        ev_val *o = r + l;
        if (kind == 0)
            *o = ev_int_bin(op, *x, *y, w);
        else if (kind == 1)
            *o = ev_float_bin(op, *x, *y, w);
        else
            *o = ev_compare(op, *x, *y, ot);
    }
    return 1;
}

/* Two-result integer arithmetic (lsb/msb of a product, sum and carry,
 * difference and borrow) on intervals of width w. */
void ev_int_ext(uint32_t op, ev_val a, ev_val b, unsigned w, ev_val *lo, ev_val *hi)
{
    uint64_t mk = wmask(w);
    a.lo &= mk; a.hi &= mk; b.lo &= mk; b.hi &= mk;
    if (a.lo > a.hi) a = full_int(w);
    if (b.lo > b.hi) b = full_int(w);
    unsigned __int128 M = (unsigned __int128)mk + 1;
    switch (op) {
    case SpvOpUMulExtended: {
        unsigned __int128 p0 = (unsigned __int128)a.lo * b.lo, p1 = (unsigned __int128)a.hi * b.hi;
        ev_val h = {(uint64_t)(p0 / M), (uint64_t)(p1 / M)};
        *hi = h;
        if (p0 / M == p1 / M) {
            ev_val l = {(uint64_t)(p0 % M), (uint64_t)(p1 % M)};
            *lo = l;
        } else {
            *lo = full_int(w);
        }
        return;
    }
    case SpvOpSMulExtended: {
        if (known(&a) && known(&b)) {
            __int128 p = (__int128)sext(a.lo, w) * sext(b.lo, w);
            unsigned __int128 u = (unsigned __int128)p;
            *lo = kv((uint64_t)(u % M));
            *hi = kv((uint64_t)((p >> w) & mk));
            return;
        }
        uint64_t half = w >= 64 ? (1ull << 63) : (1ull << (w - 1));
        if (a.hi < half && b.hi < half) {
            ev_int_ext(SpvOpUMulExtended, a, b, w, lo, hi);
            return;
        }
        *lo = full_int(w);
        *hi = full_int(w);
        return;
    }
    case SpvOpIAddCarry: {
        unsigned __int128 s0 = (unsigned __int128)a.lo + b.lo, s1 = (unsigned __int128)a.hi + b.hi;
        if (s0 / M == s1 / M) {
            ev_val l = {(uint64_t)(s0 % M), (uint64_t)(s1 % M)};
            *lo = l;
            *hi = kv((uint64_t)(s0 / M));
        } else {
            *lo = full_int(w);
            ev_val cy = {0, 1};
            *hi = cy;
        }
        return;
    }
    case SpvOpISubBorrow:
        if (a.lo >= b.hi) {
            ev_val l = {a.lo - b.hi, a.hi - b.lo};
            *lo = l;
            *hi = kv(0);
        } else if (a.hi < b.lo) {
            ev_val l = {(a.lo - b.hi) & mk, (a.hi - b.lo) & mk};
            *lo = l;
            *hi = kv(1);
        } else {
            *lo = full_int(w);
            ev_val br = {0, 1};
            *hi = br;
        }
        return;
    default:
        *lo = full_int(w);
        *hi = full_int(w);
    }
}

/* BitFieldInsert / S/UExtract / BitReverse / BitCount of one component
 * (offset and count are the instruction's scalar operands). */
ev_val ev_bitfield(uint32_t op, ev_val base, ev_val ins, ev_val off, ev_val cnt,
                   unsigned w, unsigned rw)
{
    uint64_t mk = wmask(w);
    switch (op) {
    case SpvOpBitCount:
        if (known(&base))
            return kv((uint64_t)__builtin_popcountll(base.lo & mk));
        {
            ev_val r = {0, w};
            return r;
        }
    case SpvOpBitReverse:
        if (known(&base)) {
            uint64_t x = base.lo & mk, r = 0;
            for (unsigned i = 0; i < w; i++)
                if (x & (1ull << i))
                    r |= 1ull << (w - 1 - i);
            return kv(r);
        }
        return full_int(rw);
    default:
        break;
    }
    if (!known(&off) || !known(&cnt) || off.lo > w || cnt.lo > w || off.lo + cnt.lo > w)
        return full_int(rw);
    unsigned o = (unsigned)off.lo, n = (unsigned)cnt.lo;
    uint64_t field = n ? wmask(n) : 0;
    switch (op) {
    case SpvOpBitFieldUExtract:
        if (known(&base))
            return kv((base.lo >> o) & field);
        {
            ev_val r = {0, field};
            return r;
        }
    case SpvOpBitFieldSExtract:
        if (known(&base)) {
            uint64_t x = (base.lo >> o) & field;
            if (n && (x >> (n - 1)) & 1)
                x |= ~field;
            return kv(n ? x & mk : 0);
        }
        return full_int(rw);
    case SpvOpBitFieldInsert:
        if (known(&base) && known(&ins))
            return kv(((base.lo & ~(field << o)) | ((ins.lo & field) << o)) & mk);
        return full_int(rw);
    default:
        return full_int(rw);
    }
}

/* Packing functions of GLSL.std.450 (component counts differ between
 * argument and result).  Returns 0 when fn is not one of them. */
static int glsl_pack(uint32_t fn, const ev_val *a, uint32_t na, ev_val *r, uint32_t nf,
                     unsigned aw)
{
    int allk = 1;
    for (uint32_t k = 0; k < na; k++)
        allk &= known(&a[k]);
    switch (fn) {
    case GLSLstd450PackHalf2x16: case GLSLstd450PackUnorm2x16: case GLSLstd450PackSnorm2x16:
    case GLSLstd450PackUnorm4x8: case GLSLstd450PackSnorm4x8: {
        uint32_t parts = fn == GLSLstd450PackUnorm4x8 || fn == GLSLstd450PackSnorm4x8 ? 4 : 2;
        unsigned bits = 32 / parts;
        if (!allk || na < parts) {
            r[0] = full_int(32);
            return 1;
        }
        uint64_t out = 0;
        for (uint32_t k = 0; k < parts; k++) {
            double x = getf(a[k].lo, aw);
            uint64_t p;
            if (fn == GLSLstd450PackHalf2x16)
                p = cw_float_to_half((float)x);
            else if (fn == GLSLstd450PackUnorm2x16 || fn == GLSLstd450PackUnorm4x8)
                p = (uint64_t)llround(fmin(fmax(x, 0.0), 1.0) * (double)wmask(bits));
            else
                p = (uint64_t)llround(fmin(fmax(x, -1.0), 1.0) * (double)(wmask(bits - 1))) &
                    wmask(bits);
            out |= (p & wmask(bits)) << (k * bits);
        }
        r[0] = kv(out);
        return 1;
    }
    case GLSLstd450UnpackHalf2x16: case GLSLstd450UnpackUnorm2x16:
    case GLSLstd450UnpackSnorm2x16: case GLSLstd450UnpackUnorm4x8:
    case GLSLstd450UnpackSnorm4x8: {
        uint32_t parts = fn == GLSLstd450UnpackUnorm4x8 || fn == GLSLstd450UnpackSnorm4x8 ? 4 : 2;
        unsigned bits = 32 / parts;
        for (uint32_t k = 0; k < nf && k < parts; k++) {
            if (!allk) {
                r[k] = unk_float();
                continue;
            }
            uint64_t p = (a[0].lo >> (k * bits)) & wmask(bits);
            double x;
            if (fn == GLSLstd450UnpackHalf2x16)
                x = cw_half_to_float((uint16_t)p);
            else if (fn == GLSLstd450UnpackUnorm2x16 || fn == GLSLstd450UnpackUnorm4x8)
                x = (double)p / (double)wmask(bits);
            else
                x = fmax((double)sext(p, bits) / (double)wmask(bits - 1), -1.0);
            r[k] = kv(putf((float)x, 32));
        }
        return 1;
    }
    case GLSLstd450PackDouble2x32:
        r[0] = allk && na >= 2 ? kv((a[0].lo & 0xffffffffu) | (a[1].lo << 32)) : unk_float();
        return 1;
    case GLSLstd450UnpackDouble2x32:
        if (nf >= 2) {
            r[0] = allk ? kv(a[0].lo & 0xffffffffu) : full_int(32);
            r[1] = allk ? kv(a[0].lo >> 32) : full_int(32);
        }
        return 1;
    default:
        return 0;
    }
}

/* Executes a non-control, non-memory instruction for the lanes. */
void ev_exec_value(ev_ctx *c, uint32_t ii, const spv_inst *in,
                       const uint16_t *lanes, int n)
{
    uint32_t res = in->result_id, op = in->opcode;
    (void)ii;
    if (!has_reg(c, res))
        return;
    if (op >= SpvOpGroupNonUniformElect && op <= SpvOpGroupNonUniformQuadSwap) {
        if (!ev_exec_subgroup(c, in, lanes, n))
            for (int j = 0; j < n; j++)
                ev_fill_unknown(c, in->type_id, RV(c, res, lanes[j]), c->nflat[res]);
        return;
    }
    if (c->nflat[res] == 1 && in->nops >= 2 && exec_scalar_binary(c, in, lanes, n))
        return;
    const ev_type *rt = ev_tinfo(c, in->type_id);
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
                r[k] = ev_int_bin(op, a[k], b[nb > 1 ? k : 0], w);
            break;
        }
        case SpvOpFAdd: case SpvOpFSub: case SpvOpFMul: case SpvOpFDiv:
        case SpvOpFRem: case SpvOpFMod: {
            if (no < 2) goto unknown;
            const ev_val *a = Vn(c, o[0], lane, nf), *b = Vn(c, o[1], lane, nf);
            for (uint32_t k = 0; k < nf; k++)
                r[k] = ev_float_bin(op, a[k], b[k], w);
            break;
        }
        case SpvOpVectorTimesScalar: {
            if (no < 2) goto unknown;
            const ev_val *a = Vn(c, o[0], lane, nf), *b = Vn(c, o[1], lane, 1);
            for (uint32_t k = 0; k < nf; k++)
                r[k] = ev_float_bin(SpvOpFMul, a[k], b[0], w);
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
            const ev_type *ot = ev_val_type(c, o[0]);
            const ev_val *a = Vn(c, o[0], lane, nf), *b = Vn(c, o[1], lane, nf);
            for (uint32_t k = 0; k < nf; k++)
                r[k] = ev_compare(op, a[k], b[k], ot);
            break;
        }
        case SpvOpIsNan: case SpvOpIsInf: {
            if (no < 1) goto unknown;
            const ev_type *ot = ev_val_type(c, o[0]);
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
            const ev_type *ft = ev_val_type(c, o[0]);
            const ev_val *a = Vn(c, o[0], lane, nf);
            if (op == SpvOpBitcast && NF(c, o[0]) != nf) {
                if (ft->kind == EVK_PTR || rt->kind == EVK_PTR)
                    goto unknown;
                goto unknown;
            }
            for (uint32_t k = 0; k < nf; k++)
                r[k] = ev_convert(op, a[k], ft, rt);
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
            uint32_t off = ev_flat_path(c, ct ? ct->id : 0, o + 1, no - 1, &et);
            if (off == EV_NONE || off + nf > NF(c, o[0]))
                goto unknown;
            memcpy(r, V(c, o[0], lane) + off, nf * sizeof *r);
            break;
        }
        case SpvOpCompositeInsert: {
            if (no < 2) goto unknown;
            uint32_t et;
            uint32_t off = ev_flat_path(c, in->type_id, o + 2, no - 2, &et);
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
        case SpvOpUMulExtended: case SpvOpSMulExtended: case SpvOpIAddCarry:
        case SpvOpISubBorrow: {
            /* a struct of two members of the operands' type */
            if (no < 2 || nf % 2) goto unknown;
            uint32_t half = nf / 2;
            const ev_type *et = ev_val_type(c, o[0]);
            unsigned ew = et->width ? et->width : 32;
            const ev_val *a = Vn(c, o[0], lane, half), *b = Vn(c, o[1], lane, half);
            for (uint32_t k = 0; k < half; k++)
                ev_int_ext(op, a[k], b[k], ew, &r[k], &r[half + k]);
            break;
        }
        case SpvOpBitCount: case SpvOpBitReverse: case SpvOpBitFieldUExtract:
        case SpvOpBitFieldSExtract: case SpvOpBitFieldInsert: {
            if (no < 1) goto unknown;
            const ev_type *bt = ev_val_type(c, o[0]);
            unsigned bw = bt->width ? bt->width : 32;
            const ev_val *a = Vn(c, o[0], lane, nf);
            const ev_val *ins = op == SpvOpBitFieldInsert && no >= 2 ? Vn(c, o[1], lane, nf)
                                                                      : a;
            uint32_t oi = op == SpvOpBitFieldInsert ? 2 : 1;
            ev_val off = no > oi ? V(c, o[oi], lane)[0] : full_int(32);
            ev_val cnt = no > oi + 1 ? V(c, o[oi + 1], lane)[0] : full_int(32);
            for (uint32_t k = 0; k < nf; k++)
                r[k] = ev_bitfield(op, a[k], ins[k], off, cnt, bw, w);
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
            const ev_val *args[3] = {ev_unknown_vals, ev_unknown_vals, ev_unknown_vals};
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
                const ev_type *at = ev_val_type(c, o[2]);
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
            if (fn >= GLSLstd450PackSnorm4x8 && fn <= GLSLstd450UnpackDouble2x32) {
                const ev_type *at = ev_val_type(c, o[2]);
                if (!glsl_pack(fn, args[0], argn[0], r, nf, at->width ? at->width : 32))
                    goto unknown;
                break;
            }
            for (uint32_t k = 0; k < nf; k++)
                r[k] = ev_glsl_comp(fn, args, na, k, rt, argn);
            break;
        }
        default:
        unknown:
            ev_fill_unknown(c, in->type_id, r, nf);
            if (rt->kind == EVK_PTR)
                for (uint32_t k = 0; k + 1 < nf; k += 2)
                    r[k] = kv(EV_NONE);
            break;
        }
    }
}
