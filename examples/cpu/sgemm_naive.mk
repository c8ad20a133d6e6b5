# Keep the naive SGEMM naive: no auto-vectorisation, no contraction tricks.
CPU_KERNEL_CFLAGS_sgemm_naive = -O1 -fno-tree-vectorize -fno-tree-slp-vectorize
