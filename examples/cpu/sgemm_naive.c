/* sgemm_naive.c - C = A x B for n x n row-major floats, the obvious way.
 *
 * Plan: buffers A, B, C (n*n floats each), args {n}.  This is the "before
 * tuning" kernel: an i-j-k triple loop whose inner product walks B by
 * columns and runs one scalar multiply-add at a time.  It is built with
 * -O1 -fno-tree-vectorize (examples/cpu/sgemm_naive.mk) so the compiler
 * does not rescue it.
 */
#include <stdint.h>

#include "clockwork.h"

clockwork_kernel_fn sgemm;

int sgemm(void *const buffers[], const int64_t args[])
{
    const float *a = buffers[0];
    const float *b = buffers[1];
    float *c = buffers[2];
    int64_t n = args[0];
    if (n <= 0)
        return 1;
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < n; j++) {
            float sum = 0.0f;
            for (int64_t k = 0; k < n; k++)
                sum += a[i * n + k] * b[k * n + j];
            c[i * n + j] = sum;
        }
    return 0;
}
