/* eval_subgroup.c - subgroup operations over the lanes executing together
 * (the active invocations of each subgroup).  Contract in eval_subgroup.h. */
#include "eval_ctx.h"
#include "alloc.h"
#include "eval_subgroup.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

typedef struct sg_block {
    const uint16_t *lanes;   /* members, ascending invocation index */
    int n;
    uint32_t sub;            /* subgroup id */
} sg_block;

static uint32_t sg_size(const ev_ctx *c)
{
    return c->info.subgroup ? c->info.subgroup : 32;
}

static uint32_t local_id(const ev_ctx *c, uint32_t lane)
{
    return c->lane_real[lane] % sg_size(c);
}

/* The member with subgroup-local id want, or -1 when it is not active. */
static int member_of(const ev_ctx *c, const sg_block *b, uint64_t want)
{
    for (int j = 0; j < b->n; j++)
        if (local_id(c, b->lanes[j]) == want)
            return b->lanes[j];
    return -1;
}

static const ev_val *cval(const ev_ctx *c, uint32_t id, uint32_t lane, uint32_t need)
{
    return Vn(c, id, lane, need);
}

/* ---- reductions ---- */

static ev_val identity(uint32_t op, const ev_type *t)
{
    unsigned w = t->width ? t->width : 32;
    switch (op) {
    case SpvOpGroupNonUniformIMul: return kv(1);
    case SpvOpGroupNonUniformUMin: case SpvOpGroupNonUniformBitwiseAnd:
        return kv(wmask(w));
    case SpvOpGroupNonUniformSMin: return kv(wmask(w) >> 1);
    case SpvOpGroupNonUniformSMax: return kv((wmask(w) >> 1) + 1);
    case SpvOpGroupNonUniformLogicalAnd: return kv(1);
    case SpvOpGroupNonUniformFAdd: return kv(putf(0.0, w));
    case SpvOpGroupNonUniformFMul: return kv(putf(1.0, w));
    case SpvOpGroupNonUniformFMin: return kv(putf(INFINITY, w));
    case SpvOpGroupNonUniformFMax: return kv(putf(-INFINITY, w));
    default: return kv(0);
    }
}

static ev_val combine(uint32_t op, ev_val a, ev_val b, const ev_type *t)
{
    unsigned w = t->width ? t->width : 32;
    if (t->kind == EVK_FLOAT) {
        if (!known(&a) || !known(&b))
            return unk_float();
        double x = getf(a.lo, w), y = getf(b.lo, w), r;
        switch (op) {
        case SpvOpGroupNonUniformFAdd: r = x + y; break;
        case SpvOpGroupNonUniformFMul: r = x * y; break;
        case SpvOpGroupNonUniformFMin: r = fmin(x, y); break;
        case SpvOpGroupNonUniformFMax: r = fmax(x, y); break;
        default: return unk_float();
        }
        if (w == 32)
            r = (float)r;
        return kv(putf(r, w));
    }
    switch (op) {
    case SpvOpGroupNonUniformIAdd: return ev_int_bin(SpvOpIAdd, a, b, w);
    case SpvOpGroupNonUniformIMul: return ev_int_bin(SpvOpIMul, a, b, w);
    case SpvOpGroupNonUniformBitwiseAnd: case SpvOpGroupNonUniformLogicalAnd:
        return ev_int_bin(SpvOpBitwiseAnd, a, b, t->kind == EVK_BOOL ? 1 : w);
    case SpvOpGroupNonUniformBitwiseOr: case SpvOpGroupNonUniformLogicalOr:
        return ev_int_bin(SpvOpBitwiseOr, a, b, t->kind == EVK_BOOL ? 1 : w);
    case SpvOpGroupNonUniformBitwiseXor: case SpvOpGroupNonUniformLogicalXor:
        return ev_int_bin(SpvOpBitwiseXor, a, b, t->kind == EVK_BOOL ? 1 : w);
    case SpvOpGroupNonUniformUMin: {
        ev_val r = {a.lo < b.lo ? a.lo : b.lo, a.hi < b.hi ? a.hi : b.hi};
        return r;
    }
    case SpvOpGroupNonUniformUMax: {
        ev_val r = {a.lo > b.lo ? a.lo : b.lo, a.hi > b.hi ? a.hi : b.hi};
        return r;
    }
    case SpvOpGroupNonUniformSMin: case SpvOpGroupNonUniformSMax: {
        if (!known(&a) || !known(&b))
            return full_int(w);
        int64_t x = sext(a.lo, w), y = sext(b.lo, w);
        int mn = op == SpvOpGroupNonUniformSMin;
        return kv((uint64_t)(mn ? (x < y ? x : y) : (x > y ? x : y)) & wmask(w));
    }
    default:
        return full_int(w);
    }
}

