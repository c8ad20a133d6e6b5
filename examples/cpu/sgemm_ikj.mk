# Vectorised by the compiler: -O3 with AVX2 + FMA (x86-64-v3).
CPU_KERNEL_CFLAGS_sgemm_ikj = -O3 -march=x86-64-v3
