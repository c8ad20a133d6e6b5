#!/usr/bin/env python3
"""Checks blind set 2's results on a device: runs `clockwork run --dump` on
a plan (default plan-cpu.json, the lavapipe sizes) and compares sampled
outputs of every kernel with a reference computed here from the same
inputs (the plan's seeded random contents, regenerated element by element
as core/bufinit.c makes them; the generator and the comparison helpers are
bench/gpu/blind/verify.py's).  Accumulating kernels (the atomics) ran
warm-up + samples times: their outputs must be a whole number of single
runs.  Pure Python, no numpy.

    python3 bench/gpu/blind2/verify.py [CLOCKWORK] [PLAN]
exit 0 all kernels agree, 1 a kernel disagrees or did not run.
"""
import importlib.util
import math
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True
_spec = importlib.util.spec_from_file_location(
    "blind_verify", os.path.join(HERE, "..", "blind", "verify.py"))
bv = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bv)
Buf, close, sample, whole_runs, f32, M32 = bv.Buf, bv.close, bv.sample, bv.whole_runs, bv.f32, bv.M32


def half(x):
    return struct.unpack("<e", struct.pack("<e", x))[0]


def bits(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


def chk_sum(got, terms, what, rel=2e-4):
    want = sum(terms)
    if close(got, want, sum(map(abs, terms)), rel):
        return []
    return ["%s: %g, want %g" % (what, got, want)]


# --- the references: each returns a list of failure strings -------------

def chk_row_f16(p, out, groups):
    a, cols, bad = Buf(0), p["cols"], []
    for r in sample(p["rows"]):
        terms = [half(a[r * cols + c]) * 0.125 for c in range(cols)]
        bad += chk_sum(out[1][r], terms, "row %d" % r, 2e-3)
    return bad


def chk_row_u32(p, out, groups):
    a, cols, bad = Buf(0, "u"), p["cols"], []
    for r in sample(p["rows"]):
        v = [a[r * cols + c] for c in range(cols)]
        want = [sum(v), sum(1 for x in v if x >= p["thresh"])]
        if list(out[1][2 * r:2 * r + 2]) != want:
            bad.append("row %d: %s, want %s" % (r, out[1][2 * r:2 * r + 2], want))
    return bad


def chk_gemv_row(p, out, groups):
    a, x, cols, bad = Buf(0), Buf(1), 4 * p["cols4"], []
    for r in sample(p["rows"]):
        bad += chk_sum(out[2][r], [a[r * cols + c] * x[c] for c in range(cols)], "row %d" % r)
    return bad


def chk_sobel(p, out, groups):
    w, h, src, bad = p["w"], p["h"], Buf(0), []

    def at(x, y):
        return src[min(max(y, 0), h - 1) * w + min(max(x, 0), w - 1)]
    for i in sample(w * h):
        x, y = i % w, i // w
        gx = (at(x + 1, y - 1) + 2 * at(x + 1, y) + at(x + 1, y + 1)) - \
             (at(x - 1, y - 1) + 2 * at(x - 1, y) + at(x - 1, y + 1))
        gy = (at(x - 1, y + 1) + 2 * at(x, y + 1) + at(x + 1, y + 1)) - \
             (at(x - 1, y - 1) + 2 * at(x, y - 1) + at(x + 1, y - 1))
        if not close(out[1][i], math.sqrt(gx * gx + gy * gy), 8.0):
            bad.append("pixel %d,%d: %g, want %g" % (x, y, out[1][i], math.hypot(gx, gy)))
    return bad


def chk_conv_rg(p, out, groups):
    w, h, src, wt, bad = p["w"], p["h"], Buf(0), Buf(2), []
    for i in sample(w * h):
        x, y = i % w, i // w
        for ch in range(2):
            terms = [wt[(dy + 2) * 5 + dx + 2] *
                     src[2 * (min(max(y + dy, 0), h - 1) * w + min(max(x + dx, 0), w - 1)) + ch]
                     for dy in range(-2, 3) for dx in range(-2, 3)]
            bad += chk_sum(out[1][2 * i + ch], terms, "pixel %d,%d.%d" % (x, y, ch))
    return bad


def chk_heat(p, out, groups):
    w, h, d, al, u, bad = p["w"], p["h"], p["d"], f32(p["alpha"]), Buf(0), []

    def at(x, y, z):
        return u[(min(max(z, 0), d - 1) * h + min(max(y, 0), h - 1)) * w + min(max(x, 0), w - 1)]
    for i in sample(w * h * d, 512):
        x, y, z = i % w, (i // w) % h, i // (w * h)
        nb = [at(x - 1, y, z), at(x + 1, y, z), at(x, y - 1, z), at(x, y + 1, z),
              at(x, y, z - 1), at(x, y, z + 1)]
        want = at(x, y, z) + al * (sum(nb) - 6.0 * at(x, y, z))
        if not close(out[1][i], want, 4.0):
            bad.append("cell %d,%d,%d: %g, want %g" % (x, y, z, out[1][i], want))
    return bad


def chk_hot(p, out, groups):
    key, want = Buf(0, "u"), [0] * p["bins"]
    for t in range(p["lanes"]):
        k = key[t]
        for j in range(p["per"]):
            h = (((t * p["per"] + j) * 2246822519) & M32) ^ ((k * 374761393) & M32)
            h ^= h >> 15
            want[h % p["bins"]] += 1 + (k & 3)
    return [] if whole_runs(out[1], want) else ["counters are not a whole number of runs"]


def chk_hist(p, out, groups):
    src, want = Buf(0), [0] * 256
    for i in range(p["n"]):
        want[(((bits(src[i]) * 2654435761) & M32) >> 20) % p["bins"]] += 1
    return [] if whole_runs(out[1], want) else ["bins are not a whole number of runs"]


def chk_sg_atomic(p, out, groups):
    src, gain = Buf(0), f32(p["gain"])
    want = sum(int(f32(abs(src[i]) * gain)) for i in range(p["n"]))
    return [] if whole_runs(out[1][:1], [want]) else ["total %d, want runs x %d" % (out[1][0], want)]


def chk_transpose(p, out, groups, comps):
    """comps components an element; a batch of matrices for the 3-D grid."""
    rows, cols, src, bad = p["rows"], p["cols"], Buf(0), []
    for o in sample(groups[2] * rows * cols, 1024):
        slab, c, r = o - o % (rows * cols), (o % (rows * cols)) // rows, o % rows
        s = slab + r * cols + c
        for q in range(comps):
            if out[1][comps * o + q] != src[comps * s + q]:
                bad.append("out %d.%d: %g, want %g" % (o, q, out[1][comps * o + q], src[comps * s + q]))
    return bad


def chk_partial(p, out, groups):
    force, dt, bad = Buf(0), f32(p["dt"]), []
    for f in sample(12 * p["n"], 2048):
        i, q = f // 12, f % 12
        want = f32(force[2 * i + q - 4] * dt) if q in (4, 5) else 0.0
        if out[1][f] != want:
            bad.append("float %d: %g, want %g" % (f, out[1][f], want))
    return bad


def chk_sector(p, out, groups):
    rec, bad = Buf(0), []
    for i in sample(p["n"]):
        terms = [rec[48 * i + q] * rec[48 * i + 4 + q] for q in range(4)]
        bad += chk_sum(out[1][i], terms, "record %d" % i)
    return bad


def mix32(x):
    x ^= x >> 16
    x = (x * 0x7feb352d) & M32
    x ^= x >> 15
    x = (x * 0x846ca68b) & M32
    return x ^ (x >> 16)


def chk_gather_l2(p, out, groups):
    table, per, bad = Buf(0), p["per"], []
    for i in sample(p["n"]):
        terms = [table[mix32((i * per + j) & M32) % p["tsize"]] for j in range(per)]
        bad += chk_sum(out[1][i], terms, "element %d" % i)
    return bad


def chk_gather_key(p, out, groups):
    key, table, bad = Buf(0, "u"), Buf(1), []
    for i in sample(p["n"]):
        h = ((2166136261 ^ key[i]) * 16777619) & M32
        h = ((h ^ i) * 16777619) & M32
        h ^= h >> 13
        h = (h * 0x5bd1e995) & M32
        h ^= h >> 15
        for q in range(2):
            terms = [table[2 * (((h + j * p["step"]) & M32) % p["tsize"]) + q]
                     for j in range(p["per"])]
            bad += chk_sum(out[2][2 * i + q], terms, "element %d.%d" % (i, q))
    return bad


def chk_tiny_affine(p, out, groups):
    x, n = Buf(0), p["n"]
    want = [f32(f32(p["a"]) * x[i]) + f32(p["b"]) if i < n else 0.0 for i in range(32)]
    return ["element %d: %g, want %g" % (i, out[1][i], want[i])
            for i in range(32) if not close(out[1][i], want[i], rel=1e-6)]


def chk_tiny_rsqrt(p, out, groups):
    x, n = Buf(0), p["n"]
    return ["element %d: %g" % (i, out[1][i]) for i in range(len(out[1]))
            if not close(out[1][i], 1.0 / math.sqrt(abs(x[i]) + 1.0) if i < n else 0.0, rel=1e-5)]


def chk_softmax(p, out, groups):
    cols, src, bad = p["cols"], Buf(0), []
    for r in sample(groups[0], 24):
        v = [src[r * cols + c] for c in range(cols)]
        e = [math.exp(x - max(v)) for x in v]
        for c in sample(cols, 64):
            if not close(out[1][r * cols + c], e[c] / sum(e), rel=1e-4):
                bad.append("row %d col %d: %g, want %g" % (r, c, out[1][r * cols + c], e[c] / sum(e)))
    return bad


def chk_rmsnorm(p, out, groups):
    cols, x, res, g, bad = p["cols"], Buf(0), Buf(1), Buf(2), []
    for r in sample(groups[0], 16):
        hv = [x[r * cols + c] + res[r * cols + c] for c in range(cols)]
        scale = 1.0 / math.sqrt(sum(v * v for v in hv) / cols + p["eps"])
        for c in sample(cols, 64):
            if not close(out[3][r * cols + c], hv[c] * scale * g[c], rel=1e-3):
                bad.append("row %d col %d: %g, want %g" % (r, c, out[3][r * cols + c],
                                                           hv[c] * scale * g[c]))
    return bad


def chk_gemv_wg(p, out, groups):
    a, x, cols, bad = Buf(0), Buf(1), 4 * p["cols4"], []
    for r in sample(groups[0], 32):
        terms = [p["alpha"] * a[r * cols + c] * x[c] for c in range(cols)]
        bad += chk_sum(out[2][r], terms, "row %d" % r)
    return bad


def chk_gemm16(p, out, groups):
    m, n, k, a, b, c, bad = p["m"], p["n"], p["k"], Buf(0), Buf(1), Buf(2), []
    for o in sample(m * n):
        i, j = o // n, o % n
        terms = [p["alpha"] * a[i * k + q] * b[q * n + j] for q in range(k)] + [p["beta"] * c[o]]
        bad += chk_sum(out[3][o], terms, "d[%d][%d]" % (i, j))
    return bad


def chk_gemm_rb(p, out, groups):
    m, n, k, a, b, bad = p["m"], p["n"], p["k"], Buf(0), Buf(1), []
    for o in sample(m * n):
        i, j = o // n, o % n
        bad += chk_sum(out[2][o], [a[i * k + q] * b[q * n + j] for q in range(k)],
                       "c[%d][%d]" % (i, j))
    return bad


def chk_scan(p, out, groups):
    src, bad = Buf(0, "u"), []
    for blk in sample(groups[0], 16):
        acc = 0
        for j in range(512):
            if out[1][blk * 512 + j] != acc:
                bad.append("block %d element %d: %d, want %d" % (blk, j, out[1][blk * 512 + j], acc))
                break
            acc += src[blk * 512 + j]
        if out[2][blk] != acc:
            bad.append("block %d total %d, want %d" % (blk, out[2][blk], acc))
    return bad


def chk_minmax(p, out, groups):
    src, stride, bad = Buf(0), groups[0] * 256, []
    for g in sample(groups[0], 8):
        v = [src[2 * i + q] for s in range(g * 256, p["n2"], stride)
             for i in range(s, min(s + 256, p["n2"])) for q in range(2)]
        if (out[1][2 * g], out[1][2 * g + 1]) != (min(v), max(v)):
            bad.append("workgroup %d: %s, want %s" % (g, out[1][2 * g:2 * g + 2], (min(v), max(v))))
    return bad


def spmv_start(r):
    return 40 * r + (((r * 0x9e3779b1) & M32) >> 16) % 24


def chk_spmv(p, out, groups):
    val, col, x, cols, bad = Buf(0), Buf(1, "u"), Buf(2), p["cols"], []
    for r in sample(p["rows"]):
        terms = [val[j] * x[((r * 53 + j * 131 + col[j] * 977) & M32) % cols]
                 for j in range(spmv_start(r), spmv_start(r + 1))]
        bad += chk_sum(out[3][r], terms, "row %d" % r)
    return bad


def chk_pitched(p, out, groups):
    src, dst, bad = Buf(0), out[1], []
    for o in sample(len(dst) // 4, 1024):
        y, x = o // p["dpitch"], o % p["dpitch"]
        s = (y + p["oy"]) * p["spitch"] + x + p["ox"]
        want = [src[4 * s + q] if x < p["w"] else 0.0 for q in range(4)]
        if list(dst[4 * o:4 * o + 4]) != want:
            bad.append("texel %d,%d: %s, want %s" % (x, y, dst[4 * o:4 * o + 4], want))
    return bad


CHECKS = {
    "row_f16_sum": chk_row_f16, "row_u32_count": chk_row_u32, "gemv_row_vec4": chk_gemv_row,
    "sobel_clamp": chk_sobel, "conv5x5_rg": chk_conv_rg, "heat7_zmarch": chk_heat,
    "atomic_hot_bins": chk_hot, "hist_smem_float": chk_hist, "subgroup_atomic_sum": chk_sg_atomic,
    "transpose_batch_colwrite": lambda p, o, g: chk_transpose(p, o, g, 1),
    "transpose_c64_tile": lambda p, o, g: chk_transpose(p, o, g, 2),
    "partial_body_vel": chk_partial, "sector_rec192": chk_sector,
    "gather_mod_table": chk_gather_l2, "gather_key_vec2": chk_gather_key,
    "tiny_affine": chk_tiny_affine, "tiny_rsqrt": chk_tiny_rsqrt, "softmax_row_sg": chk_softmax,
    "add_rmsnorm": chk_rmsnorm, "gemv_wg_vec4": chk_gemv_wg, "gemm_tile16_ab": chk_gemm16,
    "gemm_rb4x4_64": chk_gemm_rb, "scan_blelloch512": chk_scan, "minmax_subgroup": chk_minmax,
    "spmv_csr_seg32": chk_spmv, "pitched_copy_v4": chk_pitched,
}
UINT_OUT = {"row_u32_count", "atomic_hot_bins", "hist_smem_float", "subgroup_atomic_sum",
            "scan_blelloch512"}


def main():
    cw = sys.argv[1] if len(sys.argv) > 1 else "build/clockwork"
    plan = sys.argv[2] if len(sys.argv) > 2 else os.path.join(HERE, "plan-cpu.json")
    bv.CHECKS, bv.UINT_OUT = CHECKS, UINT_OUT
    sys.argv = [sys.argv[0], cw, plan]
    return bv.main()


if __name__ == "__main__":
    sys.exit(main())
