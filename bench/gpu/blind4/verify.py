#!/usr/bin/env python3
"""Checks blind set 4's results on a device: runs `clockwork run --dump` on
a plan (default plan-cpu.json, the lavapipe sizes) and compares sampled
outputs of every kernel with a reference computed here from the same
inputs: the plan's seeded random contents (regenerated element by element
as core/bufinit.c makes them, in each buffer's element type: double,
float, half, int32, int8, uint32, uint16) and its "values" (the SpMV row
table).  The generator, the run and the comparison helpers are
bench/gpu/blind/verify.py's, bench/gpu/blind2/verify.py's and
bench/gpu/blind3/verify.py's; the dumps are read here as raw bytes.
Accumulating kernels (the atomics) ran warm-up + samples times: their
outputs must be a whole number of single runs.  Pure Python, no numpy.

    python3 bench/gpu/blind4/verify.py [CLOCKWORK] [PLAN]
exit 0 all kernels agree, 1 a kernel disagrees or did not run.
"""
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(HERE, ".."))
from heldout import load_module  # noqa: E402  (bench/gpu/heldout.py)


def _module(name, path):
    return load_module(name, os.path.join(HERE, "..", path))


bv = _module("blind_verify", os.path.join("blind", "verify.py"))
b2 = _module("blind2_verify", os.path.join("blind2", "verify.py"))
b3 = _module("blind3_verify", os.path.join("blind3", "verify.py"))
gen = _module("blind4_gen", os.path.join("blind4", "gen.py"))
Buf, close, sample, whole_runs, f32, M32 = bv.Buf, bv.close, bv.sample, bv.whole_runs, bv.f32, bv.M32
half, chk_sum = b2.half, b2.chk_sum
words, F32, U32, I32, F16, rel_close = b3.words, b3.F32, b3.U32, b3.I32, b3.F16, b3.rel_close


def F64(raw):
    return words(raw, "d", 8)


def U16(raw):
    return words(raw, "H", 2)


def mul(a, b):
    return (a * b) & M32


# --- the references: each returns a list of failure strings -------------

def chk_row_f64(p, out, groups):
    a, s, bad = Buf(0), F64(out[1]), []
    for r in sample(p["rows"]):
        v = [a[r * p["pitch"] + c] for c in range(p["len"])]
        want = (sum(abs(x) for x in v), sum(x * x for x in v))
        got = s[2 * r:2 * r + 2]
        if any(abs(g - w) > 1e-12 * max(1.0, w) for g, w in zip(got, want)):
            bad.append("row %d: %s, want %s" % (r, got, want))
    return bad


def chk_conv7(p, out, groups):
    w, h, src, wt, dst, bad = p["w"], p["h"], Buf(0), Buf(2), F32(out[1]), []
    for i in sample(w * h):
        x, y = i % w, i // w
        terms = [wt[(dy + 3) * 7 + dx + 3] * src[min(max(y + dy, 0), h - 1) * w + min(max(x + dx, 0), w - 1)]
                 for dy in range(-3, 4) for dx in range(-3, 4)]
        bad += chk_sum(dst[i], terms, "pixel %d,%d" % (x, y))
    return bad


def chk_conv3(p, out, groups):
    w, h, src, dst, bad = p["w"], p["h"], Buf(0), F32(out[1]), []
    for i in sample(w * h):
        x, y = i % w, i // w
        for q in range(4):
            want = 0.0
            for dy, wy in ((-1, 1), (0, 2), (1, 1)):
                for dx, wx in ((-1, 1), (0, 2), (1, 1)):
                    yy, xx = min(max(y + dy, 0), h - 1), min(max(x + dx, 0), w - 1)
                    want += wy * wx * src[4 * (yy * w + xx) + q]
            want /= 16.0
            if not close(dst[4 * i + q], want):
                bad.append("pixel %d,%d.%d: %g, want %g" % (x, y, q, dst[4 * i + q], want))
    return bad


