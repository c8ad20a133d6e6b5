#version 450
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
// Blind set 3: tiled GEMM C = A B^T (B stored n x k, as a linear layer's
// weights are), half-float inputs, fp32 accumulation and output: 16 x 32
// output tiles, 16 x 16 workgroups, two outputs a lane (columns 16
// apart), K in steps of 16 through padded workgroup-memory tiles (m a
// multiple of 16, n of 32, k of 16).
layout(local_size_x = 16, local_size_y = 16) in;
layout(set = 0, binding = 0) readonly buffer A { float16_t a[]; };
layout(set = 0, binding = 1) readonly buffer B { float16_t b[]; };
layout(set = 0, binding = 2) writeonly buffer C { float c[]; };
layout(push_constant) uniform P { uint m; uint n; uint k; };
shared float ta[16][17]; // ta[row][kk]
shared float tb[32][17]; // tb[col][kk]

void main() {
    uint tx = gl_LocalInvocationID.x, ty = gl_LocalInvocationID.y;
    uint r0 = gl_WorkGroupID.y * 16u, c0 = gl_WorkGroupID.x * 32u;
    float acc0 = 0.0, acc1 = 0.0;
    for (uint k0 = 0u; k0 < k; k0 += 16u) {
        ta[ty][tx] = float(a[(r0 + ty) * k + k0 + tx]);
        tb[ty][tx] = float(b[(c0 + ty) * k + k0 + tx]);
        tb[ty + 16u][tx] = float(b[(c0 + ty + 16u) * k + k0 + tx]);
        barrier();
        for (uint q = 0u; q < 16u; q++) {
            float av = ta[ty][q];
            acc0 += av * tb[tx][q];
            acc1 += av * tb[tx + 16u][q];
        }
        barrier();
    }
    c[(r0 + ty) * n + c0 + tx] = acc0;
    c[(r0 + ty) * n + c0 + tx + 16u] = acc1;
}
