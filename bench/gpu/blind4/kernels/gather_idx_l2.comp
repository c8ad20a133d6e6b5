#version 450
// Blind set 4: gathers whose index is read from a buffer: each lane reads
// two bucket ids (a uvec2, 16 buckets) and gathers one float from each
// bucket of a 32-MiB table (in the L2), the slot in the bucket hashed
// from the lane.
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer I { uvec2 ids[]; };
layout(set = 0, binding = 1) readonly buffer T { float tab[]; };
layout(set = 0, binding = 2) writeonly buffer O { float o[]; };
layout(push_constant) uniform P { uint n; uint shift; uint smask; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= n)
        return;
    uvec2 b = ids[i];
    uint s = (i * 0x9e3779b1u) >> 7;
    float x = tab[((b.x & 15u) << shift) | (s & smask)];
    float y = tab[((b.y & 15u) << shift) | ((s * 0x85ebca6bu + 1u) & smask)];
    o[i] = x + 0.5 * y;
}
