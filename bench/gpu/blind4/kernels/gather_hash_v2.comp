#version 450
// Blind set 4: hashed gathers beyond the L2: two vec2 reads a lane from a
// 256-MiB table (a power-of-two size), the indices hashed from the lane;
// 128 lanes a workgroup.
layout(local_size_x = 128) in;
layout(set = 0, binding = 0) readonly buffer T { vec2 tab[]; };
layout(set = 0, binding = 1) writeonly buffer O { float o[]; };
layout(push_constant) uniform P { uint n; uint mask; };

uint hash(uint x) {
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= n)
        return;
    uint h = hash(i);
    vec2 a = tab[h & mask];
    vec2 b = tab[hash(h + 0x632be5abu) & mask];
    o[i] = a.x * b.y - a.y * b.x;
}
