#!/usr/bin/env python3
"""Writes blind set 3's plans: plan.json (H200 sizes: >= 50 us by
arithmetic except the launch probes), plan-cpu.json (small sizes, for
lavapipe and verify.py), split.json (every kernel in 'blind3') and
perm4096.bin (the permutation the plan-given gather reads).

Blind set 3 is written from the shapes of the held-out set named in
issue 12, in code and sizes of its own (none of the corpus's, the
validation set's, the probes' or the two earlier blind sets').  The H200
sizes come from arithmetic only (bytes moved / ~4 TB/s, FLOPs / ~50
TFLOP/s, a few G contended atomics a second), never from a prediction;
the set is predicted once by the frozen model
(docs/h200/blind3-predicted-before.*) before it is ever measured, and
nothing is tuned on it.

    python3 bench/gpu/blind3/gen.py
"""
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(HERE, ".."))
from heldout import M, div, k, write_set  # noqa: E402  (bench/gpu/heldout.py)

PERM_FILE = "perm4096.bin"


def ceil(a, b):
    return -(-a // b)


def perm4096():
    """A fixed permutation of 0..4095 (Fisher-Yates driven by a 32-bit LCG)."""
    p, s = list(range(4096)), 12345
    for i in range(4095, 0, -1):
        s = (s * 1664525 + 1013904223) & 0xffffffff
        j = s % (i + 1)
        p[i], p[j] = p[j], p[i]
    return p


def spmv_offsets():
    """Row starts within a block of 64 rows (65 entries, the last the
    block's entries): lengths 2 + 140 u^3, u spread over [0, 1]: 2 to 142,
    most rows short."""
    lens = [2 + int(140 * (((i * 37) % 64) / 63.0) ** 3) for i in range(64)]
    offs = [0]
    for n in lens:
        offs.append(offs[-1] + n)
    return offs


def gauss_weights():
    """5 x 5 weights: the outer product of (1 4 6 4 1) and (1 3 5 3 1), / 208."""
    return [a * b / 208.0 for a in (1, 3, 5, 3, 1) for b in (1, 4, 6, 4, 1)]


def row_i16(rows):
    return k("row_i16_var", [div(rows, 64)], {"rows": rows, "pitch": 160, "minlen": 96},
             (0, rows * 160), (1, rows, "zero"))


def gemv_row(rows, cols2):
    return k("gemv_row_h2", [div(rows, 128)], {"rows": rows, "cols2": cols2},
             (0, rows * cols2), (1, cols2), (2, rows), (3, rows, "zero"))


def box3(wq, h):
    return k("box3_u8", [div(wq, 16), div(h, 16)], {"wq": wq, "h": h},
             (0, wq * h, "ramp"), (1, wq * h, "zero"))


def gauss5(w, h):
    return k("gauss5_tile_f16", [div(w, 32), div(h, 8)], {"w": w, "h": h},
             (0, w * h), (1, w * h, "zero"), (2, 25, gauss_weights()))


def diff7(nx, ny, nz):
    return k("diff7_kappa_wg3d", [div(nx, 8), div(ny, 8), div(nz, 4)],
             {"nx": nx, "ny": ny, "nz": nz, "dt": 0.1},
             (0, nx * ny * nz), (1, nx * ny * nz), (2, nx * ny * nz, "zero"))


def hot(lanes):
    return k("atomic_hot384", [div(lanes, 128)], {"lanes": lanes, "bins": 384},
             (0, lanes), (1, 384, "zero"))


def seg_sum(n, per, segs):
    return k("seg_sum_sg", [div(n, 256 * per)], {"n": n, "per": per, "segs": segs},
             (0, n), (1, segs, "zero"))


def hist(n, per):
    return k("hist_smem_1k", [div(n, 256 * per)], {"n": n, "per": per, "bins": 1000},
             (0, n), (1, 1000, "zero"))


def compact(n8, cap):
    return k("compact_sg", [div(n8, 128)], {"n8": n8, "cap": cap, "thresh": 0.5},
             (0, 2 * n8), (1, 1, "zero"), (2, cap, "zero"))


def transpose_t64(rows, cols):
    return k("transpose_i16_t64", [div(cols, 64), div(rows, 64)], {"rows": rows, "cols": cols},
             (0, rows * cols), (1, rows * cols, "zero"))


def transpose_naive(rows, cols):
    return k("transpose_naive_8x32", [div(cols, 8), div(rows, 32)], {"rows": rows, "cols": cols},
             (0, rows * cols), (1, rows * cols, "zero"))


def aos_tag(n):
    return k("aos_tag_write", [div(n, 256)], {"n": n, "cells": 64}, (0, n))


def sector(n):
    return k("sector_rec144", [div(n, 128)], {"n": n}, (0, n), (1, n, "zero"))


def gather_lane(n, tsize, per, tbuf):
    return k("gather_l2_lane_f16", [div(n, 256)], {"n": n, "tsize": tsize, "per": per},
             (0, tbuf), (1, n, "zero"))


def gather_key(n, tsize, per):
    return k("gather_l2_key", [div(n, 128)], {"n": n, "tsize": tsize, "per": per},
             (0, n), (1, tsize), (2, n, "zero"))


def gather_dram(n, tsize):
    return k("gather_dram_key_v4", [div(n, 256)], {"n": n, "tsize": tsize},
             (0, n), (1, tsize), (2, n, "zero"))


def gather_perm(gx, gy):
    n = gx * gy * 256
    return k("gather_perm_file", [gx, gy], {"n": n, "scale": 1.25},
             (0, n), (1, 4096, {"file": PERM_FILE}), (2, n, "zero"))


def tiny_one():
    return k("tiny_one_group", [1], {"n": 40}, (0, 64), (1, 64, "zero"))


def tiny_3d():
    return k("tiny_grid3d", [2, 2, 2], {}, (0, 512), (1, 512, "zero"))


def softmax(rows, cols):
    return k("softmax_f16_online", [rows], {"cols": cols},
             (0, rows * cols), (1, rows * cols, "zero"))


def layernorm(rows):
    return k("layernorm_rows4", [ceil(rows, 4)], {"rows": rows, "cols4": 384, "eps": 1e-5},
             (0, rows * 384), (1, rows * 384, "zero"), (2, 384), (3, 384))


def gemv_wg(rows, cols4):
    return k("gemv_wg_q16", [ceil(rows, 4)], {"rows": rows, "cols4": cols4},
             (0, rows * cols4), (1, cols4), (2, rows), (3, rows, "zero"))


def gemm_nt(m, n, kk):
    return k("gemm_nt_f16", [div(n, 32), div(m, 16)], {"m": m, "n": n, "k": div(kk, 16) * 16},
             (0, m * kk), (1, n * kk), (2, m * n, "zero"))


def gemm_rb(m, n, kk):
    return k("gemm_rb8x8", [div(n, 128), div(m, 128)],
             {"m": m, "n": n, "k": div(kk, 8) * 8, "alpha": 0.5},
             (0, m * kk), (1, kk * n), (2, m * n, "zero"))


def scan(n):
    g = div(n, 1024)
    return k("scan_i16_coarse", [g], {}, (0, div(n, 4)), (1, n, "zero"), (2, g, "zero"))


def spmv(rows, ncols):
    offs = spmv_offsets()
    nnz = (rows // 64) * offs[64] + offs[rows % 64]
    return k("spmv_csr_4lane", [div(4 * rows, 64)], {"rows": rows, "ncols": ncols},
             (0, nnz), (1, nnz), (2, ncols), (3, 65, offs), (4, rows, "zero"))


def box_copy(src, box, dst, org):
    (sw, sh, sd), (bw, bh, bd), (dp, dh), (ox, oy, oz) = src, box, dst, org
    assert ox + bw <= sw and oy + bh <= sh and oz + bd <= sd and bw <= dp and bh <= dh
    return k("pitched_box3d", [ceil(bw, 32), div(bh, 4), div(bd, 2)],
             {"bw": bw, "bh": bh, "bd": bd, "spitch": sw, "sslice": sw * sh,
              "dpitch": dp, "dslice": dp * dh, "ox": ox, "oy": oy, "oz": oz},
             (0, sw * sh * sd), (1, dp * dh * bd, "zero"))


# name, what, cpu size, gpu size
SET = [
    ("b3_row_i16_var", "a lane walks its own int16 row (320-B pitch) for a hashed length of 96..159",
     row_i16(8192), row_i16(3 * M // 2)),
    ("b3_gemv_row_h2", "matrix-vector by row, half-float matrix read as f16vec2, rows of 640 B, + bias",
     gemv_row(4096, 160), gemv_row(640 * 1024, 160)),
    ("b3_box3_u8", "3 x 3 box filter of an 8-bit image packed 4 pixels a uint, clamped, 16 x 16 groups",
     box3(128, 256), box3(4096, 12288)),
    ("b3_gauss5_tile_f16", "5 x 5 convolution of a half image via a padded shared tile, weights from the plan",
     gauss5(512, 192), gauss5(8192, 12288)),
    ("b3_diff7_kappa_wg3d", "3-D variable-coefficient diffusion step (half conductivity), clamped, 8 x 8 x 4",
     diff7(64, 48, 32), diff7(448, 384, 256)),
    ("b3_atomic_hot384", "2..5 global atomicAdds a lane on 384 counters hashed from lane and key",
     hot(32768), hot(M // 2)),
    ("b3_seg_sum_sg", "int16 sums: subgroupAdd, one atomicAdd per subgroup into 3000 segment totals",
     seg_sum(M, 16, 96), seg_sum(128 * M, 16, 3000)),
    ("b3_hist_smem_1k", "workgroup-memory histogram over 1000 bins hashed from bits and index, 64 x 4",
     hist(256 * 1024, 8), hist(64 * M, 16)),
    ("b3_compact_sg", "stream compaction: ballot counts, one atomicAdd per subgroup on one counter",
     compact(32768, 65536), compact(6 * M, 16 * M)),
    ("b3_transpose_i16_t64", "int16 transpose 8192 x 12288 via a padded 64 x 64 tile, 4 x 4 a lane",
     transpose_t64(256, 384), transpose_t64(8192, 12288)),
    ("b3_transpose_naive_8x32", "naive float transpose 6144 x 8192 with tall 8 x 32 workgroups",
     transpose_naive(256, 320), transpose_naive(6144, 8192)),
    ("b3_aos_tag_write", "partial-sector write: 4-B tag at byte 28 of 32-B particle structs, reads 16 B",
     aos_tag(65536), aos_tag(8 * M)),
    ("b3_sector_rec144", "one sector per lane: the 8-B key of each 144-B record",
     sector(32768), sector(7 * M)),
    ("b3_gather_l2_lane_f16", "16 gathers a lane from a 16-MiB half table (in L2), index hashed from the lane",
     gather_lane(16384, 65531, 16, 65536), gather_lane(2 * M, 8 * M - 5, 16, 8 * M)),
    ("b3_gather_l2_key", "8 chained gathers a lane from a 12-MiB table (in L2), hashed from a key's bits",
     gather_key(32768, 100003, 8), gather_key(4 * M, 3 * M, 8)),
    ("b3_gather_dram_key_v4", "2 vec4 gathers a lane from a 512-MiB table, hashed from a key's bits",
     gather_dram(32768, 262139), gather_dram(4 * M, 32 * M)),
    ("b3_gather_perm_file", "gather through a plan-given permutation of 4096 (a file), 128-MiB source",
     gather_perm(64, 4), gather_perm(8192, 16)),
    ("b3_tiny_one_group", "launch probe: one workgroup of 64, x * x - 0.5 on 40 floats",
     tiny_one(), tiny_one()),
    ("b3_tiny_grid3d", "launch probe: a 2 x 2 x 2 grid of 4 x 4 x 4 workgroups",
     tiny_3d(), tiny_3d()),
    ("b3_softmax_f16_online", "online softmax over half rows of 4096, 256 lanes, shared (max, sum) tree",
     softmax(48, 4096), softmax(24576, 4096)),
    ("b3_layernorm_rows4", "layer norm, 32 x 4 groups (a row of 1536 a y), registers, shared trees",
     layernorm(62), layernorm(32766)),
    ("b3_gemv_wg_q16", "matrix-vector by workgroup, int16 weights + row scale, 64 lanes a row of 4096, 4 rows",
     gemv_wg(254, 1024), gemv_wg(48 * 1024, 1024)),
    ("b3_gemm_nt_f16", "tiled GEMM C = A B^T, half inputs, fp32 out, 2048 x 1536 x 1536, 16 x 32 tiles",
     gemm_nt(64, 96, 48), gemm_nt(2048, 1536, 1536)),
    ("b3_gemm_rb8x8", "register-blocked GEMM 3072 x 2048 x 768, 128 x 128 blocks, 8 x 8 a lane",
     gemm_rb(128, 256, 24), gemm_rb(3072, 2048, 768)),
    ("b3_scan_i16_coarse", "inclusive scan of int16 into int32, 16 a lane, 64 lanes, shared Kogge-Stone",
     scan(128 * 1024), scan(48 * M)),
    ("b3_spmv_csr_4lane", "CSR SpMV, 4 lanes a row, row lengths 2..100 from a plan-given table",
     spmv(4096, 65536), spmv(960 * 1024, 2 * M)),
    ("b3_pitched_box3d", "copy a 1000 x 480 x 120 box out of a pitched volume, 32 x 4 x 2 groups",
     box_copy((160, 64, 24), (150, 60, 20), (152, 60), (3, 2, 2)),
     box_copy((1024, 512, 160), (1000, 480, 120), (1008, 480), (7, 16, 20))),
]


def main():
    with open(os.path.join(HERE, PERM_FILE), "wb") as f:
        f.write(struct.pack("<4096I", *perm4096()))
    write_set(HERE, SET, "blind3", "Blind set 3", " of the held-out shapes, predicted before "
              "they are ever measured, never used to tune anything", "b3_tiny_*")


if __name__ == "__main__":
    main()
