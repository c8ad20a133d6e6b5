#version 450
// Blind set 3: register-blocked GEMM C = alpha A B: 128 x 128 output
// blocks, 16 x 16 workgroups, an 8 x 8 block of accumulators a lane
// (rows and columns 16 apart), K in steps of 8 through workgroup-memory
// tiles padded to 132 floats a row (m, n multiples of 128, k of 8).
layout(local_size_x = 16, local_size_y = 16) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) readonly buffer B { float b[]; };
layout(set = 0, binding = 2) writeonly buffer C { float c[]; };
layout(push_constant) uniform P { uint m; uint n; uint k; float alpha; };
shared float at[8][132]; // at[kk][row]
shared float bt[8][132]; // bt[kk][col]

void main() {
    uint tx = gl_LocalInvocationID.x, ty = gl_LocalInvocationID.y;
    uint l = ty * 16u + tx;
    uint r0 = gl_WorkGroupID.y * 128u, c0 = gl_WorkGroupID.x * 128u;
    float acc[8][8];
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++)
            acc[i][j] = 0.0;
    for (uint k0 = 0u; k0 < k; k0 += 8u) {
        for (uint e = l; e < 1024u; e += 256u) {
            uint ar = e >> 3, ak = e & 7u; // A: 128 rows x 8, k fastest
            at[ak][ar] = a[(r0 + ar) * k + k0 + ak];
            uint bk = e >> 7, bc = e & 127u; // B: 8 rows x 128 columns
            bt[bk][bc] = b[(k0 + bk) * n + c0 + bc];
        }
        barrier();
        for (uint q = 0u; q < 8u; q++) {
            float ra[8], rb[8];
            for (uint i = 0u; i < 8u; i++) {
                ra[i] = at[q][ty + 16u * i];
                rb[i] = bt[q][tx + 16u * i];
            }
            for (uint i = 0u; i < 8u; i++)
                for (uint j = 0u; j < 8u; j++)
                    acc[i][j] += ra[i] * rb[j];
        }
        barrier();
    }
    for (uint i = 0u; i < 8u; i++)
        for (uint j = 0u; j < 8u; j++)
            c[(r0 + ty + 16u * i) * n + c0 + tx + 16u * j] = alpha * acc[i][j];
}