static int is_reduction(uint32_t op)
{
    return op >= SpvOpGroupNonUniformIAdd && op <= SpvOpGroupNonUniformLogicalXor;
}

/* Reduce / inclusive / exclusive scan / clustered reduce of component k. */
static void reduce_block(ev_ctx *c, const spv_inst *in, const sg_block *b,
                         const ev_type *t, uint32_t nf)
{
    uint32_t gop = in->ops[1], val = in->ops[2];
    uint64_t cluster = sg_size(c);
    if (gop == SpvGroupOperationClusteredReduce) {
        if (in->nops < 4 || spv_const_u64(c->m, in->ops[3], &cluster) != 0 || !cluster)
            cluster = 1;
    } else if (gop != SpvGroupOperationReduce && gop != SpvGroupOperationInclusiveScan &&
               gop != SpvGroupOperationExclusiveScan) {
        for (int j = 0; j < b->n; j++)
            ev_fill_unknown(c, in->type_id, RV(c, in->result_id, b->lanes[j]), nf);
        return;
    }
    for (uint32_t k = 0; k < nf; k++) {
        if (gop == SpvGroupOperationInclusiveScan || gop == SpvGroupOperationExclusiveScan) {
            ev_val acc = identity(in->opcode, t);
            for (int j = 0; j < b->n; j++) {
                uint32_t l = b->lanes[j];
                ev_val x = cval(c, val, l, nf)[k];
                ev_val next = combine(in->opcode, acc, x, t);
                RV(c, in->result_id, l)[k] =
                    gop == SpvGroupOperationInclusiveScan ? next : acc;
                acc = next;
            }
            continue;
        }
        /* reduce over the whole block or over each cluster */
        int j = 0;
        while (j < b->n) {
            uint64_t cl = local_id(c, b->lanes[j]) / cluster;
            int e = j;
            ev_val acc = identity(in->opcode, t);
            while (e < b->n && local_id(c, b->lanes[e]) / cluster == cl) {
                acc = combine(in->opcode, acc, cval(c, val, b->lanes[e], nf)[k], t);
                e++;
            }
            for (int q = j; q < e; q++)
                RV(c, in->result_id, b->lanes[q])[k] = acc;
            j = e;
        }
    }
}

/* ---- ballots ---- */

/* Bit i of a uvec4 ballot value as a known 0/1, or -1. */
static int ballot_bit(const ev_val *v, uint32_t i)
{
    const ev_val *w = &v[i / 32];
    uint64_t bit = 1ull << (i % 32);
    if (!known(w)) {
        if (!(w->hi & bit))
            return 0;
        if (w->lo & bit && w->lo == (w->lo & w->hi))
            return -1;
        return -1;
    }
    return (w->lo & bit) != 0;
}

