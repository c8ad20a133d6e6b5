#version 450
// Register-blocked GEMM, C = A B (n x n, row-major): a workgroup of 16 x 16
// computes a 64 x 64 block of C, each invocation a 4 x 4 sub-block held in
// registers; A and B pass through workgroup memory in 64 x 16 / 16 x 64
// tiles (two barriers per tile).  n must be a multiple of 64.
layout(local_size_x = 16, local_size_y = 16) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) readonly buffer B { float b[]; };
layout(set = 0, binding = 2) writeonly buffer C { float c[]; };
layout(push_constant) uniform P { uint n; };
shared float As[16][64];
shared float Bs[16][64];

void main() {
    uint tx = gl_LocalInvocationID.x, ty = gl_LocalInvocationID.y;
    uint t = ty * 16u + tx;
    uint row0 = gl_WorkGroupID.y * 64u, col0 = gl_WorkGroupID.x * 64u;
    float acc[4][4];
    for (uint i = 0u; i < 4u; i++)
        for (uint j = 0u; j < 4u; j++)
            acc[i][j] = 0.0;
    for (uint k0 = 0u; k0 < n; k0 += 16u) {
        for (uint q = 0u; q < 4u; q++) {
            uint e = t + q * 256u;           // 1024 elements per tile
            uint ar = e / 16u, ak = e % 16u; // A tile: 64 rows x 16
            As[ak][ar] = a[(row0 + ar) * n + k0 + ak];
            uint bk = e / 64u, bc = e % 64u; // B tile: 16 rows x 64
            Bs[bk][bc] = b[(k0 + bk) * n + col0 + bc];
        }
        barrier();
        for (uint k = 0u; k < 16u; k++) {
            float av[4], bv[4];
            for (uint i = 0u; i < 4u; i++)
                av[i] = As[k][ty * 4u + i];
            for (uint j = 0u; j < 4u; j++)
                bv[j] = Bs[k][tx * 4u + j];
            for (uint i = 0u; i < 4u; i++)
                for (uint j = 0u; j < 4u; j++)
                    acc[i][j] = fma(av[i], bv[j], acc[i][j]);
        }
        barrier();
    }
    for (uint i = 0u; i < 4u; i++)
        for (uint j = 0u; j < 4u; j++)
            c[(row0 + ty * 4u + i) * n + col0 + tx * 4u + j] = acc[i][j];
}
