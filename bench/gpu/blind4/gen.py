#!/usr/bin/env python3
"""Writes blind set 4's plans: plan.json (H200 sizes: >= 50 us by
arithmetic except the two launch probes), plan-cpu.json (small sizes, for
lavapipe and verify.py) and split.json (every kernel in 'blind4').

Blind set 4 is written from the shapes of the held-out set named in
issue 12, in code and sizes of its own (none of the corpus's, the
validation set's, the probes' or the three earlier blind sets').  The
H200 sizes come from arithmetic on the public H200 figures only (bytes
moved / ~4.8 TB/s of HBM3e, 50 MiB of L2, FLOPs / the FP32 rate of 132
SMs at 1.98 GHz, a few G contended atomics a second), never from a
prediction; the set is predicted once by the frozen model before it is
ever measured, and nothing is tuned on it.

    python3 bench/gpu/blind4/gen.py
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(HERE, ".."))
from heldout import M, ceil, div, k, write_set  # noqa: E402  (bench/gpu/heldout.py)


def spmv_offsets():
    """Row starts within a block of 128 rows (129 entries, the last the
    block's entries): lengths 4 + 196 u^4, u spread over [0, 1]: 4 to 200,
    most rows short (mean ~43)."""
    lens = [4 + int(196 * (((i * 53) % 128) / 127.0) ** 4) for i in range(128)]
    offs = [0]
    for n in lens:
        offs.append(offs[-1] + n)
    return offs


def row_f64(rows):
    return k("row_f64_abs", [ceil(rows, 96)], {"rows": rows, "len": 90, "pitch": 96},
             (0, rows * 96), (1, 2 * rows, "zero"))


def conv7(w, h):
    return k("conv7_f32", [div(w, 32), div(h, 4)], {"w": w, "h": h},
             (0, w * h), (1, w * h, "zero"), (2, 49))


def conv3(w, h):
    return k("conv3_v4", [div(w, 8), div(h, 8)], {"w": w, "h": h},
             (0, w * h), (1, w * h, "zero"))


def atomic_key(n):
    return k("atomic_key2500", [div(n, 256)], {"n": n, "bins": 2500},
             (0, n), (1, 2500, "zero"))


def hist509(n, groups):
    return k("hist_smem_509", [groups], {"n": n}, (0, n), (1, 509, "zero"))


def sg_sum(n4, per):
    return k("sg_sum_one", [div(n4, 128 * per)], {"n4": n4, "per": per},
             (0, n4), (1, 1, "zero"))


def transpose_t32(rows, cols):
    return k("transpose_v2_t32", [ceil(cols, 32), ceil(rows, 32)], {"rows": rows, "cols": cols},
             (0, rows * cols), (1, rows * cols, "zero"))


def transpose_naive(rows, cols):
    return k("transpose_naive_u32", [div(cols, 16), div(rows, 16)], {"rows": rows, "cols": cols},
             (0, rows * cols), (1, rows * cols, "zero"))


def partial6(n):
    return k("partial_stride6", [div(n, 192)], {"n": n}, (0, n), (1, 6 * n, "zero"))


def sector_col(n):
    return k("sector_col_v4", [div(n, 128)], {"n": n, "recv4": 10},
             (0, 10 * n), (1, n, "zero"))


def gather_hash(n, tsize):
    assert tsize & (tsize - 1) == 0
    return k("gather_hash_v2", [div(n, 128)], {"n": n, "mask": tsize - 1},
             (0, tsize), (1, n, "zero"))


def gather_idx(n, shift):
    return k("gather_idx_l2", [div(n, 256)], {"n": n, "shift": shift, "smask": (1 << shift) - 1},
             (0, n), (1, 16 << shift), (2, n, "zero"))


def tiny_one():
    return k("tiny_one_poly", [1], {"n": 100}, (0, 128), (1, 128, "zero"))


def tiny_handful():
    return k("tiny_handful", [3, 2], {"w": 24}, (0, 192), (1, 192, "zero"))


def softmax(rows, cols):
    assert cols % 32 == 0 and cols <= 1024
    return k("softmax_sg_rows", [ceil(rows, 4)], {"rows": rows, "cols": cols},
             (0, rows * cols), (1, rows * cols, "zero"))


def rmsnorm(rows, cols4):
    assert cols4 <= 4 * 320
    return k("rmsnorm_f16", [rows], {"cols4": cols4, "eps": 1e-5},
             (0, rows * cols4), (1, rows * cols4, "zero"), (2, cols4))


def gemv_row(rows, cols4):
    return k("gemv_row_i8", [div(rows, 32)], {"rows": rows, "cols4": cols4},
             (0, rows * cols4), (1, cols4), (2, rows), (3, rows, "zero"))


def gemv_wg(rows, cols4):
    return k("gemv_wg_tree", [rows], {"cols4": cols4},
             (0, rows * cols4), (1, cols4), (2, rows, "zero"))


def gemm_tile(m, n, kk):
    return k("gemm_tile16", [ceil(n, 16), ceil(m, 16)], {"m": m, "n": n, "k": div(kk, 16) * 16},
             (0, m * kk), (1, kk * n), (2, m * n, "zero"))


def gemm_rb(m, n, kk):
    return k("gemm_rb4x8", [div(n, 128), div(m, 64)], {"m": m, "n": n, "k": div(kk, 16) * 16},
             (0, m * kk), (1, kk * n), (2, m * n, "zero"), (3, n))


def stencil(nx, ny, nz):
    return k("stencil3d_13", [div(nx, 64), div(ny, 2), div(nz, 2)], {"nx": nx, "ny": ny, "nz": nz},
             (0, nx * ny * nz), (1, nx * ny * nz, "zero"))


def scan(groups):
    return k("scan_excl_u4", [groups], {}, (0, 512 * groups), (1, 512 * groups, "zero"),
             (2, groups, "zero"))


def reduce(n4, groups):
    return k("reduce_sg_sum_max", [groups], {"n4": n4}, (0, n4), (1, groups, "zero"))


def spmv(rows):
    offs = spmv_offsets()
    nnz = (rows // 128) * offs[128] + offs[rows % 128]
    return k("spmv_csr_8lane", [div(8 * rows, 128)], {"rows": rows, "ncols": 4 * rows},
             (0, nnz), (1, nnz), (2, 4 * rows), (3, 129, offs), (4, rows, "zero"))


def pitched(bw, bh, spitch, srows, ox, oy, dpitch):
    assert ox + bw <= spitch and oy + bh <= srows and bw <= dpitch
    return k("pitched_copy_u16", [ceil(bw, 64), div(bh, 4)],
             {"bw": bw, "bh": bh, "spitch": spitch, "dpitch": dpitch, "ox": ox, "oy": oy},
             (0, spitch * srows), (1, dpitch * bh, "zero"))


# name, what, cpu size, gpu size
SET = [
    ("b4_row_f64_abs", "a lane walks its own row of doubles (768-B pitch): L1 norm and sum of squares of 90",
     row_f64(4096), row_f64(640 * 1024)),
    ("b4_conv7_f32", "7 x 7 convolution of a float image from global memory, clamped taps, weights a buffer",
     conv7(256, 128), conv7(6144, 4096)),
    ("b4_conv3_v4", "3 x 3 binomial blur of an RGBA float (vec4) image, clamped, 8 x 8 groups",
     conv3(128, 64), conv3(4096, 3072)),
    ("b4_atomic_key2500", "one global atomicAdd a lane on 2500 counters hashed from lane and key",
     atomic_key(32768), atomic_key(2 * M)),
    ("b4_hist_smem_509", "workgroup-memory histogram over 509 hashed bins, 512 lanes, grid stride, merged globally",
     hist509(256 * 1024, 16), hist509(64 * M, 528)),
    ("b4_sg_sum_one", "integer total: 4 ivec4 a lane, subgroupAdd, one atomicAdd per subgroup on one address",
     sg_sum(64 * 1024, 4), sg_sum(16 * M, 4)),
    ("b4_transpose_v2_t32", "transpose of vec2 (complex) 4096 x 6144 via a 32 x 33 shared tile, 32 x 8 lanes",
     transpose_t32(96, 160), transpose_t32(4096, 6144)),
    ("b4_transpose_naive_u32", "naive uint transpose 6144 x 6144, 16 x 16 groups, column-strided stores",
     transpose_naive(128, 160), transpose_naive(6144, 6144)),
    ("b4_partial_stride6", "partial-sector write: one float stored every 24 B, dense float reads",
     partial6(19200), partial6(12000000)),
    ("b4_sector_col_v4", "one sector per lane: the first vec4 of each 160-B record",
     sector_col(16384), sector_col(6 * M)),
    ("b4_gather_hash_v2", "two vec2 gathers a lane from a 256-MiB table, index hashed from the lane",
     gather_hash(16384, 65536), gather_hash(6 * M, 32 * M)),
    ("b4_gather_idx_l2", "two gathers a lane from a 32-MiB table (L2): bucket ids read from a buffer, hashed slot",
     gather_idx(16384, 12), gather_idx(15 * M, 19)),
    ("b4_tiny_one_poly", "launch probe: one workgroup of 128, a degree-6 polynomial on 100 floats",
     tiny_one(), tiny_one()),
    ("b4_tiny_handful", "launch probe: 3 x 2 workgroups of 8 x 4, scale and clamp",
     tiny_handful(), tiny_handful()),
    ("b4_softmax_sg_rows", "row-wise softmax, rows of 1024, a row a subgroup-wide y of 32 x 4, registers",
     softmax(62, 512), softmax(48 * 1024, 1024)),
    ("b4_rmsnorm_f16", "RMS norm of half rows of 5120, 320 lanes a row, subgroupAdd + shared, half gain",
     rmsnorm(24, 1000), rmsnorm(20480, 1280)),
    ("b4_gemv_row_i8", "matrix-vector by row, int8 weights (i8vec4, rows of 384 B) x float x x row scale",
     gemv_row(2048, 96), gemv_row(M, 96)),
    ("b4_gemv_wg_tree", "matrix-vector by workgroup, 256 lanes a float row of 8192 (vec4), shared tree",
     gemv_wg(64, 600), gemv_wg(12288, 2048)),
    ("b4_gemm_tile16", "tiled GEMM C = A B, float, 1024^3, 16 x 16 shared tiles, one output a lane",
     gemm_tile(48, 80, 64), gemm_tile(1024, 1024, 1024)),
    ("b4_gemm_rb4x8", "register-blocked GEMM 2048 x 2048 x 1024 + bias, 64 x 128 blocks, 4 x 8 a lane",
     gemm_rb(128, 256, 48), gemm_rb(2048, 2048, 1024)),
    ("b4_stencil3d_13", "3-D 13-point order-4 star stencil 512 x 512 x 192, 64 x 2 x 2 groups",
     stencil(64, 16, 12), stencil(512, 512, 192)),
    ("b4_scan_excl_u4", "exclusive scan of uint in blocks of 2048: uvec4 a lane, subgroupExclusiveAdd, shared",
     scan(64), scan(32768)),
    ("b4_reduce_sg_sum_max", "subgroup reduction: sum and max magnitude of vec4, grid stride, 1056 groups",
     reduce(100000, 16), reduce(24 * M, 1056)),
    ("b4_spmv_csr_8lane", "CSR SpMV, 8 lanes a row (clustered add), lengths 4..200 from a 129-entry table, banded",
     spmv(2000), spmv(960 * 1024)),
    ("b4_pitched_copy_u16", "pitched 2-D copy of a 7000 x 12000 uint16 box (u16vec4), 64 x 4 groups",
     pitched(150, 64, 192, 80, 20, 7, 160), pitched(1750, 12000, 2048, 12200, 64, 100, 1760)),
]


def main():
    write_set(HERE, SET, "blind4", "Blind set 4", " of the held-out shapes, predicted before "
              "they are ever measured, never used to tune anything", "b4_tiny_*")


if __name__ == "__main__":
    main()
