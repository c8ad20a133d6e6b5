#version 450
// The 3-point stencil with both neighbours clamped at the edges.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { float src[]; };
layout(set = 0, binding = 1) writeonly buffer Out { float dst[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    float right = src[min(i + 1u, 255u)];
    dst[i] = src[max(i, 1u) - 1u] + src[i] + right;
}
