#version 450
// Blind set 4: tiled GEMM C = A B (float, row-major), 16 x 16 shared tiles
// of A and B, 16 x 16 lanes, one output a lane; k a multiple of 16.
layout(local_size_x = 16, local_size_y = 16) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) readonly buffer B { float b[]; };
layout(set = 0, binding = 2) writeonly buffer C { float c[]; };
layout(push_constant) uniform P { uint m; uint n; uint k; };
shared float As[16][16];
shared float Bs[16][16];

void main() {
    uint tx = gl_LocalInvocationID.x, ty = gl_LocalInvocationID.y;
    uint col = gl_WorkGroupID.x * 16u + tx, row = gl_WorkGroupID.y * 16u + ty;
    float acc = 0.0;
    for (uint k0 = 0u; k0 < k; k0 += 16u) {
        As[ty][tx] = row < m ? a[row * k + k0 + tx] : 0.0;
        Bs[ty][tx] = col < n ? b[(k0 + ty) * n + col] : 0.0;
        barrier();
        for (uint q = 0u; q < 16u; q++)
            acc += As[ty][q] * Bs[q][tx];
        barrier();
    }
    if (row < m && col < n)
        c[row * n + col] = acc;
}
