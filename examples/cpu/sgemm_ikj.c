/* sgemm_ikj.c - C = A x B for n x n row-major floats, loops reordered.
 *
 * Plan: buffers A, B, C (n*n floats each), args {n}.  The i-k-j order makes
 * the inner loop stream a row of B and a row of C with unit stride, which
 * the compiler vectorises (examples/cpu/sgemm_ikj.mk: -O3, AVX2 + FMA).
 * No blocking for the caches and one thread: a middle point between the
 * naive loop and OpenBLAS, and the example of packed vector code for the
 * machine-code inspection.
 */
#include <stdint.h>

#include "clockwork.h"

clockwork_kernel_fn sgemm;

int sgemm(void *const buffers[], const int64_t args[])
{
    const float *restrict a = buffers[0];
    const float *restrict b = buffers[1];
    float *restrict c = buffers[2];
    int64_t n = args[0];
    if (n <= 0)
        return 1;
    for (int64_t i = 0; i < n * n; i++)
        c[i] = 0.0f;
    for (int64_t i = 0; i < n; i++)
        for (int64_t k = 0; k < n; k++) {
            float aik = a[i * n + k];
            for (int64_t j = 0; j < n; j++)
                c[i * n + j] += aik * b[k * n + j];
        }
    return 0;
}
