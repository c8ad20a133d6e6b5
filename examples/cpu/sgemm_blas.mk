# OpenBLAS from Debian (libopenblas-dev): cblas.h lives under openblas-pthread.
CPU_KERNEL_CFLAGS_sgemm_blas = -I/usr/include/x86_64-linux-gnu/openblas-pthread
CPU_KERNEL_LIBS_sgemm_blas = -lopenblas
