#version 450
// Validation: tiled GEMM C = A B, n x n row-major, 32 x 32 tiles in
// workgroup memory, 32 x 8 invocations each computing 4 outputs of a column.
layout(local_size_x = 32, local_size_y = 8) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) readonly buffer B { float b[]; };
layout(set = 0, binding = 2) writeonly buffer C { float c[]; };
layout(push_constant) uniform P { uint n; };
shared float ta[32][33];
shared float tb[32][33];

void main() {
    uint lx = gl_LocalInvocationID.x, ly = gl_LocalInvocationID.y;
    uint col = gl_WorkGroupID.x * 32u + lx;
    uint row0 = gl_WorkGroupID.y * 32u;
    float acc[4] = float[4](0.0, 0.0, 0.0, 0.0);
    for (uint t = 0u; t < n; t += 32u) {
        for (uint j = 0u; j < 4u; j++) {
            uint r = ly + j * 8u;
            ta[r][lx] = a[(row0 + r) * n + t + lx];
            tb[r][lx] = b[(t + r) * n + col];
        }
        barrier();
        for (uint k = 0u; k < 32u; k++) {
            float bk = tb[k][lx];
            for (uint j = 0u; j < 4u; j++)
                acc[j] += ta[ly + j * 8u][k] * bk;
        }
        barrier();
    }
    for (uint j = 0u; j < 4u; j++)
        c[(row0 + ly + j * 8u) * n + col] = acc[j];
}
