#version 450
// Blind set: register-blocked GEMM C (m x n) = A (m x k) B (k x n), all
// row-major: a 16 x 16 workgroup computes a 128 x 64 block of C, each
// invocation 8 x 4 outputs in registers; A and B tiles of depth 8 pass
// through workgroup memory (two barriers per tile).  m % 128 == 0,
// n % 64 == 0, k % 8 == 0.
layout(local_size_x = 16, local_size_y = 16) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) readonly buffer B { float b[]; };
layout(set = 0, binding = 2) writeonly buffer C { float c[]; };
layout(push_constant) uniform P { uint m; uint n; uint k; };
shared float As[8][128];
shared float Bs[8][64];

void main() {
    uint tx = gl_LocalInvocationID.x, ty = gl_LocalInvocationID.y;
    uint t = ty * 16u + tx;
    uint row0 = gl_WorkGroupID.y * 128u, col0 = gl_WorkGroupID.x * 64u;
    float acc[8][4];
    for (uint i = 0u; i < 8u; i++)
        for (uint j = 0u; j < 4u; j++)
            acc[i][j] = 0.0;
    for (uint k0 = 0u; k0 < k; k0 += 8u) {
        for (uint q = 0u; q < 4u; q++) {      // A tile: 128 rows x 8
            uint e = t + q * 256u;
            uint ar = e / 8u, ak = e % 8u;
            As[ak][ar] = a[(row0 + ar) * k + k0 + ak];
        }
        for (uint q = 0u; q < 2u; q++) {      // B tile: 8 rows x 64
            uint e = t + q * 256u;
            uint bk = e / 64u, bc = e % 64u;
            Bs[bk][bc] = b[(k0 + bk) * n + col0 + bc];
        }
        barrier();
        for (uint kk = 0u; kk < 8u; kk++) {
            float av[8], bv[4];
            for (uint i = 0u; i < 8u; i++)
                av[i] = As[kk][ty * 8u + i];
            for (uint j = 0u; j < 4u; j++)
                bv[j] = Bs[kk][tx + 16u * j];
            for (uint i = 0u; i < 8u; i++)
                for (uint j = 0u; j < 4u; j++)
                    acc[i][j] = fma(av[i], bv[j], acc[i][j]);
        }
        barrier();
    }
    for (uint i = 0u; i < 8u; i++)
        for (uint j = 0u; j < 4u; j++)
            c[(row0 + ty * 8u + i) * n + col0 + tx + 16u * j] = acc[i][j];
}
