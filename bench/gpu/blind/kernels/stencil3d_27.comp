#version 450
// Blind set: 3-D 27-point stencil (all neighbours within 1, weighted by
// distance class) over the interior of a w x h x d grid; boundary cells
// copied; 32 x 4 x 2 workgroups.
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
    const float wc[4] = float[4](0.4, 0.05, 0.02, 0.01);
    float acc = 0.0;
    for (int dz = -1; dz <= 1; dz++)
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) {
                int j = int(i) + (dz * int(h) + dy) * int(w) + dx;
                acc += wc[abs(dx) + abs(dy) + abs(dz)] * src[j];
            }
    dst[i] = acc;
}
