/* sgemm_blas.c - C = A x B for n x n row-major floats through OpenBLAS.
 *
 * Plan: buffers A, B, C (n*n floats each), args {n}.  A thin wrapper around
 * cblas_sgemm (libopenblas-dev), the "tuned" kernel of the pair.  The
 * thread count is the plan's "threads": Clockwork sets it through
 * openblas_set_num_threads before measuring.
 */
#include <stdint.h>

#include <cblas.h>

#include "clockwork.h"

clockwork_kernel_fn sgemm;

int sgemm(void *const buffers[], const int64_t args[])
{
    const float *a = buffers[0];
    const float *b = buffers[1];
    float *c = buffers[2];
    int64_t n = args[0];
    if (n <= 0 || n > INT32_MAX)
        return 1;
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)n, (int)n,
                (int)n, 1.0f, a, (int)n, b, (int)n, 0.0f, c, (int)n);
    return 0;
}
