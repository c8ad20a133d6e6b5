#!/usr/bin/env python3
"""Writes the blind set's plans: plan.json (H200 sizes: >= 50 us except the
launch probes) and plan-cpu.json (small sizes, for a dry run of
bench/gpu/h200.sh on lavapipe), and split.json (every kernel in 'blind').

The blind set was written from the shapes of the held-out set named in
issue 12 (row walks, clamped convolutions, contended atomics, transposes,
partial-sector writes, one sector per lane, hashed gathers, tiny
dispatches, softmax / norm / GEMV / GEMM / stencil / scan / reduction /
SpMV), in code and sizes of its own (none of the corpus's or the
validation set's).  It is predicted once with the frozen model
(docs/h200/blind-predicted-before.csv) before it is ever measured, and
nothing is tuned on it.

    python3 bench/gpu/blind/gen.py
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(HERE, ".."))
from heldout import M, div, k, write_set  # noqa: E402  (bench/gpu/heldout.py)


def row_sum96(rows):
    return k("row_sum96", [div(rows, 64)], {"rows": rows, "cols": 96},
             (0, rows * 96), (1, rows, "zero"))


def row_max37(rows):
    return k("row_max37", [div(rows, 256)], {"rows": rows, "cols": 37},
             (0, rows * 37), (1, rows, "zero"))


def gemv_row(rows, cols):
    return k("gemv_row_dot", [div(rows, 128)], {"rows": rows, "cols": cols},
             (0, rows * cols), (1, cols), (2, rows, "zero"))


def conv5(w, h):
    return k("conv5x5_t16x4", [div(w, 16), div(h, 4)], {"w": w, "h": h},
             (0, w * h), (1, w * h, "zero"))


def conv3(w, h):
    return k("conv3x3_t64x2", [div(w, 64), div(h, 2)], {"w": w, "h": h},
             (0, w * h), (1, w * h, "zero"), (2, 9))


def hot(n, bins, per):
    return k("atomic_hot320", [div(n, per * 128)], {"n": n, "bins": bins, "per": per},
             (0, n), (1, bins, "zero"))


def hist384(n, per):
    return k("hist_shared_384", [div(n, per * 256)], {"n": n, "per": per},
             (0, n), (1, 384, "zero"))


def ballot(n, per):
    return k("ballot_count_one", [div(n, per * 256)], {"n": n, "per": per, "threshold": 0.25},
             (0, n), (1, 1, "zero"))


def transpose_col(rows, cols):
    return k("transpose_colread", [div(rows, 8), div(cols, 32)], {"rows": rows, "cols": cols},
             (0, rows * cols), (1, rows * cols, "zero"))


def transpose32(rows, cols):
    return k("transpose_tile32_pad", [div(cols, 32), div(rows, 32)],
             {"rows": rows, "cols": cols}, (0, rows * cols), (1, rows * cols, "zero"))


def partial16(n):
    return k("partial_write_v4s64", [div(n, 256)], {"n": n}, (0, n), (1, 4 * n, "zero"))


def sector8(lines, per):
    return k("sector_read_v2s128", [div(lines, per * 128)], {"lines": lines, "per": per},
             (0, 16 * lines), (1, div(lines, per), "zero"))


def gather(n, tsize, per):
    return k("gather_hashed", [div(n, 256)], {"n": n, "tsize": tsize, "per": per},
             (0, tsize), (1, n, "zero"))


def tiny(groups):
    return k("tiny_scale", [groups], {"n": groups * 64, "s": 0.5}, (0, groups * 64, "ramp"))


def softmax(rows):
    return k("softmax_2k", [rows], {"cols": 2048}, (0, rows * 2048), (1, rows * 2048, "zero"))


def layernorm(rows):
    return k("layernorm_768", [rows], {"cols": 768, "eps": 1e-5},
             (0, rows * 768), (1, rows * 768, "zero"), (2, 768), (3, 768))


def gemv_wg(rows, cols):
    return k("gemv_wg_16k", [rows], {"cols": cols},
             (0, rows * cols), (1, cols), (2, rows, "zero"))


def gemm(m, n, kk):
    return k("gemm_rb8x4", [div(n, 64), div(m, 128)], {"m": m, "n": n, "k": kk},
             (0, m * kk), (1, kk * n), (2, m * n, "zero"))


def stencil27(w, h, d):
    return k("stencil3d_27", [div(w, 32), div(h, 4), div(d, 2)], {"w": w, "h": h, "d": d},
             (0, w * h * d), (1, w * h * d, "zero"))


def scan(n):
    return k("scan_sg_block", [div(n, 1024)], {}, (0, n), (1, n, "zero"),
             (2, div(n, 1024), "zero"))


def reduce4(n4, per):
    g = div(n4, per * 512)
    return k("reduce_sg_vec4", [g], {"n4": n4, "per": per}, (0, n4), (1, g, "zero"))


def spmv(rows):
    nnz = 16 * rows + 16
    return k("spmv_csr_band", [div(rows, 64)], {"rows": rows, "cols": rows},
             (0, nnz), (1, nnz), (2, rows), (3, rows, "zero"))


# name, what, cpu size, gpu size
SET = [
    ("b_row_sum96", "a lane sums its own row of 96 floats (3 lines), 64 lanes", row_sum96(16384), row_sum96(M)),
    ("b_row_max37", "a lane takes the max and argmax of its own row of 37 floats", row_max37(32768), row_max37(3 * M)),
    ("b_gemv_row_1000", "matrix-vector by row: a lane walks its row of 1000 floats against x", gemv_row(2048, 1000), gemv_row(131072, 1000)),
    ("b_conv5x5_16x4", "5 x 5 binomial convolution, clamped borders, 16 x 4 groups", conv5(512, 256), conv5(8192, 6144)),
    ("b_conv3x3_64x2", "3 x 3 convolution, weights from a buffer, clamped, 64 x 2 groups", conv3(512, 256), conv3(8192, 7168)),
    ("b_atomic_hot320", "4 Mi global atomicAdds on 320 hashed counters", hot(M // 4, 320, 8), hot(4 * M, 320, 8)),
    ("b_hist_shared_384", "workgroup-memory histogram over 384 hashed bins, 256 lanes", hist384(M, 16), hist384(64 * M, 32)),
    ("b_ballot_count", "one atomicAdd per subgroup on one counter (ballot bit count)", ballot(M, 4), ballot(64 * M, 16)),
    ("b_transpose_colread", "naive transpose 5120 x 6144, coalesced stores, column reads", transpose_col(512, 768), transpose_col(5120, 6144)),
    ("b_transpose_tile32", "transpose through a padded 32 x 33 tile, 6144 x 10240", transpose32(512, 768), transpose32(6144, 10240)),
    ("b_partial_write16", "partial-sector writes: a vec4 at the start of each 64-B record", partial16(M // 4), partial16(8 * M)),
    ("b_sector_read8", "one sector per lane: 8 B read per 128-B line", sector8(M // 4, 2), sector8(12 * M, 4)),
    ("b_gather_l2", "8 hashed gathers a lane from a 16 MiB table (fits the L2)", gather(M // 4, M, 8), gather(16 * M, 4 * M, 8)),
    ("b_gather_dram", "2 hashed gathers a lane from a 256 MiB table (beyond the L2)", gather(M // 4, 4 * M, 2), gather(16 * M, 64 * M, 2)),
    ("b_tiny_1", "launch probe: one workgroup of 64 scales 256 B", tiny(1), tiny(1)),
    ("b_tiny_24", "launch probe: 24 workgroups of 64 scale 6 KiB", tiny(24), tiny(24)),
    ("b_softmax_2k", "softmax over rows of 2048, 256 lanes, shared-memory tree reductions", softmax(256), softmax(32768)),
    ("b_layernorm_768", "layer norm over rows of 768, subgroupAdd of sum and squares", layernorm(512), layernorm(65536)),
    ("b_gemv_wg_16k", "matrix-vector by workgroup, rows of 16384, shared tree reduction", gemv_wg(128, 16384), gemv_wg(6144, 16384)),
    ("b_gemm_rb8x4", "register-blocked GEMM 2048 x 3072 x 1024, 128 x 64 blocks, 8 x 4 a lane", gemm(256, 256, 128), gemm(2048, 3072, 1024)),
    ("b_stencil3d_27", "3-D 27-point stencil, 32 x 4 x 2 groups", stencil27(64, 64, 32), stencil27(384, 256, 256)),
    ("b_scan_block1k", "block inclusive scan, 1024 per workgroup, subgroupInclusiveAdd", scan(M), scan(64 * M)),
    ("b_reduce_sg_vec4", "sum reduction: vec4 loads, subgroupAdd, one partial per workgroup", reduce4(M // 4, 4), reduce4(16 * M, 8)),
    ("b_spmv_band", "CSR SpMV, banded structure, 9..23 entries a row, offsets from a buffer", spmv(16384), spmv(2 * M)),
]


def main():
    write_set(HERE, SET, "blind", "Blind set", " of the held-out shapes, predicted before "
              "they are ever measured, never used to tune anything", "b_tiny_*")


if __name__ == "__main__":
    main()
