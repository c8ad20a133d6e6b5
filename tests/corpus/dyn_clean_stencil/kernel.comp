#version 450
// 5-point Jacobi stencil on a w x h grid; the boundary is copied.
layout(local_size_x = 16, local_size_y = 16) in;
layout(set = 0, binding = 0) readonly buffer In { float src[]; };
layout(set = 0, binding = 1) writeonly buffer Out { float dst[]; };
layout(push_constant) uniform Params { uint w; uint h; };

void main() {
    uint x = gl_GlobalInvocationID.x;
    uint y = gl_GlobalInvocationID.y;
    if (x >= w || y >= h)
        return;
    uint i = y * w + x;
    if (x == 0 || y == 0 || x == w - 1 || y == h - 1) {
        dst[i] = src[i];
        return;
    }
    dst[i] = 0.2 * (src[i] + src[i - 1] + src[i + 1] + src[i - w] + src[i + w]);
}
