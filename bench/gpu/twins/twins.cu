// twins.cu - CUDA twins of accuracy-corpus kernels, a measuring instrument.
//
// Each tw_<name> does what bench/accuracy/kernels/<name>.comp does (the same
// access pattern, block size and problem size as bench/accuracy/plan-gpu.json),
// so Nsight Compute's counters on the twin say which term of the model is
// wrong for the Vulkan kernel (ncu does not see Vulkan dispatches).  Not part
// of clockwork.  Build and run on the GPU machine (bench/gpu/twins.sh):
//     nvcc -O2 -arch=sm_90 -o twins twins.cu && ./twins [name...]
// Prints the CUDA-event time of each twin (median of 5) so the twin can be
// checked against the Vulkan time first.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <vector>
#include <cuda_runtime.h>

#define CK(x)                                                                 \
    do {                                                                      \
        cudaError_t e_ = (x);                                                 \
        if (e_ != cudaSuccess) {                                              \
            fprintf(stderr, "%s: %s (line %d)\n", #x, cudaGetErrorString(e_), \
                    __LINE__);                                                \
            exit(1);                                                          \
        }                                                                     \
    } while (0)

typedef unsigned int u32;
static const u32 M = 1u << 20;

__global__ void fill(float *p, size_t n, u32 seed)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    for (; i < n; i += (size_t)gridDim.x * blockDim.x) {
        u32 h = (u32)i * 2654435761u ^ seed;
        h ^= h >> 13; h *= 0x5bd1e995u; h ^= h >> 15;
        p[i] = (float)(h >> 8) / 8388608.0f - 1.0f;
    }
}

__global__ void tw_copy(const float *a, float *b, u32 n)
{
    u32 i = blockIdx.x * 256u + threadIdx.x;
    if (i < n) b[i] = a[i];
}

__global__ void tw_saxpy(const float *x, float *y, u32 n, float alpha)
{
    u32 i = blockIdx.x * 256u + threadIdx.x;
    if (i < n) y[i] = alpha * x[i] + y[i];
}

__global__ void tw_gelu(const float *s, float *d, u32 n)
{
    u32 i = blockIdx.x * 256u + threadIdx.x;
    if (i >= n) return;
    float v = s[i];
    d[i] = 0.5f * v * (1.0f + tanhf(0.7978845608f * (v + 0.044715f * v * v * v)));
}

__global__ void tw_fma8(float *o, u32 iters, float a, float b)
{
    u32 i = blockIdx.x * 64u + threadIdx.x;
    float x0 = i * 1e-6f, x1 = x0 + .1f, x2 = x0 + .2f, x3 = x0 + .3f;
    float x4 = x0 + .4f, x5 = x0 + .5f, x6 = x0 + .6f, x7 = x0 + .7f;
    for (u32 k = 0; k < iters; k++) {
        x0 = fmaf(x0, a, b); x1 = fmaf(x1, a, b); x2 = fmaf(x2, a, b); x3 = fmaf(x3, a, b);
        x4 = fmaf(x4, a, b); x5 = fmaf(x5, a, b); x6 = fmaf(x6, a, b); x7 = fmaf(x7, a, b);
    }
    o[i] = ((x0 + x1) + (x2 + x3)) + ((x4 + x5) + (x6 + x7));
}

__global__ void tw_fma1(float *o, u32 iters, float a, float b)
{
    u32 i = blockIdx.x * 64u + threadIdx.x;
    float x = i * 1e-6f;
    for (u32 k = 0; k < iters; k++) x = fmaf(x, a, b);
    o[i] = x;
}

__global__ void tw_reduce(const float *d, float *part, u32 n)
{
    __shared__ float t[256];
    u32 l = threadIdx.x, i = blockIdx.x * 256u + l;
    t[l] = i < n ? d[i] : 0.f;
    __syncthreads();
    for (u32 s = 128; s > 0; s >>= 1) {
        if (l < s) t[l] += t[l + s];
        __syncthreads();
    }
    if (l == 0) part[blockIdx.x] = t[0];
}