static void exec_ballot_query(ev_ctx *c, const spv_inst *in, const sg_block *b)
{
    uint32_t op = in->opcode, sg = sg_size(c);
    for (int j = 0; j < b->n; j++) {
        uint32_t l = b->lanes[j];
        ev_val *r = RV(c, in->result_id, l);
        uint32_t me = local_id(c, l);
        const ev_val *v;
        switch (op) {
        case SpvOpGroupNonUniformInverseBallot: {
            v = cval(c, in->ops[1], l, 4);
            int bit = me < 128 ? ballot_bit(v, me) : -1;
            r[0] = bit < 0 ? unk_bool() : kv((uint64_t)bit);
            break;
        }
        case SpvOpGroupNonUniformBallotBitExtract: {
            v = cval(c, in->ops[1], l, 4);
            const ev_val *ix = V(c, in->ops[2], l);
            int bit = known(ix) && ix->lo < 128 ? ballot_bit(v, (uint32_t)ix->lo) : -1;
            r[0] = bit < 0 ? unk_bool() : kv((uint64_t)bit);
            break;
        }
        case SpvOpGroupNonUniformBallotBitCount: {
            v = cval(c, in->ops[2], l, 4);
            uint32_t gop = in->ops[1];
            uint32_t end = gop == SpvGroupOperationReduce ? sg
                         : gop == SpvGroupOperationInclusiveScan ? me + 1 : me;
            uint64_t lo = 0, hi = 0;
            for (uint32_t i = 0; i < end && i < 128; i++) {
                int bit = ballot_bit(v, i);
                lo += bit == 1;
                hi += bit != 0;
            }
            ev_val x = {lo, hi};
            r[0] = x;
            break;
        }
        default: { /* FindLSB / FindMSB */
            v = cval(c, in->ops[1], l, 4);
            int found = -1, unk = 0;
            for (uint32_t q = 0; q < 128 && found < 0; q++) {
                uint32_t i = op == SpvOpGroupNonUniformBallotFindLSB ? q : 127 - q;
                int bit = ballot_bit(v, i);
                if (bit < 0) {
                    unk = 1;
                    break;
                }
                if (bit == 1)
                    found = (int)i;
            }
            r[0] = unk || found < 0 ? full_int(32) : kv((uint64_t)found);
            break;
        }
        }
    }
}

/* ---- one block of active invocations of a subgroup ---- */

