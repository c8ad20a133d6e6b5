#version 450
// Blind set 2: register-blocked GEMM C = A B (m x k by k x n): 64 x 64
// output blocks, 256 lanes of 4 x 4 outputs each (rows ty + 16 i, columns
// 4 tx .. 4 tx + 3), k in steps of 16 through workgroup tiles of A and B,
// B read as vec4.
layout(local_size_x = 16, local_size_y = 16) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) readonly buffer B { vec4 b4[]; };
layout(set = 0, binding = 2) writeonly buffer C { vec4 c4[]; };
layout(push_constant) uniform P { uint m; uint n; uint k; };
shared float sa[16][64];
shared vec4 sb[16][16];

void main() {
    uint tx = gl_LocalInvocationID.x, ty = gl_LocalInvocationID.y;
    uint lin = ty * 16u + tx;
    uint row0 = gl_WorkGroupID.y * 64u, col0 = gl_WorkGroupID.x * 64u;
    uint n4 = n / 4u;
    vec4 acc[4] = vec4[4](vec4(0.0), vec4(0.0), vec4(0.0), vec4(0.0));
    for (uint k0 = 0u; k0 < k; k0 += 16u) {
        // A tile: 64 rows x 16 k, four loads a lane; B tile: 16 k x 16 vec4
        for (uint e = lin; e < 1024u; e += 256u) {
            uint r = e / 16u, q = e % 16u;
            sa[q][r] = a[(row0 + r) * k + k0 + q];
        }
        sb[ty][tx] = b4[(k0 + ty) * n4 + col0 / 4u + tx];
        barrier();
        for (uint q = 0u; q < 16u; q++) {
            vec4 bv = sb[q][tx];
            for (uint i = 0u; i < 4u; i++)
                acc[i] += sa[q][ty + 16u * i] * bv;
        }
        barrier();
    }
    for (uint i = 0u; i < 4u; i++)
        c4[(row0 + ty + 16u * i) * n4 + col0 / 4u + tx] = acc[i];
}