__global__ void tw_softmax_row(const float *x, float *y, u32 cols)
{
    __shared__ float red[256];
    u32 l = threadIdx.x;
    size_t base = (size_t)blockIdx.x * cols;
    float m = -3.0e38f;
    for (u32 c = l; c < cols; c += 256) m = fmaxf(m, x[base + c]);
    red[l] = m;
    __syncthreads();
    for (u32 s = 128; s > 0; s >>= 1) {
        if (l < s) red[l] = fmaxf(red[l], red[l + s]);
        __syncthreads();
    }
    m = red[0];
    __syncthreads();
    float sum = 0.f;
    for (u32 c = l; c < cols; c += 256) sum += expf(x[base + c] - m);
    red[l] = sum;
    __syncthreads();
    for (u32 s = 128; s > 0; s >>= 1) {
        if (l < s) red[l] += red[l + s];
        __syncthreads();
    }
    float inv = 1.f / red[0];
    for (u32 c = l; c < cols; c += 256) y[base + c] = expf(x[base + c] - m) * inv;
}

__global__ void tw_layernorm(const float *x, float *y, const float *g, const float *b, u32 cols)
{
    __shared__ float s1[256], s2[256];
    u32 l = threadIdx.x;
    size_t base = (size_t)blockIdx.x * cols;
    float a = 0.f, q = 0.f;
    for (u32 c = l; c < cols; c += 256) { float v = x[base + c]; a += v; q += v * v; }
    s1[l] = a; s2[l] = q;
    __syncthreads();
    for (u32 s = 128; s > 0; s >>= 1) {
        if (l < s) { s1[l] += s1[l + s]; s2[l] += s2[l + s]; }
        __syncthreads();
    }
    float mean = s1[0] / cols, var = s2[0] / cols - mean * mean;
    float r = rsqrtf(fmaxf(var, 0.f) + 1e-5f);
    for (u32 c = l; c < cols; c += 256) y[base + c] = (x[base + c] - mean) * r * g[c] + b[c];
}

__global__ void tw_scan_block(const float *s, float *d)
{
    __shared__ float buf[2][256];
    u32 l = threadIdx.x, i = blockIdx.x * 256u + l;
    buf[0][l] = s[i];
    __syncthreads();
    u32 cur = 0;
    for (u32 off = 1; off < 256; off <<= 1) {
        float v = buf[cur][l];
        if (l >= off) v += buf[cur][l - off];
        buf[cur ^ 1][l] = v;
        cur ^= 1;
        __syncthreads();
    }
    d[i] = buf[cur][l];
}

__global__ void tw_atomic_spread(u32 *bins)
{
    atomicAdd(&bins[(blockIdx.x * 64u + threadIdx.x) & 4095u], 1u);
}

__global__ void tw_histogram_global(const float *s, u32 *h, u32 n, u32 bins)
{
    u32 i = blockIdx.x * 256u + threadIdx.x;
    if (i >= n) return;
    u32 b = ((i * 2654435761u) >> 16) % bins;
    atomicAdd(&h[b], s[i] > 2.f ? 2u : 1u);
}

__global__ void tw_histogram_shared(const float *s, u32 *h, u32 n, u32 per)
{
    __shared__ u32 bins[256];
    u32 l = threadIdx.x;
    bins[l] = 0;
    __syncthreads();
    u32 stride = gridDim.x * 256u, g = blockIdx.x * 256u + l;
    for (u32 k = 0; k < per; k++) {
        u32 i = g + k * stride;
        if (i < n) atomicAdd(&bins[(i * 2654435761u) >> 24], s[i] > 2.f ? 2u : 1u);
    }
    __syncthreads();
    atomicAdd(&h[l], bins[l]);
}

__global__ void tw_transpose(const float *s, float *d, u32 n)
{
    u32 x = blockIdx.x * 16u + threadIdx.x, y = blockIdx.y * 16u + threadIdx.y;
    if (x < n && y < n) d[(size_t)x * n + y] = s[(size_t)y * n + x];
}

__global__ void tw_partial_write(const float *s, float *d, u32 n, u32 stride)
{
    u32 i = blockIdx.x * 256u + threadIdx.x;
    if (i < n) d[(size_t)i * stride] = s[i] * 2.f;
}

__global__ void tw_sector_read(const float *s, float *d, u32 n, u32 stride)
{
    u32 i = blockIdx.x * 256u + threadIdx.x;
    if (i < n) d[i] = s[(size_t)i * stride] + 1.f;
}

__global__ void tw_gather_hash(const float *s, float *d, u32 n)
{
    u32 i = blockIdx.x * 256u + threadIdx.x;
    if (i < n) d[i] = s[(i * 2654435761u) & (n - 1)];
}