def chk_atomic_key(p, out, groups):
    key, want = Buf(0, "u"), [0] * p["bins"]
    for i in range(p["n"]):
        kv = key[i]
        h = mul(i, 0x9e3779b1) ^ mul(kv, 0x01000193)
        h ^= h >> 15
        h = mul(h, 0x2c1b3c6d)
        h ^= h >> 12
        want[h % p["bins"]] += kv + 1
    return [] if whole_runs(U32(out[1]), want) else ["counters are not a whole number of runs"]


def chk_hist509(p, out, groups):
    data, want = Buf(0, "u"), [0] * 509
    for i in range(p["n"]):
        x = mul(data[i], 0x01000193) ^ mul(i, 0x9e3779b1)
        x ^= x >> 16
        x = mul(x, 0x7feb352d)
        x ^= x >> 15
        want[x % 509] += 1
    return [] if whole_runs(U32(out[1]), want) else ["bins are not a whole number of runs"]


def chk_sg_sum(p, out, groups):
    v = Buf(0, "i")
    want = sum(v[i] for i in range(4 * p["n4"]))
    got = I32(out[1])[0]
    return [] if whole_runs([got], [want]) else ["total %d, want runs x %d" % (got, want)]


def chk_transpose_v2(p, out, groups):
    rows, cols, src, dst, bad = p["rows"], p["cols"], Buf(0), F32(out[1]), []
    for o in sample(rows * cols, 1024):
        c, r = o // rows, o % rows
        want = (src[2 * (r * cols + c)], src[2 * (r * cols + c) + 1])
        if dst[2 * o:2 * o + 2] != want:
            bad.append("out %d: %s, want %s" % (o, dst[2 * o:2 * o + 2], want))
    return bad


