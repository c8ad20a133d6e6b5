#!/usr/bin/env python3
"""Writes the accuracy corpus plans from one table: plan.json (sizes for
lavapipe), plan-gpu.json (sizes for a large GPU: >= 50 us on an H200 except
the launch probes) and split.json (the named training and test halves).

    python3 bench/accuracy/gen_plans.py        # rewrites the three files

Each row: name, shader (relative to bench/accuracy), half ("train" or
"test"), then per size ("cpu", "gpu") the workgroups, push constants and
buffers as (binding, elements[, init]).  Init defaults to random.
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
M = 1 << 20


def buf(*spec):
    out = []
    for s in spec:
        b = {"binding": s[0], "elements": s[1]}
        if len(s) > 2:
            b["init"] = s[2]
        out.append(b)
    return out


def stream(shader, n, groups_per=256, push=None, nbuf=2, zero_last=True):
    p = {"n": n}
    p.update(push or {})
    bufs = [(i, n) for i in range(nbuf)]
    if zero_last:
        bufs[-1] = (nbuf - 1, n, "zero")
    return {"shader": shader, "workgroups": [n // groups_per, 1, 1], "push": p,
            "buffers": buf(*bufs)}


def rows_kernel(shader, rows, cols, extra=()):
    return {"shader": shader, "workgroups": [rows, 1, 1], "push": {"cols": cols},
            "buffers": buf((0, rows * cols), (1, rows * cols, "zero"), *extra)}


def fma(shader, groups, iters, elems):
    return {"shader": shader, "workgroups": [groups, 1, 1],
            "push": {"iters": iters, "a": 0.999, "b": 0.001},
            "buffers": buf((0, elems, "zero"))}


def gemv_row(shader, rows, cols):
    return {"shader": shader, "workgroups": [rows // 256, 1, 1],
            "push": {"rows": rows, "cols": cols},
            "buffers": buf((0, rows * cols), (1, cols), (2, rows, "zero"))}


def row_walk(rows, cols):
    return {"shader": "kernels/row_walk.comp", "workgroups": [rows // 256, 1, 1],
            "push": {"rows": rows, "cols": cols},
            "buffers": buf((0, rows * cols), (1, rows, "zero"))}


def gemv_wg(rows, cols):
    return {"shader": "kernels/gemv_wg.comp", "workgroups": [rows, 1, 1],
            "push": {"cols": cols},
            "buffers": buf((0, rows * cols), (1, cols), (2, rows, "zero"))}


def square(shader, n, tile):
    return {"shader": shader, "workgroups": [n // tile, n // tile, 1], "push": {"n": n},
            "buffers": buf((0, n * n), (1, n * n), (2, n * n, "zero"))}


def image(shader, w, h, tile=16):
    return {"shader": shader, "workgroups": [w // tile, h // tile, 1],
            "push": {"w": w, "h": h}, "buffers": buf((0, w * h), (1, w * h, "zero"))}


def transpose(shader, n, tile):
    return {"shader": shader, "workgroups": [n // tile, n // tile, 1], "push": {"n": n},
            "buffers": buf((0, n * n), (1, n * n, "zero"))}


def stencil3d(w, h, d):
    return {"shader": "kernels/stencil3d.comp", "workgroups": [w // 32, h // 4, d // 2],
            "push": {"w": w, "h": h, "d": d},
            "buffers": buf((0, w * h * d), (1, w * h * d, "zero"))}


def grid_stride(shader, n, per, extra_push=None, out_elems=None):
    inv = n // per
    p = {"n": n, "per": per}
    p.update(extra_push or {})
    return {"shader": shader, "workgroups": [inv // 256, 1, 1], "push": p,
            "buffers": buf((0, n), (1, out_elems if out_elems else inv // 256, "zero"))}


def histogram_global(n, bins):
    return {"shader": "kernels/histogram_global.comp", "workgroups": [n // 256, 1, 1],
            "push": {"n": n, "bins": bins}, "buffers": buf((0, n), (1, bins, "zero"))}


def atomic_subgroup(n):
    return {"shader": "kernels/atomic_subgroup.comp", "workgroups": [n // 256, 1, 1],
            "push": {"n": n}, "buffers": buf((0, n), (1, 1, "zero"))}


def spmv(rows, cols):
    return {"shader": "kernels/spmv_csr.comp", "workgroups": [rows // 256, 1, 1],
            "push": {"rows": rows, "cols": cols},
            "buffers": buf((0, rows * 32), (1, cols), (2, rows, "zero"))}


def pitched(w, h, sp, dp):
    return {"shader": "kernels/pitched_copy.comp", "workgroups": [(w + 255) // 256, h, 1],
            "push": {"w": w, "h": h, "spitch": sp, "dpitch": dp},
            "buffers": buf((0, sp * h), (1, dp * h, "zero"))}


def strided(shader, n, stride, src_big):
    big = n * stride
    b = buf((0, big), (1, n, "zero")) if src_big else buf((0, n), (1, big, "zero"))
    return {"shader": shader, "workgroups": [n // 256, 1, 1],
            "push": {"n": n, "stride": stride}, "buffers": b}


def adam(n):
    return {"shader": "kernels/adam.comp", "workgroups": [n // 256, 1, 1],
            "push": {"n": n, "lr": 0.001},
            "buffers": buf((0, n), (1, n), (2, n), (3, n))}


def fixed(shader, groups, elems, push=None, init="zero"):
    k = {"shader": shader, "workgroups": [groups, 1, 1], "buffers": buf((0, elems, init))}
    if push:
        k["push"] = push
    return k


def copy(n, groups=None):
    return {"shader": "kernels/copy.comp", "workgroups": [groups or n // 256, 1, 1],
            "push": {"n": n}, "buffers": buf((0, n), (1, n, "zero"))}


# name, half, what it exercises, cpu size, gpu size
CORPUS = [
    # streams
    ("copy", "train", "memory: 4 B read + 4 B write per invocation",
     copy(4 * M), copy(64 * M)),
    ("copy_half", "test", "half the bytes of copy",
     copy(2 * M), copy(32 * M)),
    ("copy_vec4", "train", "memory with 16-byte accesses",
     stream("kernels/copy_vec4.comp", M), stream("kernels/copy_vec4.comp", 16 * M)),
    ("saxpy", "test", "memory: 8 B read + 4 B write, 2 FLOPs",
     dict(stream("kernels/saxpy.comp", 4 * M, push={"alpha": 2.0}), buffers=buf((0, 4 * M), (1, 4 * M))),
     dict(stream("kernels/saxpy.comp", 64 * M, push={"alpha": 2.0}), buffers=buf((0, 64 * M), (1, 64 * M)))),
    ("gelu", "train", "elementwise GELU: a stream and a tanh per element",
     stream("kernels/gelu.comp", M), stream("kernels/gelu.comp", 64 * M)),
    ("adam", "test", "Adam step: 4 streams read, 3 written, sqrt and divide",
     adam(M), adam(32 * M)),
    ("pitched_copy", "test", "2-D copy with padded row pitches",
     pitched(1000, 1024, 1024, 1008), pitched(3000, 16384, 3072, 3008)),
    # arithmetic
    ("fma8", "train", "FP32: 8 independent FMA chains",
     fma("kernels/fma8.comp", 1024, 128, 65536), fma("kernels/fma8.comp", 65536, 128, 4 * M)),
    ("fma8_x2", "test", "double the FLOPs of fma8",
     fma("kernels/fma8.comp", 1024, 256, 65536), fma("kernels/fma8.comp", 65536, 256, 4 * M)),
    ("fma1", "train", "FP32, one dependent chain",
     fma("kernels/fma1.comp", 1024, 1024, 65536), fma("kernels/fma1.comp", 65536, 1024, 4 * M)),
    ("fma8_f64", "test", "FP64, 8 chains",
     fma("kernels/fma8_f64.comp", 1024, 128, 65536), fma("kernels/fma8_f64.comp", 65536, 128, 4 * M)),
    ("fma8_f16", "train", "FP16, 8 chains",
     fma("kernels/fma8_f16.comp", 1024, 128, 65536), fma("kernels/fma8_f16.comp", 65536, 128, 4 * M)),
    ("fma1_one_group", "test", "latency: one workgroup, one chain",
     fma("kernels/fma1.comp", 1, 4096, 64), fma("kernels/fma1.comp", 1, 16384, 64)),
    # workgroup memory
    ("shared_read", "train", "workgroup memory, conflict-free",
     fixed("kernels/shared_read.comp", 256, 65536, {"iters": 256}),
     fixed("kernels/shared_read.comp", 16384, 4 * M, {"iters": 256})),
    ("shared_conflict", "test", "workgroup memory, 32-way bank conflict",
     fixed("kernels/shared_conflict.comp", 256, 65536, {"iters": 256}),
     fixed("kernels/shared_conflict.comp", 16384, 4 * M, {"iters": 256})),
    # reductions and normalisations
    ("reduce", "train", "tree reduction in workgroup memory, 9 barriers",
     {"shader": "kernels/reduce.comp", "workgroups": [4096, 1, 1], "push": {"n": M},
      "buffers": buf((0, M), (1, 4096, "zero"))},
     {"shader": "kernels/reduce.comp", "workgroups": [262144, 1, 1], "push": {"n": 64 * M},
      "buffers": buf((0, 64 * M), (1, 262144, "zero"))}),
    ("reduce_subgroup", "test", "subgroupAdd reduction, grid stride",
     grid_stride("kernels/reduce_subgroup.comp", M, 16),
     grid_stride("kernels/reduce_subgroup.comp", 64 * M, 16)),
    ("softmax_row", "train", "row-wise softmax, one workgroup per row",
     rows_kernel("kernels/softmax_row.comp", 1024, 1024),
     rows_kernel("kernels/softmax_row.comp", 65536, 1024)),
    ("layernorm", "test", "layer norm, one workgroup per row",
     rows_kernel("kernels/layernorm.comp", 1024, 1024, [(2, 1024), (3, 1024)]),
     rows_kernel("kernels/layernorm.comp", 65536, 1024, [(2, 1024), (3, 1024)])),
    ("rmsnorm", "test", "RMS norm with subgroup reductions",
     rows_kernel("kernels/rmsnorm.comp", 1024, 1024, [(2, 1024)]),
     rows_kernel("kernels/rmsnorm.comp", 65536, 1024, [(2, 1024)])),
    ("scan_block", "train", "block scan in workgroup memory, 8 barriers",
     {"shader": "kernels/scan_block.comp", "workgroups": [4096, 1, 1],
      "buffers": buf((0, M), (1, M, "zero"))},
     {"shader": "kernels/scan_block.comp", "workgroups": [262144, 1, 1],
      "buffers": buf((0, 64 * M), (1, 64 * M, "zero"))}),
    ("scan_subgroup", "test", "scan with subgroupInclusiveAdd",
     {"shader": "kernels/scan_subgroup.comp", "workgroups": [4096, 1, 1],
      "buffers": buf((0, M), (1, M, "zero"))},
     {"shader": "kernels/scan_subgroup.comp", "workgroups": [262144, 1, 1],
      "buffers": buf((0, 64 * M), (1, 64 * M, "zero"))}),
    # atomics
    ("atomic_one", "train", "every invocation adds to one counter",
     fixed("kernels/atomic_one.comp", 1024, 1), fixed("kernels/atomic_one.comp", 65536, 1)),
    ("atomic_spread", "test", "atomics over 4096 addresses",
     fixed("kernels/atomic_spread.comp", 1024, 4096),
     fixed("kernels/atomic_spread.comp", 262144, 4096)),
    ("atomic_subgroup", "train", "one atomic per subgroup on one address",
     atomic_subgroup(M), atomic_subgroup(16 * M)),
    ("histogram_global", "test", "global histogram, 256 hashed bins",
     histogram_global(M, 256), histogram_global(16 * M, 256)),
    ("histogram_shared", "train", "workgroup-memory histogram, 256 hashed bins",
     grid_stride("kernels/histogram_shared.comp", M, 16, out_elems=256),
     grid_stride("kernels/histogram_shared.comp", 64 * M, 64, out_elems=256)),
    # strided and scattered access
    ("transpose", "train", "strided stores (one sector per lane)",
     transpose("kernels/transpose.comp", 1024, 16), transpose("kernels/transpose.comp", 8192, 16)),
    ("transpose_tiled", "test", "transpose through a padded tile",
     transpose("kernels/transpose_tiled.comp", 1024, 32),
     transpose("kernels/transpose_tiled.comp", 8192, 32)),
    ("partial_write", "train", "partial-sector writes: 4 B per 64 B",
     strided("kernels/partial_write.comp", M, 16, False),
     strided("kernels/partial_write.comp", 16 * M, 16, False)),
    ("sector_read", "test", "one sector per lane: 4 B read per 32 B",
     strided("kernels/sector_read.comp", M, 8, True),
     strided("kernels/sector_read.comp", 16 * M, 8, True)),
    ("gather_hash", "train", "gather through a hashed index",
     stream("kernels/gather_hash.comp", M), stream("kernels/gather_hash.comp", 64 * M)),
    ("scatter_hash", "test", "scatter through a hashed index",
     stream("kernels/scatter_hash.comp", M), stream("kernels/scatter_hash.comp", 64 * M)),
    # matrix-vector, sparse, row walks
    ("gemv_row", "train", "matrix-vector, one invocation per row",
     gemv_row("kernels/gemv_row.comp", 4096, 1024), gemv_row("kernels/gemv_row.comp", 65536, 1024)),
    ("row_walk", "test", "per-invocation row walk (lanes a row apart)",
     row_walk(65536, 64), row_walk(M, 64)),
    ("gemv_wg", "test", "matrix-vector, one workgroup per row",
     gemv_wg(1024, 4096), gemv_wg(16384, 4096)),
    ("spmv_csr", "train", "CSR SpMV over a generated structure",
     spmv(32768, 32768), spmv(2 * M, 2 * M)),
    # dense matrix products
    ("matmul_naive", "train", "naive GEMM: reuse through the cache",
     square("kernels/matmul_naive.comp", 128, 16), square("kernels/matmul_naive.comp", 768, 16)),
    ("matmul_tiled", "test", "tiled GEMM, 16 x 16 tiles in workgroup memory",
     square("kernels/matmul_tiled.comp", 128, 16), square("kernels/matmul_tiled.comp", 2048, 16)),
    ("gemm_regblock", "train", "register-blocked GEMM, 64 x 64 blocks, 4 x 4 per invocation",
     square("kernels/gemm_regblock.comp", 256, 64), square("kernels/gemm_regblock.comp", 2048, 64)),
    # stencils and convolutions
    ("stencil", "train", "5-point stencil with boundary branches",
     image("kernels/stencil.comp", 1024, 1024), image("kernels/stencil.comp", 8192, 8192)),
    ("conv3x3_clamp", "test", "3 x 3 convolution, clamped borders",
     image("kernels/conv3x3_clamp.comp", 1024, 1024), image("kernels/conv3x3_clamp.comp", 8192, 8192)),
    ("conv5x5_clamp", "train", "5 x 5 convolution, clamped borders",
     image("kernels/conv5x5_clamp.comp", 1024, 1024), image("kernels/conv5x5_clamp.comp", 8192, 8192)),
    ("stencil3d", "test", "3-D 7-point stencil",
     stencil3d(128, 128, 64), stencil3d(512, 512, 256)),
    # launch probes (exempt from the 50 us floor)
    ("launch_tiny", "train", "launch-bound: 1 workgroup copy",
     copy(64, 1), copy(64, 1)),
    ("launch_empty", "test", "launch-bound: an empty dispatch",
     {"shader": "../gpu/kernels/empty.comp", "workgroups": [1, 1, 1]},
     {"shader": "../gpu/kernels/empty.comp", "workgroups": [1, 1, 1]}),
]


def plan(size):
    ks = []
    for name, half, what, cpu, gpu in CORPUS:
        k = {"name": name}
        k.update(cpu if size == "cpu" else gpu)
        ks.append(k)
    desc = ("Accuracy corpus (%d kernels), sized for %s; generated by "
            "bench/accuracy/gen_plans.py, halves in split.json"
            % (len(ks), "lavapipe" if size == "cpu" else "a large GPU (>= 50 us on an H200 "
               "except the launch probes)"))
    return {"description": desc, "kernels": ks}


def write(name, obj, here=HERE):
    """One kernel a line, so that a diff shows which kernels changed."""
    with open(os.path.join(here, name), "w") as f:
        f.write("{\n")
        f.write(' "description": %s,\n' % json.dumps(obj["description"]))
        f.write(' "kernels": [\n')
        f.write(",\n".join("  " + json.dumps(k) for k in obj["kernels"]))
        f.write("\n ]\n}\n")


def main():
    names = [c[0] for c in CORPUS]
    assert len(set(names)) == len(names)
    write("plan.json", plan("cpu"))
    write("plan-gpu.json", plan("gpu"))
    split = {"description": "The accuracy corpus split in two named halves: "
             "anything fitted is fitted on 'train' only; 'test' is reported "
             "apart (docs/accuracy.md).",
             "train": [c[0] for c in CORPUS if c[1] == "train"],
             "test": [c[0] for c in CORPUS if c[1] == "test"],
             "what": {c[0]: c[2] for c in CORPUS}}
    with open(os.path.join(HERE, "split.json"), "w") as f:
        json.dump(split, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
