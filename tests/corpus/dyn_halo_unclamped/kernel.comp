#version 450
// A 3-point stencil straight from global memory; the left neighbour of
// element 0 is read as src[i - 1], which wraps below zero.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { float src[]; };
layout(set = 0, binding = 1) writeonly buffer Out { float dst[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    float right = src[min(i + 1u, 255u)];
    dst[i] = src[i - 1u] + src[i] + right;
}
