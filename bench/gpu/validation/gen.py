#!/usr/bin/env python3
"""Writes the validation set's plans: plan.json (H200 sizes: >= 50 us
except the launch probes) and plan-cpu.json (small sizes, for a dry run of
bench/gpu/h200.sh on lavapipe).  The validation set is kept apart from the
accuracy corpus: no profile constant and no model decision is tuned on it
(docs/accuracy.md, "Validation (unseen)").

    python3 bench/gpu/validation/gen.py
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(HERE, ".."))
from heldout import M, k, write_set  # noqa: E402  (bench/gpu/heldout.py)


def row_max(rows, cols):
    return k("row_max", [rows // 128], {"rows": rows, "cols": cols},
             (0, rows * cols), (1, rows, "zero"))


def row_dot2(rows, half):
    return k("row_dot2", [rows // 64], {"rows": rows, "half_cols": half},
             (0, rows * half), (1, half), (2, rows, "zero"))


def conv7(w, h):
    return k("conv7x7_clamp", [w // 32, h // 8], {"w": w, "h": h},
             (0, w * h), (1, w * h, "zero"))


def conv_rgba(w, h):
    return k("conv3x3_rgba", [w // 16, h // 16], {"w": w, "h": h},
             (0, w * h), (1, w * h, "zero"), (2, 9))


def stencil13(w, h, d):
    return k("stencil3d_13", [w // 64, h // 4, d], {"w": w, "h": h, "d": d},
             (0, w * h * d), (1, w * h * d, "zero"))


def contend(groups, bins, per):
    return k("atomic_contend", [groups], {"bins": bins, "per": per}, (0, bins, "zero"))


def hist1k(n, per):
    return k("hist_shared_1k", [n // per // 512], {"n": n, "per": per},
             (0, n), (1, 1024, "zero"))


def sgmax(n, per):
    return k("subgroup_max_atomic", [n // per // 128], {"n": n, "per": per},
             (0, n), (1, 1, "zero"))


def transpose_rect(rows, cols):
    return k("transpose_rect", [cols // 32, rows // 8], {"rows": rows, "cols": cols},
             (0, rows * cols), (1, rows * cols, "zero"))


def transpose16(rows, cols):
    return k("transpose_tile16", [cols // 16, rows // 16], {"rows": rows, "cols": cols},
             (0, rows * cols), (1, rows * cols, "zero"))


def partial8(n):
    return k("partial_write8", [n // 128], {"n": n}, (0, n), (1, 4 * n, "zero"))


def sector16(n, per):
    inv = n // per
    return k("sector_read16", [inv // 256], {"n": n, "per": per},
             (0, 16 * n), (1, inv, "zero"))


def gather(n, tsize):
    return k("gather_table", [n // 256], {"n": n, "tsize": tsize},
             (0, tsize), (1, n, "zero"))


def tiny(groups):
    return k("tiny_fill", [groups], {"n": groups * 64}, (0, groups * 64, "zero"))


def softmax(rows, cols):
    return k("softmax_wide", [rows], {"cols": cols}, (0, rows * cols), (1, rows * cols, "zero"))


def rms(rows, cols4):
    return k("rmsnorm_vec4", [rows], {"cols4": cols4},
             (0, rows * cols4), (1, rows * cols4, "zero"), (2, cols4))


def gemv(rows, cols4):
    return k("gemv_wg_sub", [rows], {"cols4": cols4},
             (0, rows * cols4), (1, cols4), (2, rows, "zero"))


def gemm(n):
    return k("gemm_tile32", [n // 32, n // 32], {"n": n},
             (0, n * n), (1, n * n), (2, n * n, "zero"))


def spmv(rows, cols, nnz):
    return k("spmv_csr_var", [rows // 32], {"rows": rows, "cols": cols, "nnz_row": nnz},
             (0, rows * nnz), (1, cols), (2, rows, "zero"))


# name, what, cpu size, gpu size
SET = [
    ("v_row_max", "a lane walks its own row of 100 floats (rows not line-aligned), max", row_max(8192, 100), row_max(524288, 100)),
    ("v_row_dot2", "a lane walks its own row of 256 floats with vec2 loads, dot", row_dot2(4096, 128), row_dot2(262144, 128)),
    ("v_conv7x7", "7 x 7 convolution, clamped borders, 32 x 8 groups", conv7(256, 256), conv7(4096, 4096)),
    ("v_conv3x3_rgba", "3 x 3 convolution of a vec4 image, clamped, weights from a buffer", conv_rgba(256, 256), conv_rgba(4096, 2048)),
    ("v_stencil3d_13", "3-D 13-point stencil (radius 2), 64 x 4 x 1 groups", stencil13(64, 64, 32), stencil13(384, 256, 256)),
    ("v_atomic_contend", "4 Mi global atomics on 384 hashed counters", contend(64, 384, 4), contend(4096, 384, 4)),
    ("v_hist_shared_1k", "workgroup-memory histogram over 1024 hashed bins, 512 lanes", hist1k(M, 16), hist1k(64 * M, 32)),
    ("v_subgroup_max", "one atomicMax per subgroup on one address (subgroupMax)", sgmax(M, 8), sgmax(32 * M, 8)),
    ("v_transpose_rect", "naive transpose of a 4096 x 12288 matrix", transpose_rect(256, 768), transpose_rect(4096, 12288)),
    ("v_transpose_tile16", "transpose through an unpadded 16 x 16 tile (bank conflicts)", transpose16(384, 512), transpose16(6144, 8192)),
    ("v_partial_write8", "partial-sector writes: 8 B per 32 B", partial8(M // 4), partial8(16 * M)),
    ("v_sector_read16", "one sector per lane: 4 B read per 64 B, 4 reads a lane", sector16(M // 4, 4), sector16(8 * M, 4)),
    ("v_gather_table", "4 hashed gathers a lane from a 64 MiB table (xorshift index)", gather(M // 4, M), gather(32 * M, 16 * M)),
    ("v_tiny_1", "launch probe: one workgroup of 64 fills 256 B", tiny(1), tiny(1)),
    ("v_tiny_132", "launch probe: 132 workgroups (one per SM) fill 33 KiB", tiny(132), tiny(132)),
    ("v_softmax_8k", "softmax over rows of 8192, 512 lanes, subgroup reductions", softmax(64, 8192), softmax(8192, 8192)),
    ("v_rmsnorm_vec4", "RMS norm over rows of 4096 with vec4 loads, 128 lanes", rms(256, 1024), rms(16384, 1024)),
    ("v_gemv_wg_8k", "matrix-vector by workgroup, rows of 8192, vec4, subgroupAdd", gemv(256, 2048), gemv(16384, 2048)),
    ("v_gemm_tile32", "tiled GEMM, 32 x 32 tiles, 4 outputs per lane, n = 1536", gemm(128), gemm(1536)),
    ("v_spmv_var", "scalar CSR SpMV, 17..24 entries a row, hashed columns", spmv(16384, 16384, 24), spmv(2 * M, M, 24)),
]


def main():
    write_set(HERE, SET, "validation", "Validation set",
              ", never used to tune a constant or a model decision", "v_tiny_*")


if __name__ == "__main__":
    main()
