#!/usr/bin/env python3
"""Checks the blind set's results on a device: runs `clockwork run --dump`
on a plan (default plan-cpu.json, the lavapipe sizes) and compares sampled
outputs of every kernel with a reference computed here from the same
inputs (the plan's seeded random contents, regenerated element by element
as core/bufinit.c makes them: splitmix64 from seed 0x5eed ^ binding x
0x2545f4914f6cdd1d).  Accumulating kernels (atomics, the in-place launch
probe) ran warm-up + samples times: their outputs must be a whole number of
single runs.  Pure Python, no numpy.

    python3 bench/gpu/blind/verify.py [CLOCKWORK] [PLAN]
exit 0 all kernels agree, 1 a kernel disagrees or did not run.
"""
import json
import math
import os
import random
import shutil
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
M64 = (1 << 64) - 1
M32 = (1 << 32) - 1
GOLD = 0x9e3779b97f4a7c15


def mix(z):
    z = ((z ^ (z >> 30)) * 0xbf58476d1ce4e5b9) & M64
    z = ((z ^ (z >> 27)) * 0x94d049bb133111eb) & M64
    return z ^ (z >> 31)


class Buf:
    """Element i of binding b's random contents (scalar components)."""

    def __init__(self, binding, kind="f"):
        self.s0 = (0x5eed ^ (binding * 0x2545f4914f6cdd1d)) & M64
        self.kind = kind

    def __getitem__(self, i):
        r = mix((self.s0 + (i + 1) * GOLD) & M64)
        if self.kind == "f":
            return (r >> 40) / float(1 << 23) - 1.0
        if self.kind == "i":
            return r % 17 - 8
        return r % 16


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def load(path, fmt="f"):
    with open(path, "rb") as f:
        data = f.read()
    return struct.unpack("<%d%s" % (len(data) // 4, fmt), data)


def close(got, want, scale=1.0, rel=2e-4):
    return abs(got - want) <= rel * max(1.0, abs(want), scale)


def sample(n, count=256, rng=random.Random(7)):
    if n <= count:
        return range(n)
    return sorted(set([0, n - 1] + [rng.randrange(n) for _ in range(count)]))


def whole_runs(got, want):
    """got == R * want for one whole R >= 1 over every element."""
    tot = sum(want)
    if tot == 0:
        return all(g == 0 for g in got)
    r = sum(got) / tot
    if abs(r - round(r)) > 1e-9 or round(r) < 1:
        return False
    return all(g == round(r) * w for g, w in zip(got, want))


# --- the references: each returns a list of failure strings -------------

def chk_rows(p, out, groups, kernel):
    rows, cols = p["rows"], p["cols"]
    a = Buf(0)
    bad = []
    if kernel == "row_max37":
        best = out[1]
        for r in sample(rows):
            v = [a[r * cols + c] for c in range(cols)]
            m = max(v)
            if best[2 * r] != m or (v.count(m) == 1 and best[2 * r + 1] != v.index(m)):
                bad.append("row %d: %s, want %s at %d" % (r, best[2 * r:2 * r + 2], m, v.index(m)))
        return bad
    x = Buf(1) if kernel == "gemv_row_dot" else None
    y = out[2] if x else out[1]
    for r in sample(rows):
        terms = [a[r * cols + c] * (x[c] if x else 1.0) for c in range(cols)]
        if not close(y[r], sum(terms), sum(map(abs, terms))):
            bad.append("row %d: %g, want %g" % (r, y[r], sum(terms)))
    return bad


def chk_conv(p, out, groups, kernel):
    w, h = p["w"], p["h"]
    src = Buf(0)
    dst = out[1]
    if kernel == "conv5x5_t16x4":
        k1 = [1.0, 4.0, 6.0, 4.0, 1.0]
        taps = [(i - 2, j - 2, k1[i] * k1[j] / 256.0) for j in range(5) for i in range(5)]
    else:
        wt = Buf(2)
        taps = [(dx, dy, wt[(dy + 1) * 3 + dx + 1]) for dy in (-1, 0, 1) for dx in (-1, 0, 1)]
    bad = []
    for i in sample(w * h):
        x, y = i % w, i // w
        terms = [c * src[min(max(y + dy, 0), h - 1) * w + min(max(x + dx, 0), w - 1)]
                 for dx, dy, c in taps]
        if not close(dst[i], sum(terms), sum(map(abs, terms))):
            bad.append("pixel %d,%d: %g, want %g" % (x, y, dst[i], sum(terms)))
    return bad


def chk_hot(p, out, groups):
    n, bins = p["n"], p["bins"]
    src = Buf(0)
    want = [0] * bins
    for i in range(n):
        want[(((i * 2654435761) & M32) >> 7) % bins] += int(src[i] * 4.0 + 5.0)
    return [] if whole_runs(out[1], want) else ["counters are not a whole number of runs"]


def chk_hist(p, out, groups):
    n = p["n"]
    src = Buf(0, "u")
    want = [0] * 384
    for i in range(n):
        want[((((src[i] ^ i) * 0x9e3779b1) & M32) >> 16) % 384] += 1
    return [] if whole_runs(out[1], want) else ["bins are not a whole number of runs"]


def chk_ballot(p, out, groups):
    src = Buf(0)
    want = sum(1 for i in range(p["n"]) if src[i] > f32(p["threshold"]))
    return [] if whole_runs(out[1], [want]) else ["count %d, want runs x %d" % (out[1][0], want)]


def chk_transpose(p, out, groups):
    rows, cols = p["rows"], p["cols"]
    src = Buf(0)
    dst = out[1]
    bad = []
    for o in sample(rows * cols, 1024):
        c, r = o // rows, o % rows
        if dst[o] != src[r * cols + c]:
            bad.append("out %d: %g, want %g" % (o, dst[o], src[r * cols + c]))
    return bad


def chk_partial(p, out, groups):
    src = Buf(0)
    rec = out[1]
    bad = []
    for f in sample(16 * p["n"], 2048):
        i, q = f // 16, f % 16
        want = 2.0 * src[4 * i + q] if q < 4 else 0.0
        if rec[f] != want:
            bad.append("float %d: %g, want %g" % (f, rec[f], want))
    return bad


def chk_sector(p, out, groups):
    lines, per = p["lines"], p["per"]
    stride = groups[0] * 128
    src = Buf(0)
    dst = out[1]
    bad = []
    for g in sample(len(dst)):
        want = 0.0
        for k in range(per):
            line = g + k * stride
            if line < lines:
                want += src[line * 32] - src[line * 32 + 1]
        if not close(dst[g], want, 4.0):
            bad.append("lane %d: %g, want %g" % (g, dst[g], want))
    return bad


def chk_gather(p, out, groups):
    n, tsize, per = p["n"], p["tsize"], p["per"]
    table = Buf(0)
    dst = out[1]
    bad = []
    for i in sample(n):
        want = 0.0
        for k in range(per):
            h = (i * 0x01000193 + k * 0x9e3779b9) & M32
            h ^= h >> 16
            h = (h * 0x85ebca6b) & M32
            h ^= h >> 13
            want += table[h & (tsize - 1)]
        if not close(dst[i], want, per):
            bad.append("element %d: %g, want %g" % (i, dst[i], want))
    return bad


def chk_tiny(p, out, groups):
    v = out[0]
    for runs in range(1, 1000):
        ok = True
        for i in range(p["n"]):
            x = float(i)
            for _ in range(runs):
                x = f32(f32(x * p["s"]) + 1.0)
            if not close(v[i], x, rel=1e-6):
                ok = False
                break
        if ok:
            return []
    return ["no whole number of runs gives the buffer"]


def chk_softmax(p, out, groups):
    cols = p["cols"]
    src = Buf(0)
    dst = out[1]
    bad = []
    for r in sample(groups[0], 24):
        v = [src[r * cols + c] for c in range(cols)]
        m = max(v)
        e = [math.exp(x - m) for x in v]
        s = sum(e)
        for c in sample(cols, 64):
            if not close(dst[r * cols + c], e[c] / s, rel=1e-4):
                bad.append("row %d col %d: %g, want %g" % (r, c, dst[r * cols + c], e[c] / s))
    return bad


def chk_layernorm(p, out, groups):
    cols, eps = p["cols"], p["eps"]
    src, gamma, beta = Buf(0), Buf(2), Buf(3)
    dst = out[1]
    bad = []
    for r in sample(groups[0], 24):
        v = [src[r * cols + c] for c in range(cols)]
        mean = sum(v) / cols
        rstd = 1.0 / math.sqrt(sum(x * x for x in v) / cols - mean * mean + eps)
        for c in sample(cols, 64):
            want = (v[c] - mean) * rstd * gamma[c] + beta[c]
            if not close(dst[r * cols + c], want, rel=1e-3):
                bad.append("row %d col %d: %g, want %g" % (r, c, dst[r * cols + c], want))
    return bad


def chk_gemv_wg(p, out, groups):
    cols = p["cols"]
    a, x = Buf(0), Buf(1)
    y = out[2]
    bad = []
    for r in sample(groups[0], 32):
        terms = [a[r * cols + c] * x[c] for c in range(cols)]
        if not close(y[r], sum(terms), sum(map(abs, terms))):
            bad.append("row %d: %g, want %g" % (r, y[r], sum(terms)))
    return bad


def chk_gemm(p, out, groups):
    m, n, k = p["m"], p["n"], p["k"]
    a, b = Buf(0), Buf(1)
    c = out[2]
    bad = []
    for o in sample(m * n):
        i, j = o // n, o % n
        terms = [a[i * k + q] * b[q * n + j] for q in range(k)]
        if not close(c[o], sum(terms), sum(map(abs, terms))):
            bad.append("c[%d][%d]: %g, want %g" % (i, j, c[o], sum(terms)))
    return bad


def chk_stencil(p, out, groups):
    w, h, d = p["w"], p["h"], p["d"]
    src = Buf(0)
    dst = out[1]
    wc = [0.4, 0.05, 0.02, 0.01]
    bad = []
    for i in sample(w * h * d, 512):
        x, y, z = i % w, (i // w) % h, i // (w * h)
        if x in (0, w - 1) or y in (0, h - 1) or z in (0, d - 1):
            want, scale = src[i], 1.0
        else:
            terms = [wc[abs(dx) + abs(dy) + abs(dz)] * src[i + (dz * h + dy) * w + dx]
                     for dz in (-1, 0, 1) for dy in (-1, 0, 1) for dx in (-1, 0, 1)]
            want, scale = sum(terms), sum(map(abs, terms))
        if not close(dst[i], want, scale):
            bad.append("cell %d,%d,%d: %g, want %g" % (x, y, z, dst[i], want))
    return bad


def chk_scan(p, out, groups):
    src = Buf(0, "u")
    dst, totals = out[1], out[2]
    bad = []
    for blk in sample(groups[0], 16):
        acc = 0
        for j in range(1024):
            acc += src[blk * 1024 + j] & 255
            if dst[blk * 1024 + j] != acc:
                bad.append("block %d element %d: %d, want %d" % (blk, j, dst[blk * 1024 + j], acc))
                break
        if totals[blk] != acc:
            bad.append("block %d total %d, want %d" % (blk, totals[blk], acc))
    return bad


def chk_reduce(p, out, groups):
    src, part, stride = Buf(0), out[1], groups[0] * 512
    bad = []
    for g in sample(groups[0], 16):
        lanes = [g * 512 + l + k * stride for l in range(512) for k in range(p["per"])]
        terms = [src[4 * i + q] for i in lanes if i < p["n4"] for q in range(4)]
        if not close(part[g], sum(terms), math.sqrt(len(terms)), rel=1e-4):
            bad.append("workgroup %d: %g, want %g" % (g, part[g], sum(terms)))
    return bad


def chk_spmv(p, out, groups):
    rows, cols = p["rows"], p["cols"]
    vals, off, x = Buf(0), Buf(1, "i"), Buf(2)
    y = out[3]

    def start(r):
        return 16 * r + ((r * 7) & 7)
    bad = []
    for r in sample(rows):
        terms = [vals[j] * x[(r + off[j] * 37 + cols) % cols] for j in range(start(r), start(r + 1))]
        if not close(y[r], sum(terms), sum(map(abs, terms))):
            bad.append("row %d: %g, want %g" % (r, y[r], sum(terms)))
    return bad


CHECKS = {
    "row_sum96": lambda p, o, g: chk_rows(p, o, g, "row_sum96"),
    "row_max37": lambda p, o, g: chk_rows(p, o, g, "row_max37"),
    "gemv_row_dot": lambda p, o, g: chk_rows(p, o, g, "gemv_row_dot"),
    "conv5x5_t16x4": lambda p, o, g: chk_conv(p, o, g, "conv5x5_t16x4"),
    "conv3x3_t64x2": lambda p, o, g: chk_conv(p, o, g, "conv3x3_t64x2"),
    "atomic_hot320": chk_hot, "hist_shared_384": chk_hist, "ballot_count_one": chk_ballot,
    "transpose_colread": chk_transpose, "transpose_tile32_pad": chk_transpose,
    "partial_write_v4s64": chk_partial, "sector_read_v2s128": chk_sector,
    "gather_hashed": chk_gather, "tiny_scale": chk_tiny, "softmax_2k": chk_softmax,
    "layernorm_768": chk_layernorm, "gemv_wg_16k": chk_gemv_wg, "gemm_rb8x4": chk_gemm,
    "stencil3d_27": chk_stencil, "scan_sg_block": chk_scan, "reduce_sg_vec4": chk_reduce,
    "spmv_csr_band": chk_spmv,
}
UINT_OUT = {"atomic_hot320", "hist_shared_384", "ballot_count_one", "scan_sg_block"}


def main():
    cw = sys.argv[1] if len(sys.argv) > 1 else "build/clockwork"
    plan_path = sys.argv[2] if len(sys.argv) > 2 else os.path.join(HERE, "plan-cpu.json")
    with open(plan_path) as f:
        plan = json.load(f)
    dump = tempfile.mkdtemp(prefix="blind-verify-")
    subprocess.run([cw, "run", "--samples", "3", "--budget", "0.2", "--format", "json",
                    "-o", os.path.join(dump, "report.json"), "--dump", dump, plan_path],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    failed = 0
    for kern in plan["kernels"]:
        shader = os.path.splitext(os.path.basename(kern["shader"]))[0]
        folder = os.path.join(dump, kern["name"])
        fmt = "I" if shader in UINT_OUT else "f"
        out = {}
        for b in kern["buffers"]:
            path = os.path.join(folder, "binding-0-%d.bin" % b["binding"])
            if os.path.exists(path):
                out[b["binding"]] = load(path, fmt)
        if not out:
            print("%-22s FAIL: no output (the kernel did not run)" % kern["name"])
            failed += 1
            continue
        bad = CHECKS[shader](kern["push"], out, kern["workgroups"])
        print("%-22s %s" % (kern["name"], "ok" if not bad else "FAIL: " + "; ".join(bad[:3])))
        failed += bool(bad)
    print("%d of %d kernels agree with the reference%s"
          % (len(plan["kernels"]) - failed, len(plan["kernels"]),
             " (dump kept in %s)" % dump if failed else ""))
    if not failed:
        shutil.rmtree(dump)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
