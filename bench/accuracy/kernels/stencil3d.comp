#version 450
// 3-D 7-point stencil on a w x h x d grid; the boundary copies its input.
layout(local_size_x = 32, local_size_y = 4, local_size_z = 2) in;
layout(set = 0, binding = 0) readonly buffer I { float src[]; };
layout(set = 0, binding = 1) writeonly buffer O { float dst[]; };
layout(push_constant) uniform P { uint w; uint h; uint d; };

void main() {
    uint x = gl_GlobalInvocationID.x, y = gl_GlobalInvocationID.y, z = gl_GlobalInvocationID.z;
    if (x >= w || y >= h || z >= d)
        return;
    uint i = (z * h + y) * w + x;
    if (x == 0u || y == 0u || z == 0u || x == w - 1u || y == h - 1u || z == d - 1u) {
        dst[i] = src[i];
        return;
    }
    uint plane = w * h;
    dst[i] = 0.4 * src[i] + 0.1 * (src[i - 1u] + src[i + 1u] + src[i - w] + src[i + w] +
                                   src[i - plane] + src[i + plane]);
}
