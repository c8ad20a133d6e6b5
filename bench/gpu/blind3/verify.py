#!/usr/bin/env python3
"""Checks blind set 3's results on a device: runs `clockwork run --dump` on
a plan (default plan-cpu.json, the lavapipe sizes) and compares sampled
outputs of every kernel with a reference computed here from the same
inputs: the plan's seeded random contents (regenerated element by element
as core/bufinit.c makes them, in each buffer's element type: int16, half,
float, uint; structs as 32-bit float words), its "ramp", "values" and
"file" contents.  The generator, the run and the comparison helpers are
bench/gpu/blind/verify.py's and bench/gpu/blind2/verify.py's; the dumps
are read here as raw bytes, since the outputs are int16, half, int32,
uint and float.  Accumulating kernels (the atomics) ran warm-up + samples
times: their outputs must be a whole number of single runs.  Pure Python,
no numpy.

    python3 bench/gpu/blind3/verify.py [CLOCKWORK] [PLAN]
exit 0 all kernels agree, 1 a kernel disagrees or did not run.
"""
import importlib.util
import itertools
import math
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True


def _module(name, path):
    spec = importlib.util.spec_from_file_location(name, os.path.join(HERE, "..", path))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


bv = _module("blind_verify", os.path.join("blind", "verify.py"))
b2 = _module("blind2_verify", os.path.join("blind2", "verify.py"))
gen = _module("blind3_gen", os.path.join("blind3", "gen.py"))
Buf, close, sample, whole_runs, f32, M32 = bv.Buf, bv.close, bv.sample, bv.whole_runs, bv.f32, bv.M32
half, bits, chk_sum = b2.half, b2.bits, b2.chk_sum


