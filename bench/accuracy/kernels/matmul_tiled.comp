#version 450
// Tiled GEMM: C = A * B for n x n row-major matrices, 16x16 tiles in
// workgroup memory (a barrier inside the loop).
// n must be a multiple of 16.
layout(local_size_x = 16, local_size_y = 16) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) readonly buffer B { float b[]; };
layout(set = 0, binding = 2) writeonly buffer C { float c[]; };
layout(push_constant) uniform Params { uint n; };
shared float ta[16][16];
shared float tb[16][16];

void main() {
    uint row = gl_GlobalInvocationID.y;
    uint col = gl_GlobalInvocationID.x;
    uint ly = gl_LocalInvocationID.y;
    uint lx = gl_LocalInvocationID.x;
    float acc = 0.0;
    for (uint t = 0; t < n; t += 16) {
        ta[ly][lx] = a[row * n + t + lx];
        tb[ly][lx] = b[(t + ly) * n + col];
        barrier();
        for (uint k = 0; k < 16; ++k)
            acc += ta[ly][k] * tb[k][lx];
        barrier();
    }
    c[row * n + col] = acc;
}