__global__ void tw_scatter_hash(const float *s, float *d, u32 n)
{
    u32 i = blockIdx.x * 256u + threadIdx.x;
    if (i < n) d[(i * 2654435761u) & (n - 1)] = s[i];
}

__global__ void tw_gemv_row(const float *a, const float *x, float *y, u32 rows, u32 cols)
{
    u32 r = blockIdx.x * 256u + threadIdx.x;
    if (r >= rows) return;
    float acc = 0.f;
    for (u32 c = 0; c < cols; c++) acc += a[(size_t)r * cols + c] * x[c];
    y[r] = acc;
}

__global__ void tw_row_walk(const float *a, float *s, u32 rows, u32 cols)
{
    u32 r = blockIdx.x * 256u + threadIdx.x;
    if (r >= rows) return;
    float acc = 0.f;
    for (u32 c = 0; c < cols; c++) acc += a[(size_t)r * cols + c];
    s[r] = acc;
}

__global__ void tw_spmv_csr(const float *vals, const float *x, float *y, u32 rows, u32 cols)
{
    u32 r = blockIdx.x * 256u + threadIdx.x;
    if (r >= rows) return;
    u32 len = 4u + ((r * 2654435761u) >> 27) % 29u, start = r * 32u;
    float acc = 0.f;
    for (u32 j = 0; j < len; j++) {
        u32 col = ((start + j) * 2246822519u) & (cols - 1u);
        acc += vals[start + j] * x[col];
    }
    y[r] = acc;
}

__global__ void tw_matmul_naive(const float *a, const float *b, float *c, u32 n)
{
    u32 col = blockIdx.x * 16u + threadIdx.x, row = blockIdx.y * 16u + threadIdx.y;
    if (row >= n || col >= n) return;
    float acc = 0.f;
    for (u32 k = 0; k < n; k++) acc += a[row * n + k] * b[k * n + col];
    c[row * n + col] = acc;
}

__global__ void tw_stencil(const float *u, float *v, u32 w, u32 h)
{
    u32 x = blockIdx.x * 16u + threadIdx.x, y = blockIdx.y * 16u + threadIdx.y;
    if (x >= w || y >= h) return;
    size_t i = (size_t)y * w + x;
    if (x == 0 || y == 0 || x == w - 1 || y == h - 1) { v[i] = u[i]; return; }
    v[i] = 0.25f * (u[i - 1] + u[i + 1] + u[i - w] + u[i + w]) - u[i];
}

__global__ void tw_conv5x5_clamp(const float *src, float *dst, u32 w, u32 h)
{
    int x = blockIdx.x * 16 + threadIdx.x, y = blockIdx.y * 16 + threadIdx.y;
    if (x >= (int)w || y >= (int)h) return;
    float acc = 0.f;
    for (int dy = -2; dy <= 2; dy++) {
        int yy = min(max(y + dy, 0), (int)h - 1);
        for (int dx = -2; dx <= 2; dx++) {
            int xx = min(max(x + dx, 0), (int)w - 1);
            acc += 1.f / (float)(1 + dx * dx + dy * dy) * src[(size_t)yy * w + xx];
        }
    }
    dst[(size_t)y * w + x] = acc;
}

__global__ void tw_shared_read(float *d, u32 iters)
{
    __shared__ float4 tile[1024];
    u32 l = threadIdx.x;
    for (u32 k = 0; k < 4; k++) tile[l + k * 256] = make_float4(l + k, 1, 2, 3);
    __syncthreads();
    float4 a = make_float4(0, 0, 0, 0);
    for (u32 k = 0; k < iters; k++) {
        float4 t = tile[(l + k * 64u) & 1023u];
        a.x += t.x; a.y += t.y; a.z += t.z; a.w += t.w;
    }
    if (a.x == -1234.5f) d[blockIdx.x * 256 + l] = a.y;
}

struct twin {
    const char *name;
    void (*run)(void);
};

static float *A, *B, *C, *D;
static u32 *H;

