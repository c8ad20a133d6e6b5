#version 450
// Blind set 3: launch probe: a 2 x 2 x 2 grid of 4 x 4 x 4 workgroups
// over an 8 x 8 x 8 volume, clamp(2 v, -1, 1).
layout(local_size_x = 4, local_size_y = 4, local_size_z = 4) in;
layout(set = 0, binding = 0) readonly buffer V { float v[]; };
layout(set = 0, binding = 1) writeonly buffer W { float w[]; };

void main() {
    uvec3 g = gl_GlobalInvocationID;
    uint i = (g.z * 8u + g.y) * 8u + g.x;
    w[i] = clamp(2.0 * v[i], -1.0, 1.0);
}
