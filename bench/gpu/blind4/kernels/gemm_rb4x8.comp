#version 450
// Blind set 4: register-blocked GEMM C = A B + bias (float, row-major, a bias a column):
// a 64 x 128 block of C a workgroup of 16 x 16 lanes, 4 rows x 8 columns
// a lane (16 apart), k-tiles of 16 in shared memory (A stored
// transposed); m % 64 == 0, n % 128 == 0, k % 16 == 0.
layout(local_size_x = 16, local_size_y = 16) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) readonly buffer B { float b[]; };
layout(set = 0, binding = 2) writeonly buffer C { float c[]; };
layout(set = 0, binding = 3) readonly buffer Bias { float bias[]; };
layout(push_constant) uniform P { uint m; uint n; uint k; };
shared float At[16][64];
shared float Bs[16][128];

void main() {
    uint tx = gl_LocalInvocationID.x, ty = gl_LocalInvocationID.y;
    uint t = ty * 16u + tx;
    uint r0 = gl_WorkGroupID.y * 64u, c0 = gl_WorkGroupID.x * 128u;
    float acc[4][8];
    for (uint i = 0u; i < 4u; i++)
        for (uint j = 0u; j < 8u; j++)
            acc[i][j] = 0.0;
    for (uint k0 = 0u; k0 < k; k0 += 16u) {
        for (uint e = t; e < 1024u; e += 256u) {   // A: 64 rows x 16
            uint r = e >> 4, q = e & 15u;
            At[q][r] = a[(r0 + r) * k + k0 + q];
        }
        for (uint e = t; e < 2048u; e += 256u) {   // B: 16 rows x 128
            uint q = e >> 7, cc = e & 127u;
            Bs[q][cc] = b[(k0 + q) * n + c0 + cc];
        }
        barrier();
        for (uint q = 0u; q < 16u; q++) {
            float av[4], bv[8];
            for (uint i = 0u; i < 4u; i++)
                av[i] = At[q][ty + 16u * i];
            for (uint j = 0u; j < 8u; j++)
                bv[j] = Bs[q][tx + 16u * j];
            for (uint i = 0u; i < 4u; i++)
                for (uint j = 0u; j < 8u; j++)
                    acc[i][j] += av[i] * bv[j];
        }
        barrier();
    }
    for (uint i = 0u; i < 4u; i++)
        for (uint j = 0u; j < 8u; j++) {
            uint col = c0 + tx + 16u * j;
            c[(r0 + ty + 16u * i) * n + col] = acc[i][j] + bias[col];
        }
}