static int exec_block_op(ev_ctx *c, const spv_inst *in, const sg_block *b,
                         const ev_type *t, uint32_t nf)
{
    uint32_t op = in->opcode, res = in->result_id;
    const uint32_t *o = in->ops;
    uint32_t no = in->nops;
    switch (op) {
    case SpvOpGroupNonUniformElect:
        for (int j = 0; j < b->n; j++)
            RV(c, res, b->lanes[j])[0] = kv(j == 0);
        return 1;
    case SpvOpGroupNonUniformBroadcastFirst:
        if (no < 2 || NF(c, o[1]) != nf)
            return 0;
        for (int j = 0; j < b->n; j++)
            memcpy(RV(c, res, b->lanes[j]), V(c, o[1], b->lanes[0]), nf * sizeof(ev_val));
        return 1;
    case SpvOpGroupNonUniformAll: case SpvOpGroupNonUniformAny: {
        if (no < 2)
            return 0;
        int all = 1, any = 0, unk = 0;
        for (int j = 0; j < b->n; j++) {
            const ev_val *p = V(c, o[1], b->lanes[j]);
            if (!known(p))
                unk = 1;
            else if (p->lo)
                any = 1;
            else
                all = 0;
        }
        ev_val r = op == SpvOpGroupNonUniformAll ? (!all ? kv(0) : unk ? unk_bool() : kv(1))
                                                 : (any ? kv(1) : unk ? unk_bool() : kv(0));
        for (int j = 0; j < b->n; j++)
            RV(c, res, b->lanes[j])[0] = r;
        return 1;
    }
    case SpvOpGroupNonUniformAllEqual: {
        if (no < 2)
            return 0;
        uint32_t na = NF(c, o[1]) ? NF(c, o[1]) : 1;
        int eq = 1, unk = 0;
        const ev_val *first = V(c, o[1], b->lanes[0]);
        for (int j = 1; j < b->n && eq; j++) {
            const ev_val *p = V(c, o[1], b->lanes[j]);
            for (uint32_t k = 0; k < na; k++) {
                if (!known(&p[k]) || !known(&first[k]))
                    unk = 1;
                else if (p[k].lo != first[k].lo)
                    eq = 0;
            }
        }
        ev_val r = !eq ? kv(0) : unk ? unk_bool() : kv(1);
        for (int j = 0; j < b->n; j++)
            RV(c, res, b->lanes[j])[0] = r;
        return 1;
    }
    case SpvOpGroupNonUniformBallot: {
        if (no < 2 || nf != 4)
            return 0;
        ev_val bits[4] = {{0, 0}, {0, 0}, {0, 0}, {0, 0}};
        for (int j = 0; j < b->n; j++) {
            uint32_t me = local_id(c, b->lanes[j]);
            const ev_val *p = V(c, o[1], b->lanes[j]);
            if (me >= 128)
                continue;
            uint64_t bit = 1ull << (me % 32);
            if (!known(p))
                bits[me / 32].hi |= bit;
            else if (p->lo) {
                bits[me / 32].lo |= bit;
                bits[me / 32].hi |= bit;
            }
        }
        for (int j = 0; j < b->n; j++)
            memcpy(RV(c, res, b->lanes[j]), bits, sizeof bits);
        return 1;
    }
    case SpvOpGroupNonUniformInverseBallot: case SpvOpGroupNonUniformBallotBitExtract:
    case SpvOpGroupNonUniformBallotBitCount: case SpvOpGroupNonUniformBallotFindLSB:
    case SpvOpGroupNonUniformBallotFindMSB:
        if (no < (op == SpvOpGroupNonUniformBallotBitCount || op ==
                  SpvOpGroupNonUniformBallotBitExtract ? 3u : 2u))
            return 0;
        exec_ballot_query(c, in, b);
        return 1;
    case SpvOpGroupNonUniformBroadcast: case SpvOpGroupNonUniformShuffle:
    case SpvOpGroupNonUniformShuffleXor: case SpvOpGroupNonUniformShuffleUp:
    case SpvOpGroupNonUniformShuffleDown: case SpvOpGroupNonUniformQuadBroadcast:
    case SpvOpGroupNonUniformQuadSwap: {
        if (no < 3 || NF(c, o[1]) != nf)
            return 0;
        /* sources first: results may overwrite an operand register */
        int *src = xcalloc((size_t)b->n, sizeof *src);
        for (int j = 0; j < b->n; j++) {
            uint32_t l = b->lanes[j], me = local_id(c, l);
            const ev_val *x = V(c, o[2], l);
            src[j] = -1;
            if (op == SpvOpGroupNonUniformQuadSwap) {
                uint64_t dir = 0;
                if (spv_const_u64(c->m, o[2], &dir) == 0 && dir <= 2)
                    src[j] = member_of(c, b, me ^ (dir == 0 ? 1u : dir == 1 ? 2u : 3u));
                continue;
            }
            if (!known(x))
                continue;
            uint64_t want = x->lo;
            switch (op) {
            case SpvOpGroupNonUniformShuffleXor: want = me ^ x->lo; break;
            case SpvOpGroupNonUniformShuffleUp: want = me - x->lo; break;
            case SpvOpGroupNonUniformShuffleDown: want = me + x->lo; break;
            case SpvOpGroupNonUniformQuadBroadcast: want = (me & ~3u) + x->lo; break;
            default: break;
            }
            if (want < sg_size(c))
                src[j] = member_of(c, b, want);
        }
        ev_val *tmp = xcalloc((size_t)b->n * nf + 1, sizeof *tmp);
        for (int j = 0; j < b->n; j++) {
            if (src[j] >= 0)
                memcpy(tmp + (size_t)j * nf, V(c, o[1], (uint32_t)src[j]), nf * sizeof *tmp);
            else
                ev_fill_unknown(c, in->type_id, tmp + (size_t)j * nf, nf);
        }
        for (int j = 0; j < b->n; j++)
            memcpy(RV(c, res, b->lanes[j]), tmp + (size_t)j * nf, nf * sizeof *tmp);
        free(tmp);
        free(src);
        return 1;
    }
    default:
        if (is_reduction(op) && no >= 3 && NF(c, o[2]) == nf) {
            /* scans write results lane by lane from operand values: copy
               the operand first when the two share nothing (SSA: never) */
            reduce_block(c, in, b, t, nf);
            return 1;
        }
        return 0;
    }
}

int ev_exec_subgroup(ev_ctx *c, const spv_inst *in, const uint16_t *lanes, int n)
{
    uint32_t op = in->opcode;
    if (op < SpvOpGroupNonUniformElect || op > SpvOpGroupNonUniformQuadSwap)
        return 0;
    if (!has_reg(c, in->result_id) || n <= 0)
        return 0;
    uint32_t nf = c->nflat[in->result_id];
    const ev_type *t = ev_tinfo(c, in->type_id);
    /* one block per subgroup among the lanes (they come in ascending order) */
    int j = 0;
    while (j < n) {
        uint32_t sub = ev_sg_of(c, lanes[j]);
        int e = j;
        while (e < n && ev_sg_of(c, lanes[e]) == sub)
            e++;
        sg_block b = {lanes + j, e - j, sub};
        if (!exec_block_op(c, in, &b, t, nf))
            return 0;
        j = e;
    }
    return 1;
}
