#version 450
// Validation: 3-D 13-point stencil (radius 2 along each axis) on a
// w x h x d grid, 64 x 4 x 1 workgroups; a border of 2 copies its input.
layout(local_size_x = 64, local_size_y = 4, local_size_z = 1) in;
layout(set = 0, binding = 0) readonly buffer I { float src[]; };
layout(set = 0, binding = 1) writeonly buffer O { float dst[]; };
layout(push_constant) uniform P { uint w; uint h; uint d; };

void main() {
    uint x = gl_GlobalInvocationID.x, y = gl_GlobalInvocationID.y, z = gl_GlobalInvocationID.z;
    if (x >= w || y >= h || z >= d)
        return;
    uint i = (z * h + y) * w + x;
    if (x < 2u || y < 2u || z < 2u || x + 2u >= w || y + 2u >= h || z + 2u >= d) {
        dst[i] = src[i];
        return;
    }
    uint p = w * h;
    float near = src[i - 1u] + src[i + 1u] + src[i - w] + src[i + w] + src[i - p] + src[i + p];
    float far = src[i - 2u] + src[i + 2u] + src[i - 2u * w] + src[i + 2u * w] +
                src[i - 2u * p] + src[i + 2u * p];
    dst[i] = 0.5 * src[i] + 0.06 * near + 0.02 * far;
}
