#!/usr/bin/env python3
"""Writes blind set 2's plans: plan.json (H200 sizes: >= 50 us by
arithmetic except the launch probes), plan-cpu.json (small sizes, for
lavapipe and verify.py) and split.json (every kernel in 'blind2').

Blind set 2 is written from the shapes of the held-out set named in
issue 12, in code and sizes of its own (none of the corpus's, the
validation set's, the probes' or the first blind set's).  The H200 sizes
come from arithmetic only (bytes moved / ~4 TB/s, FLOPs / ~50 TFLOP/s,
a few G contended atomics a second), never from a prediction; the set is
predicted once by the frozen model (docs/h200/blind2-predicted-before.*)
before it is ever measured, and nothing is tuned on it.

    python3 bench/gpu/blind2/gen.py
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(HERE, ".."))
from heldout import M, div, k, write_set  # noqa: E402  (bench/gpu/heldout.py)


def ceil(a, b):
    return -(-a // b)


def spmv_start(r):
    """Row r's first entry (kernels/spmv_csr_seg32.comp's start())."""
    return 40 * r + (((r * 0x9e3779b1) & 0xffffffff) >> 16) % 24


def row_f16(rows):
    return k("row_f16_sum", [div(rows, 128)], {"rows": rows, "cols": 192, "scale": 0.125},
             (0, rows * 192), (1, rows, "zero"))


def row_u32(rows):
    return k("row_u32_count", [div(rows, 256)], {"rows": rows, "cols": 61, "thresh": 8},
             (0, rows * 61), (1, rows, "zero"))


def gemv_row(rows, cols4):
    return k("gemv_row_vec4", [div(rows, 64)], {"rows": rows, "cols4": cols4},
             (0, rows * cols4), (1, cols4), (2, rows, "zero"))


def sobel(w, h):
    return k("sobel_clamp", [div(w, 32), div(h, 8)], {"w": w, "h": h},
             (0, w * h), (1, w * h, "zero"))


def conv5_rg(w, h):
    return k("conv5x5_rg", [div(w, 16), div(h, 16)], {"w": w, "h": h},
             (0, w * h), (1, w * h, "zero"), (2, 25))


def heat7(w, h, d):
    return k("heat7_zmarch", [div(w, 32), div(h, 8)], {"w": w, "h": h, "d": d, "alpha": 0.1},
             (0, w * h * d), (1, w * h * d, "zero"))


def hot(lanes, per, bins):
    return k("atomic_hot_bins", [div(lanes, 64)], {"lanes": lanes, "per": per, "bins": bins},
             (0, lanes), (1, bins, "zero"))


def hist_smem(n, per):
    return k("hist_smem_float", [div(n, 512 * per)], {"n": n, "per": per, "bins": 200},
             (0, n), (1, 256, "zero"))


def sg_atomic(n, per):
    return k("subgroup_atomic_sum", [div(n, 128 * per)], {"n": n, "per": per, "gain": 16.0},
             (0, n), (1, 1, "zero"))


def transpose_batch(batch, rows, cols):
    return k("transpose_batch_colwrite", [div(cols, 64), div(rows, 4), batch],
             {"rows": rows, "cols": cols},
             (0, batch * rows * cols), (1, batch * rows * cols, "zero"))


def transpose_c64(rows, cols):
    return k("transpose_c64_tile", [div(cols, 32), div(rows, 32)], {"rows": rows, "cols": cols},
             (0, rows * cols), (1, rows * cols, "zero"))


def partial(n):
    return k("partial_body_vel", [div(n, 256)], {"n": n, "dt": 0.01},
             (0, n), (1, n, "zero"))


def sector(n):
    return k("sector_rec192", [div(n, 128)], {"n": n}, (0, n), (1, n, "zero"))


def gather_l2(n, tsize, per):
    return k("gather_mod_table", [div(n, 128)], {"n": n, "tsize": tsize, "per": per},
             (0, tsize), (1, n, "zero"))


def gather_key(n, tsize, per):
    return k("gather_key_vec2", [div(n, 256)],
             {"n": n, "tsize": tsize, "per": per, "step": 1000003},
             (0, n), (1, tsize), (2, n, "zero"))


def tiny_affine():
    return k("tiny_affine", [1], {"n": 20, "a": 1.5, "b": -0.25}, (0, 32), (1, 32, "zero"))


def tiny_rsqrt():
    return k("tiny_rsqrt", [12], {"n": 3000}, (0, 3072), (1, 3072, "zero"))


def softmax(rows):
    return k("softmax_row_sg", [rows], {"cols": 1000},
             (0, rows * 1000), (1, rows * 1000, "zero"))


def rmsnorm(rows):
    return k("add_rmsnorm", [rows], {"cols": 5120, "eps": 1e-6},
             (0, rows * 5120), (1, rows * 5120), (2, 5120), (3, rows * 5120, "zero"))


def gemv_wg(rows, cols4):
    return k("gemv_wg_vec4", [rows], {"cols4": cols4, "alpha": 0.5},
             (0, rows * cols4), (1, cols4), (2, rows, "zero"))


def gemm16(m, n, kk):
    return k("gemm_tile16_ab", [div(n, 16), div(m, 16)],
             {"m": m, "n": n, "k": div(kk, 16) * 16, "alpha": 0.75, "beta": -0.5},
             (0, m * kk), (1, kk * n), (2, m * n), (3, m * n, "zero"))


def gemm_rb(m, n, kk):
    assert kk % 16 == 0
    return k("gemm_rb4x4_64", [div(n, 64), div(m, 64)], {"m": m, "n": n, "k": kk},
             (0, m * kk), (1, div(kk * n, 4)), (2, div(m * n, 4), "zero"))


def scan(n):
    g = div(n, 512)
    return k("scan_blelloch512", [g], {}, (0, n), (1, n, "zero"), (2, g, "zero"))


def minmax(n2, groups):
    return k("minmax_subgroup", [groups], {"n2": n2}, (0, n2), (1, groups, "zero"))


def spmv(rows, cols):
    nnz = spmv_start(rows)
    return k("spmv_csr_seg32", [div(rows, 8)], {"rows": rows, "cols": cols},
             (0, nnz), (1, nnz), (2, cols), (3, rows, "zero"))


def pitched(w, h, spitch, dpitch, ox, oy):
    return k("pitched_copy_v4", [ceil(w, 64), div(h, 4)],
             {"w": w, "h": h, "spitch": spitch, "dpitch": dpitch, "ox": ox, "oy": oy},
             (0, spitch * (h + oy)), (1, dpitch * h, "zero"))


# name, what, cpu size, gpu size
SET = [
    ("b2_row_f16_192", "a lane sums its own row of 192 half floats (fp32 accumulator), 128 lanes",
     row_f16(8192), row_f16(M)),
    ("b2_row_u32_61", "a lane sums and counts its own row of 61 uints (rows not line aligned)",
     row_u32(16384), row_u32(3 * M // 2)),
    ("b2_gemv_row_v4", "matrix-vector by row: a lane walks its row of 384 floats as vec4 against x",
     gemv_row(4096, 96), gemv_row(M // 4, 96)),
    ("b2_sobel_clamp", "Sobel gradient magnitude, clamped borders, 8192 x 6144, 32 x 8 groups",
     sobel(512, 256), sobel(8192, 6144)),
    ("b2_conv5x5_rg", "5 x 5 convolution of a two-channel (vec2) image, weights from a buffer, clamped",
     conv5_rg(256, 128), conv5_rg(4096, 6144)),
    ("b2_heat7_zmarch", "3-D 7-point heat step 512 x 512 x 160, a lane marches its column in z",
     heat7(64, 64, 16), heat7(512, 512, 160)),
    ("b2_atomic_hot256", "3 Mi global atomicAdds (8 a lane) on 256 hashed counters",
     hot(32768, 8, 256), hot(3 * M // 8, 8, 256)),
    ("b2_hist_smem_200", "workgroup-memory histogram of float bits over 200 hashed bins, 512 lanes",
     hist_smem(M // 2, 16), hist_smem(64 * M, 16)),
    ("b2_subgroup_atomic", "subgroupAdd, then one atomicAdd per subgroup on one total",
     sg_atomic(M, 4), sg_atomic(48 * M, 6)),
    ("b2_transpose_batch", "naive batched transpose 12 x 1024 x 4096: row reads, column writes",
     transpose_batch(3, 128, 320), transpose_batch(12, 1024, 4096)),
    ("b2_transpose_c64", "transpose of complex (vec2) 4096 x 6144 through an unpadded 32 x 32 tile",
     transpose_c64(256, 384), transpose_c64(4096, 6144)),
    ("b2_partial_vel8", "partial-sector writes: 8 B (velocity.xy) at byte 16 of 48-B records",
     partial(65536), partial(8 * M)),
    ("b2_sector_rec192", "one sector per lane: 32 B (two vec4) read from each 192-B record",
     sector(32768), sector(6 * M)),
    ("b2_gather_l2", "8 hashed gathers a lane (index mod 5 Mi) from a 20 MiB table (fits the L2)",
     gather_l2(32768, 5 * M // 16, 8), gather_l2(4 * M, 5 * M, 8)),
    ("b2_gather_dram", "2 gathers a lane at a hash of a key buffer from a 192 MiB vec2 table",
     gather_key(32768, 3 * M // 8, 2), gather_key(8 * M, 24 * M, 2)),
    ("b2_tiny_wg32", "launch probe: one workgroup of 32, a x + b on 20 floats",
     tiny_affine(), tiny_affine()),
    ("b2_tiny_12x256", "launch probe: 12 workgroups of 256, inversesqrt of 3000 floats",
     tiny_rsqrt(), tiny_rsqrt()),
    ("b2_softmax_1000", "softmax over rows of 1000, 128 lanes, subgroup then shared reductions",
     softmax(256), softmax(49152)),
    ("b2_add_rmsnorm_5120", "residual add + RMS norm over rows of 5120, 512 lanes, shared tree",
     rmsnorm(64), rmsnorm(6144)),
    ("b2_gemv_wg_3072", "matrix-vector by workgroup: 96 lanes a row of 3072, vec4, subgroupAdd",
     gemv_wg(256, 768), gemv_wg(32768, 768)),
    ("b2_gemm_tile16", "tiled GEMM D = 0.75 A B - 0.5 C, 1536 x 2048 x 1024, 16 x 16 tiles",
     gemm16(128, 96, 64), gemm16(1536, 2048, 1024)),
    ("b2_gemm_rb4x4", "register-blocked GEMM 2048 x 2048 x 1024, 64 x 64 blocks, 4 x 4 a lane",
     gemm_rb(128, 192, 80), gemm_rb(2048, 2048, 1024)),
    ("b2_scan_blelloch", "Blelloch exclusive scan, 512 uints a workgroup of 256, block totals",
     scan(131072), scan(48 * M)),
    ("b2_minmax_sg", "min and max of 96 Mi floats: vec2 grid-stride loads, subgroupMin/Max",
     minmax(262144, 64), minmax(48 * M, 2048)),
    ("b2_spmv_seg32", "CSR SpMV, 32 lanes a row, generated rows of 17..63 entries, x of 8 MiB",
     spmv(2048, 65536), spmv(M, 2 * M)),
    ("b2_pitched_v4", "pitched copy of a 1000 x 12288 vec4 rectangle, pitches 1024 and 1008",
     pitched(200, 256, 256, 208, 12, 8), pitched(1000, 12288, 1024, 1008, 12, 8)),
]


def main():
    write_set(HERE, SET, "blind2", "Blind set 2", " of the held-out shapes, predicted before "
              "they are ever measured, never used to tune anything", "b2_tiny_*")


if __name__ == "__main__":
    main()