#define T(nm, ...) static void run_##nm(void) { __VA_ARGS__; }
T(copy, tw_copy<<<262144, 256>>>(A, B, 64 * M))
T(saxpy, tw_saxpy<<<262144, 256>>>(A, B, 64 * M, 2.f))
T(gelu, tw_gelu<<<262144, 256>>>(A, B, 64 * M))
T(fma8, tw_fma8<<<65536, 64>>>(B, 128, 0.999f, 0.001f))
T(fma1, tw_fma1<<<65536, 64>>>(B, 1024, 0.999f, 0.001f))
T(reduce, tw_reduce<<<262144, 256>>>(A, B, 64 * M))
T(softmax_row, tw_softmax_row<<<65536, 256>>>(A, B, 1024))
T(layernorm, tw_layernorm<<<65536, 256>>>(A, B, C, D, 1024))
T(scan_block, tw_scan_block<<<262144, 256>>>(A, B))
T(atomic_spread, tw_atomic_spread<<<262144, 64>>>(H))
T(histogram_global, tw_histogram_global<<<65536, 256>>>(A, H, 16 * M, 256))
T(histogram_shared, tw_histogram_shared<<<4096, 256>>>(A, H, 64 * M, 64))
T(transpose, tw_transpose<<<dim3(512, 512), dim3(16, 16)>>>(A, B, 8192))
T(partial_write, tw_partial_write<<<65536, 256>>>(A, B, 16 * M, 16))
T(sector_read, tw_sector_read<<<65536, 256>>>(A, B, 16 * M, 8))
T(gather_hash, tw_gather_hash<<<262144, 256>>>(A, B, 64 * M))
T(scatter_hash, tw_scatter_hash<<<262144, 256>>>(A, B, 64 * M))
T(gemv_row, tw_gemv_row<<<256, 256>>>(A, C, B, 65536, 1024))
T(row_walk, tw_row_walk<<<4096, 256>>>(A, B, M, 64))
T(spmv_csr, tw_spmv_csr<<<8192, 256>>>(A, C, B, 2 * M, 2 * M))
T(matmul_naive, tw_matmul_naive<<<dim3(48, 48), dim3(16, 16)>>>(A, C, B, 768))
T(stencil, tw_stencil<<<dim3(512, 512), dim3(16, 16)>>>(A, B, 8192, 8192))
T(conv5x5_clamp, tw_conv5x5_clamp<<<dim3(512, 512), dim3(16, 16)>>>(A, B, 8192, 8192))
T(shared_read, tw_shared_read<<<16384, 256>>>(B, 256))

static const twin twins[] = {
#define E(nm) {#nm, run_##nm}
    E(copy), E(saxpy), E(gelu), E(fma8), E(fma1), E(reduce), E(softmax_row),
    E(layernorm), E(scan_block), E(atomic_spread), E(histogram_global),
    E(histogram_shared), E(transpose), E(partial_write), E(sector_read),
    E(gather_hash), E(scatter_hash), E(gemv_row), E(row_walk), E(spmv_csr),
    E(matmul_naive), E(stencil), E(conv5x5_clamp), E(shared_read),
};

int main(int argc, char **argv)
{
    // A: 1 GiB source (the largest: partial_write's 2^28-float destination
    // is B), B: 1 GiB destination, C, D: 16 MiB side inputs, H: counters
    size_t big = (size_t)256 * M;
    CK(cudaMalloc(&A, big * 4));
    CK(cudaMalloc(&B, big * 4));
    CK(cudaMalloc(&C, 4 * M * 4));
    CK(cudaMalloc(&D, 4 * M * 4));
    CK(cudaMalloc(&H, 4096 * 4));
    fill<<<4096, 256>>>(A, big, 1);
    fill<<<4096, 256>>>(B, big, 2);
    fill<<<1024, 256>>>(C, 4 * M, 3);
    fill<<<1024, 256>>>(D, 4 * M, 4);
    CK(cudaMemset(H, 0, 4096 * 4));
    CK(cudaDeviceSynchronize());
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    for (const twin &t : twins) {
        bool want = argc < 2;
        for (int i = 1; i < argc; i++)
            want |= !strcmp(argv[i], t.name);
        if (!want) continue;
        std::vector<float> ms;
        // TWINS_ONCE: one launch per twin (under ncu, which replays it)
        int reps = getenv("TWINS_ONCE") ? 1 : 6;
        for (int r = 0; r < reps; r++) {
            CK(cudaEventRecord(e0));
            t.run();
            CK(cudaEventRecord(e1));
            CK(cudaEventSynchronize(e1));
            CK(cudaGetLastError());
            float x;
            CK(cudaEventElapsedTime(&x, e0, e1));
            if (r || reps == 1) ms.push_back(x);
        }
        std::sort(ms.begin(), ms.end());
        printf("%-18s %10.1f us\n", t.name, ms[ms.size() / 2] * 1e3);
    }
    return 0;
}
