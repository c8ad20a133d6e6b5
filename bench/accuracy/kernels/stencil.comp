#version 450
// 5-point stencil on a w x h grid, boundary cells copied.
layout(local_size_x = 16, local_size_y = 16) in;
layout(set = 0, binding = 0) readonly buffer In { float u[]; };
layout(set = 0, binding = 1) writeonly buffer Out { float v[]; };
layout(push_constant) uniform Params { uint w; uint h; };

void main() {
    uint x = gl_GlobalInvocationID.x, y = gl_GlobalInvocationID.y;
    if (x >= w || y >= h)
        return;
    uint i = y * w + x;
    if (x == 0 || y == 0 || x == w - 1 || y == h - 1) {
        v[i] = u[i];
        return;
    }
    v[i] = 0.25 * (u[i - 1] + u[i + 1] + u[i - w] + u[i + w]) - u[i];
}