def words(raw, fmt, size):
    return struct.unpack("<%d%s" % (len(raw) // size, fmt), raw[:len(raw) // size * size])


def F32(raw):
    return words(raw, "f", 4)


def U32(raw):
    return words(raw, "I", 4)


def I32(raw):
    return words(raw, "i", 4)


def F16(raw):
    return words(raw, "e", 2)


def I16(raw):
    return words(raw, "h", 2)


def rel_close(got, want, rel):
    return abs(got - want) <= rel * abs(want) + 1e-7


def hmix(h, *steps):
    """h, then for each (shift, mult) of steps: h ^= h >> shift; h *= mult (32-bit)."""
    for s, m in steps:
        h ^= h >> s
        h = (h * m) & M32 if m else h
    return h


# --- the references: each returns a list of failure strings -------------

def chk_row_i16(p, out, groups):
    q, st, bad = Buf(0, "i"), I32(out[1]), []
    for r in sample(p["rows"]):
        h = (r * 0x85ebca6b) & M32
        h = hmix(h, (13, 0xc2b2ae35))
        v = [q[r * p["pitch"] + c] for c in range(p["minlen"] + (h >> 26))]
        want = (sum(v), max(abs(x) for x in v))
        if st[2 * r:2 * r + 2] != want:
            bad.append("row %d: %s, want %s" % (r, st[2 * r:2 * r + 2], want))
    return bad


def chk_gemv_row(p, out, groups):
    w, x, b, y, n, bad = Buf(0), Buf(1), Buf(2), F32(out[3]), 2 * p["cols2"], []
    for r in sample(p["rows"]):
        terms = [half(w[r * n + c]) * x[c] for c in range(n)] + [b[r]]
        bad += chk_sum(y[r], terms, "row %d" % r, 1e-4)
    return bad


def chk_box3(p, out, groups):
    wq, h, o, bad = p["wq"], p["h"], U32(out[1]), []

    def px(row, x):  # the image is a ramp: word j holds j
        x = min(max(x, 0), 4 * wq - 1)
        return ((row * wq + (x >> 2)) >> (8 * (x & 3))) & 255
    for j in sample(wq * h, 512):
        gx, gy = j % wq, j // wq
        want = 0
        for kk in range(4):
            x = 4 * gx + kk
            s = sum(px(min(max(gy + dy, 0), h - 1), x + dx) for dy in (-1, 0, 1) for dx in (-1, 0, 1))
            want |= ((s + 4) // 9) << (8 * kk)
        if o[j] != want:
            bad.append("word %d,%d: %08x, want %08x" % (gx, gy, o[j], want))
    return bad


def chk_gauss5(p, out, groups):
    w, h, src, o, bad = p["w"], p["h"], Buf(0), F16(out[1]), []
    wt = [f32(v) for v in gen.gauss_weights()]
    for i in sample(w * h):
        x, y = i % w, i // w
        terms = [wt[dy * 5 + dx] * half(src[min(max(y + dy - 2, 0), h - 1) * w +
                                             min(max(x + dx - 2, 0), w - 1)])
                 for dy in range(5) for dx in range(5)]
        want = sum(terms)
        if abs(o[i] - want) > 2e-3 * abs(want) + 1e-4:
            bad.append("pixel %d,%d: %g, want %g" % (x, y, o[i], want))
    return bad


def chk_diff7(p, out, groups):
    nx, ny, nz, dt, u, kap, v, bad = p["nx"], p["ny"], p["nz"], f32(p["dt"]), Buf(0), Buf(1), F32(out[2]), []

    def at(x, y, z):
        return (min(max(z, 0), nz - 1) * ny + min(max(y, 0), ny - 1)) * nx + min(max(x, 0), nx - 1)
    for i in sample(nx * ny * nz, 512):
        x, y, z = i % nx, (i // nx) % ny, i // (nx * ny)
        kc, flux = half(kap[i]), 0.0
        for dx, dy, dz in ((-1, 0, 0), (1, 0, 0), (0, -1, 0), (0, 1, 0), (0, 0, -1), (0, 0, 1)):
            j = at(x + dx, y + dy, z + dz)
            flux += 0.5 * (kc + half(kap[j])) * (u[j] - u[i])
        want = u[i] + dt * flux
        if not close(v[i], want, 4.0):
            bad.append("cell %d,%d,%d: %g, want %g" % (x, y, z, v[i], want))
    return bad


def chk_hot(p, out, groups):
    key, want = Buf(0, "u"), [0] * p["bins"]
    for t in range(p["lanes"]):
        kv = key[t]
        for j in range(2 + (kv & 3)):
            h = ((t * 0x27d4eb2f + j * 0x165667b1) & M32) ^ ((kv * 0x9e3779b1) & M32)
            h = hmix(h, (16, 0x7feb352d), (15, 0))
            want[h % p["bins"]] += 1 + (kv >> 2)
    return [] if whole_runs(U32(out[1]), want) else ["counters are not a whole number of runs"]


def chk_seg_sum(p, out, groups):
    val, chunk, want = Buf(0, "i"), 256 * p["per"], [0] * p["segs"]
    for g in range(groups[0]):
        want[g % p["segs"]] += sum(val[i] for i in range(g * chunk, min((g + 1) * chunk, p["n"])))
    return [] if whole_runs(I32(out[1]), want) else ["totals are not a whole number of runs"]


def chk_hist(p, out, groups):
    smp, want = Buf(0), [0] * p["bins"]
    for i in range(p["n"]):
        h = bits(smp[i]) ^ ((i * 0x61c88647) & M32)
        h = hmix(h, (15, 0x2c1b3c6d), (12, 0))
        want[h % p["bins"]] += 1
    return [] if whole_runs(U32(out[1]), want) else ["bins are not a whole number of runs"]


def chk_compact(p, out, groups):
    src, thr, cap = Buf(0), f32(p["thresh"]), p["cap"]
    passed = sum(1 for i in range(8 * p["n8"]) if src[i] > thr)
    counter, idx = U32(out[1])[0], U32(out[2])
    if passed == 0 or counter % passed or counter == 0:
        return ["counter %d is not a whole number of runs x %d" % (counter, passed)]
    filled, bad = min(counter, cap), []
    for s in sample(cap, 1024):
        v = idx[s]
        if s < filled and (v == 0 or v > 8 * p["n8"] or not src[v - 1] > thr):
            bad.append("slot %d holds %d, not a passing sample's index + 1" % (s, v))
        if s >= filled and v != 0:
            bad.append("slot %d past the %d reserved holds %d" % (s, filled, v))
    return bad


def chk_transpose_i16(p, out, groups):
    """int16 elements; the float transpose is bench/gpu/blind/verify.py's check."""
    rows, cols, src, dst = p["rows"], p["cols"], Buf(0, "i"), I16(out[1])
    return ["out %d: %d, want %d" % (o, dst[o], src[(o % rows) * cols + o // rows])
            for o in sample(rows * cols, 1024) if dst[o] != src[(o % rows) * cols + o // rows]]


def chk_aos_tag(p, out, groups):
    wd, raw, cells, bad = Buf(0), out[0], p["cells"], []
    fl, tags = F32(raw), U32(raw)
    for i in sample(p["n"], 512):
        for q in range(7):
            if fl[8 * i + q] != wd[8 * i + q]:
                bad.append("particle %d word %d changed" % (i, q))
        if wd[8 * i + 3] < 0.0:
            want = 0xffffffff
        else:
            c = [min(max(int(f32(wd[8 * i + a] + 1.0) * 0.5 * cells), 0), cells - 1) for a in range(3)]
            want = (c[2] * cells + c[1]) * cells + c[0]
        if tags[8 * i + 7] != want:
            bad.append("particle %d: tag %d, want %d" % (i, tags[8 * i + 7], want))
    return bad


def chk_sector(p, out, groups):
    rec, o, bad = Buf(0), F32(out[1]), []
    for i in sample(p["n"]):
        kx, ky = rec[36 * i], rec[36 * i + 1]
        if not close(o[i], kx * kx - ky):
            bad.append("record %d: %g, want %g" % (i, o[i], kx * kx - ky))
    return bad


def chk_gather_lane(p, out, groups):
    tab, o, bad = Buf(0), F32(out[1]), []
    for i in sample(p["n"]):
        terms = []
        for j in range(p["per"]):
            h = (i * 0x9e3779b1 + j * 0x7f4a7c15) & M32
            h = hmix(h, (15, 0x2c1b3c6d), (12, 0x297a2d39), (15, 0))
            terms.append(half(tab[h % p["tsize"]]))
        bad += chk_sum(o[i], terms, "element %d" % i)
    return bad


def chk_gather_key(p, out, groups):
    key, tab, o, bad = Buf(0), Buf(1), F32(out[2]), []
    for i in sample(p["n"]):
        h, terms = bits(key[i]), []
        for j in range(p["per"]):
            h = hmix(h, (16, 0x85ebca6b), (13, 0))
            h = (h + 0x6a09e667) & M32
            terms.append(tab[h % p["tsize"]])
        bad += chk_sum(o[i], terms, "element %d" % i)
    return bad


def chk_gather_dram(p, out, groups):
    key, tab, o, ts, bad = Buf(0), Buf(1), F32(out[2]), p["tsize"], []
    for i in sample(p["n"]):
        h = (bits(key[i]) * 0xcc9e2d51) & M32
        h = (((h << 15) | (h >> 17)) & M32) * 0x1b873593 & M32
        h2 = hmix(h, (16, 0x85ebca6b), (13, 0))
        for q in range(4):
            want = tab[4 * (h % ts) + q] - 0.5 * tab[4 * (h2 % ts) + q]
            if not close(o[4 * i + q], want, 1.5, 1e-5):
                bad.append("element %d.%d: %g, want %g" % (i, q, o[4 * i + q], want))
    return bad


def chk_gather_perm(p, out, groups):
    src, o, s, bad = Buf(0), F32(out[2]), f32(p["scale"]), []
    perm = gen.perm4096()
    for i in sample(p["n"], 1024):
        want = f32(s * src[(i & ~4095) + perm[i & 4095]])
        if o[i] != want:
            bad.append("element %d: %g, want %g" % (i, o[i], want))
    return bad


def chk_tiny_one(p, out, groups):
    x, y = Buf(0), F32(out[1])
    want = [f32(f32(x[i] * x[i]) - 0.5) if i < p["n"] else 0.0 for i in range(64)]
    return ["element %d: %g, want %g" % (i, y[i], want[i])
            for i in range(64) if not close(y[i], want[i], rel=1e-6)]


def chk_tiny_3d(p, out, groups):
    v, w = Buf(0), F32(out[1])
    return ["element %d: %g" % (i, w[i]) for i in range(512)
            if w[i] != min(max(2.0 * v[i], -1.0), 1.0)]


def chk_softmax(p, out, groups):
    cols, x, y, bad = p["cols"], Buf(0), F16(out[1]), []
    for r in sample(groups[0], 12):
        v = [half(x[r * cols + c]) for c in range(cols)]
        m = max(v)
        s = sum(math.exp(a - m) for a in v)
        for c in sample(cols, 64):
            want = math.exp(v[c] - m) / s
            if not rel_close(y[r * cols + c], want, 3e-3):
                bad.append("row %d col %d: %g, want %g" % (r, c, y[r * cols + c], want))
    return bad


def chk_layernorm(p, out, groups):
    """bench/gpu/blind/verify.py's check: the same bindings, rows of 4 cols4."""
    return bv.chk_layernorm({"cols": 4 * p["cols4"], "eps": p["eps"]}, {1: F32(out[1])}, [p["rows"]])


def chk_gemv_wg(p, out, groups):
    w, x, sc, y, cols, bad = Buf(0, "i"), Buf(1), Buf(2), F32(out[3]), 4 * p["cols4"], []
    for r in sample(p["rows"], 32):
        terms = [sc[r] * w[r * cols + c] * x[c] for c in range(cols)]
        bad += chk_sum(y[r], terms, "row %d" % r)
    return bad


def chk_gemm_nt(p, out, groups):
    m, n, k, a, b, c, bad = p["m"], p["n"], p["k"], Buf(0), Buf(1), F32(out[2]), []
    for o in sample(m * n):
        i, j = o // n, o % n
        terms = [half(a[i * k + q]) * half(b[j * k + q]) for q in range(k)]
        bad += chk_sum(c[o], terms, "c[%d][%d]" % (i, j))
    return bad


def chk_gemm_rb(p, out, groups):
    m, n, k, a, b, c, bad = p["m"], p["n"], p["k"], Buf(0), Buf(1), F32(out[2]), []
    for o in sample(m * n):
        i, j = o // n, o % n
        terms = [p["alpha"] * a[i * k + q] * b[q * n + j] for q in range(k)]
        bad += chk_sum(c[o], terms, "c[%d][%d]" % (i, j))
    return bad


def chk_scan(p, out, groups):
    v, s, tot, bad = Buf(0, "i"), I32(out[1]), I32(out[2]), []
    for blk in sample(groups[0], 16):
        want = list(itertools.accumulate(v[blk * 1024 + j] for j in range(1024)))
        got = list(s[blk * 1024:(blk + 1) * 1024])
        wrong = [j for j in range(1024) if got[j] != want[j]][:1]
        bad += ["block %d element %d: %d, want %d" % (blk, j, got[j], want[j]) for j in wrong]
        if tot[blk] != want[-1]:
            bad.append("block %d total %d, want %d" % (blk, tot[blk], want[-1]))
    return bad


def chk_spmv(p, out, groups):
    val, colv, x, y, nc, bad = Buf(0), Buf(1, "u"), Buf(2), F32(out[4]), p["ncols"], []
    offs = gen.spmv_offsets()
    for r in sample(p["rows"]):
        start, end = (r >> 6) * offs[64] + offs[r & 63], (r >> 6) * offs[64] + offs[(r & 63) + 1]
        terms = [val[j] * x[((r * 3 + colv[j] * 4099 + (j - start) * 61) & M32) % nc]
                 for j in range(start, end)]
        bad += chk_sum(y[r], terms, "row %d" % r)
    return bad


def chk_box3d(p, out, groups):
    src, dst, bad = Buf(0), F32(out[1]), []
    for o in sample(len(dst), 1024):
        z, rem = o // p["dslice"], o % p["dslice"]
        y, x = rem // p["dpitch"], rem % p["dpitch"]
        want = 0.0
        if x < p["bw"] and y < p["bh"]:
            want = src[(z + p["oz"]) * p["sslice"] + (y + p["oy"]) * p["spitch"] + x + p["ox"]]
        if dst[o] != want:
            bad.append("element %d,%d,%d: %g, want %g" % (x, y, z, dst[o], want))
    return bad


CHECKS = {
    "row_i16_var": chk_row_i16, "gemv_row_h2": chk_gemv_row, "box3_u8": chk_box3,
    "gauss5_tile_f16": chk_gauss5, "diff7_kappa_wg3d": chk_diff7, "atomic_hot384": chk_hot,
    "seg_sum_sg": chk_seg_sum, "hist_smem_1k": chk_hist, "compact_sg": chk_compact,
    "transpose_i16_t64": chk_transpose_i16,
    "transpose_naive_8x32": lambda p, o, g: bv.chk_transpose(p, {1: F32(o[1])}, g),
    "aos_tag_write": chk_aos_tag, "sector_rec144": chk_sector,
    "gather_l2_lane_f16": chk_gather_lane, "gather_l2_key": chk_gather_key,
    "gather_dram_key_v4": chk_gather_dram, "gather_perm_file": chk_gather_perm,
    "tiny_one_group": chk_tiny_one, "tiny_grid3d": chk_tiny_3d,
    "softmax_f16_online": chk_softmax, "layernorm_rows4": chk_layernorm,
    "gemv_wg_q16": chk_gemv_wg,
    "gemm_nt_f16": chk_gemm_nt, "gemm_rb8x8": chk_gemm_rb,
    "scan_i16_coarse": chk_scan, "spmv_csr_4lane": chk_spmv, "pitched_box3d": chk_box3d,
}


def load_raw(path, fmt="f"):
    """The dump's bytes: each check decodes its buffers' element types."""
    with open(path, "rb") as f:
        return f.read()


def main():
    cw = sys.argv[1] if len(sys.argv) > 1 else "build/clockwork"
    plan = sys.argv[2] if len(sys.argv) > 2 else os.path.join(HERE, "plan-cpu.json")
    bv.CHECKS, bv.UINT_OUT, bv.load = CHECKS, set(), load_raw
    sys.argv = [sys.argv[0], cw, plan]
    return bv.main()


if __name__ == "__main__":
    sys.exit(main())
