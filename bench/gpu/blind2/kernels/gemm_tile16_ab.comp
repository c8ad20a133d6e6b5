#version 450
// Blind set 2: tiled GEMM D = alpha A B + beta C for an m x k by k x n
// product, 16 x 16 tiles of A and B in workgroup memory, one output a lane,
// k from a push constant (a multiple of 16); 16 x 16 workgroups.
layout(local_size_x = 16, local_size_y = 16) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) readonly buffer B { float b[]; };
layout(set = 0, binding = 2) readonly buffer C { float c[]; };
layout(set = 0, binding = 3) writeonly buffer D { float d[]; };
layout(push_constant) uniform P { uint m; uint n; uint k; float alpha; float beta; };
shared float ta[16][16];
shared float tb[16][16];

void main() {
    uint tx = gl_LocalInvocationID.x, ty = gl_LocalInvocationID.y;
    uint col = gl_WorkGroupID.x * 16u + tx, row = gl_WorkGroupID.y * 16u + ty;
    float acc = 0.0;
    for (uint k0 = 0u; k0 < k; k0 += 16u) {
        ta[ty][tx] = a[row * k + k0 + tx];
        tb[ty][tx] = b[(k0 + ty) * n + col];
        barrier();
        for (uint q = 0u; q < 16u; q++)
            acc += ta[ty][q] * tb[q][tx];
        barrier();
    }
    d[row * n + col] = alpha * acc + beta * c[row * n + col];
}
