#version 450
// Tile edge from a spec constant: 16 by default (1 KiB), 128 in the plan (64 KiB).
layout(local_size_x = 16, local_size_y = 16) in;
layout(constant_id = 1) const uint TILE = 16;
layout(set = 0, binding = 0) buffer M { float m[]; };
shared float t[TILE * TILE];

void main() {
    uint lx = gl_LocalInvocationID.x, ly = gl_LocalInvocationID.y;
    t[ly * TILE + lx] = m[gl_GlobalInvocationID.y * 64 + gl_GlobalInvocationID.x];
    barrier();
    m[gl_GlobalInvocationID.y * 64 + gl_GlobalInvocationID.x] = t[lx * TILE + ly];
}