def chk_transpose_u32(p, out, groups):
    rows, cols, src, dst = p["rows"], p["cols"], Buf(0, "u"), U32(out[1])
    return ["out %d: %d, want %d" % (o, dst[o], src[(o % rows) * cols + o // rows])
            for o in sample(rows * cols, 1024) if dst[o] != src[(o % rows) * cols + o // rows]]


def chk_partial6(p, out, groups):
    inp, o, bad = Buf(0), F32(out[1]), []
    for f in sample(6 * p["n"], 2048):
        i, q = f // 6, f % 6
        want = f32(2.0 * inp[i] + 1.0) if q == 1 else 0.0
        if o[f] != want:
            bad.append("float %d: %g, want %g" % (f, o[f], want))
    return bad


def chk_sector_col(p, out, groups):
    rec, o, bad = Buf(0), F32(out[1]), []
    for i in sample(p["n"]):
        b = 4 * i * p["recv4"]
        want = rec[b] - rec[b + 1] + 0.5 * rec[b + 2] + 0.25 * rec[b + 3]
        if not close(o[i], want):
            bad.append("record %d: %g, want %g" % (i, o[i], want))
    return bad


def hash32(x):
    x ^= x >> 16
    x = mul(x, 0x7feb352d)
    x ^= x >> 15
    x = mul(x, 0x846ca68b)
    return x ^ (x >> 16)


def chk_gather_hash(p, out, groups):
    tab, o, m, bad = Buf(0), F32(out[1]), p["mask"], []
    for i in sample(p["n"]):
        h = hash32(i)
        a, b = h & m, hash32((h + 0x632be5ab) & M32) & m
        want = tab[2 * a] * tab[2 * b + 1] - tab[2 * a + 1] * tab[2 * b]
        if not close(o[i], want):
            bad.append("element %d: %g, want %g" % (i, o[i], want))
    return bad


def chk_gather_idx(p, out, groups):
    ids, tab, o, sh, sm, bad = Buf(0, "u"), Buf(1), F32(out[2]), p["shift"], p["smask"], []
    for i in sample(p["n"]):
        s = mul(i, 0x9e3779b1) >> 7
        x = tab[((ids[2 * i] & 15) << sh) | (s & sm)]
        y = tab[((ids[2 * i + 1] & 15) << sh) | ((mul(s, 0x85ebca6b) + 1) & M32 & sm)]
        if not close(o[i], x + 0.5 * y):
            bad.append("element %d: %g, want %g" % (i, o[i], x + 0.5 * y))
    return bad


def chk_tiny_one(p, out, groups):
    x, y, bad = Buf(0), F32(out[1]), []
    for i in range(128):
        want = 0.0
        if i < p["n"]:
            t, want = x[i], 0.125
            for c in (-0.25, 0.5, -1.0, 2.0, -0.75, 0.0625):
                want = want * t + c
        if not close(y[i], want, rel=1e-5):
            bad.append("element %d: %g, want %g" % (i, y[i], want))
    return bad


def chk_tiny_handful(p, out, groups):
    x, y = Buf(0), F32(out[1])
    return ["element %d: %g" % (i, y[i]) for i in range(192)
            if not close(y[i], min(max(1.5 * x[i] + 0.25, -1.0), 1.0), rel=1e-6)]


def chk_softmax(p, out, groups):
    cols, x, y, bad = p["cols"], Buf(0), F32(out[1]), []
    for r in sample(p["rows"], 12):
        v = [x[r * cols + c] for c in range(cols)]
        m = max(v)
        s = sum(math.exp(a - m) for a in v)
        for c in sample(cols, 64):
            want = math.exp(v[c] - m) / s
            if not rel_close(y[r * cols + c], want, 1e-4):
                bad.append("row %d col %d: %g, want %g" % (r, c, y[r * cols + c], want))
    return bad


def chk_rmsnorm(p, out, groups):
    n, x, g, y, bad = 4 * p["cols4"], Buf(0), Buf(2), F16(out[1]), []
    for r in sample(groups[0], 12):
        v = [half(x[r * n + c]) for c in range(n)]
        sc = 1.0 / math.sqrt(sum(a * a for a in v) / n + p["eps"])
        for c in sample(n, 64):
            want = v[c] * sc * half(g[c])
            if abs(y[r * n + c] - want) > 2e-3 * abs(want) + 1e-3:
                bad.append("row %d col %d: %g, want %g" % (r, c, y[r * n + c], want))
    return bad


def chk_gemv_row(p, out, groups):
    w, x, sc, y, n, bad = Buf(0, "i"), Buf(1), Buf(2), F32(out[3]), 4 * p["cols4"], []
    for r in sample(p["rows"]):
        bad += chk_sum(y[r], [sc[r] * w[r * n + c] * x[c] for c in range(n)], "row %d" % r)
    return bad


def chk_gemv_wg(p, out, groups):
    a, x, y, n, bad = Buf(0), Buf(1), F32(out[2]), 4 * p["cols4"], []
    for r in sample(groups[0], 32):
        bad += chk_sum(y[r], [a[r * n + c] * x[c] for c in range(n)], "row %d" % r)
    return bad


def chk_gemm_rb(p, out, groups):
    m, n, k, a, b, bias, c, bad = p["m"], p["n"], p["k"], Buf(0), Buf(1), Buf(3), F32(out[2]), []
    for o in sample(m * n):
        i, j = o // n, o % n
        terms = [a[i * k + q] * b[q * n + j] for q in range(k)] + [bias[j]]
        bad += chk_sum(c[o], terms, "c[%d][%d]" % (i, j))
    return bad


def chk_stencil(p, out, groups):
    nx, ny, nz, u, v, bad = p["nx"], p["ny"], p["nz"], Buf(0), F32(out[1]), []
    sy, sz = nx, nx * ny
    for i in sample(nx * ny * nz, 512):
        x, y, z = i % nx, (i // nx) % ny, i // sz
        if min(x, y, z) < 2 or x + 2 >= nx or y + 2 >= ny or z + 2 >= nz:
            want = u[i]
        else:
            s1 = sum(u[i + d] + u[i - d] for d in (1, sy, sz))
            s2 = sum(u[i + 2 * d] + u[i - 2 * d] for d in (1, sy, sz))
            want = u[i] + 0.05 * (-7.5 * u[i] + 4.0 / 3.0 * s1 - 1.0 / 12.0 * s2)
        if not close(v[i], want, 4.0):
            bad.append("cell %d,%d,%d: %g, want %g" % (x, y, z, v[i], want))
    return bad


def chk_scan(p, out, groups):
    src, dst, tot, bad = Buf(0, "u"), U32(out[1]), U32(out[2]), []
    for blk in sample(groups[0], 16):
        acc = 0
        for j in range(2048):
            e = blk * 2048 + j
            if dst[e] != acc:
                bad.append("block %d element %d: %d, want %d" % (blk, j, dst[e], acc))
                break
            acc += src[e]
        if tot[blk] != acc:
            bad.append("block %d total %d, want %d" % (blk, tot[blk], acc))
    return bad


def chk_reduce(p, out, groups):
    v, part, stride, bad = Buf(0), F32(out[1]), groups[0] * 256, []
    for g in sample(groups[0], 16):
        vals = [v[4 * i + q] for l in range(256) for i in range(g * 256 + l, p["n4"], stride)
                for q in range(4)]
        s, m = sum(vals), max([abs(a) for a in vals] + [0.0])
        if not close(part[2 * g], s, math.sqrt(len(vals)), rel=1e-4) or part[2 * g + 1] != m:
            bad.append("workgroup %d: %s, want (%g, %g)" % (g, part[2 * g:2 * g + 2], s, m))
    return bad


def chk_spmv(p, out, groups):
    val, colv, x, y, nc, bad = Buf(0), Buf(1, "u"), Buf(2), F32(out[4]), p["ncols"], []
    offs = gen.spmv_offsets()
    for r in sample(p["rows"]):
        blk = (r >> 7) * offs[128]
        start, end = blk + offs[r & 127], blk + offs[(r & 127) + 1]
        terms = [val[j] * x[(r * 4 + 16 * (j - start) + colv[j]) % nc] for j in range(start, end)]
        bad += chk_sum(y[r], terms, "row %d" % r)
    return bad


def chk_pitched(p, out, groups):
    src, dst, bad = Buf(0, "u"), U16(out[1]), []
    for o in sample(p["dpitch"] * p["bh"], 1024):
        y, x = o // p["dpitch"], o % p["dpitch"]
        s = (y + p["oy"]) * p["spitch"] + x + p["ox"]
        want = tuple(src[4 * s + q] for q in range(4)) if x < p["bw"] else (0, 0, 0, 0)
        if dst[4 * o:4 * o + 4] != want:
            bad.append("element %d,%d: %s, want %s" % (x, y, dst[4 * o:4 * o + 4], want))
    return bad


CHECKS = {
    "row_f64_abs": chk_row_f64, "conv7_f32": chk_conv7, "conv3_v4": chk_conv3,
    "atomic_key2500": chk_atomic_key, "hist_smem_509": chk_hist509, "sg_sum_one": chk_sg_sum,
    "transpose_v2_t32": chk_transpose_v2, "transpose_naive_u32": chk_transpose_u32,
    "partial_stride6": chk_partial6, "sector_col_v4": chk_sector_col,
    "gather_hash_v2": chk_gather_hash, "gather_idx_l2": chk_gather_idx,
    "tiny_one_poly": chk_tiny_one, "tiny_handful": chk_tiny_handful,
    "softmax_sg_rows": chk_softmax, "rmsnorm_f16": chk_rmsnorm,
    "gemv_row_i8": chk_gemv_row, "gemv_wg_tree": chk_gemv_wg,
    "gemm_tile16": lambda p, o, g: bv.chk_gemm(p, {2: F32(o[2])}, g),
    "gemm_rb4x8": chk_gemm_rb, "stencil3d_13": chk_stencil, "scan_excl_u4": chk_scan,
    "reduce_sg_sum_max": chk_reduce, "spmv_csr_8lane": chk_spmv, "pitched_copy_u16": chk_pitched,
}


def main():
    cw = sys.argv[1] if len(sys.argv) > 1 else "build/clockwork"
    plan = sys.argv[2] if len(sys.argv) > 2 else os.path.join(HERE, "plan-cpu.json")
    bv.CHECKS, bv.UINT_OUT, bv.load = CHECKS, set(), b3.load_raw
    sys.argv = [sys.argv[0], cw, plan]
    return bv.main()


if __name__ == "__main__":
    sys.exit(main())
