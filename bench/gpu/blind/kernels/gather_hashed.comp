#version 450
// Blind set: hashed gathers: each invocation reads `per` table entries at
// indices from a murmur-style finaliser of (element, step), table size
// `tsize` (a power of two) chosen smaller or larger than the L2.
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer T { float table[]; };
layout(set = 0, binding = 1) writeonly buffer O { float dst[]; };
layout(push_constant) uniform P { uint n; uint tsize; uint per; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= n)
        return;
    float acc = 0.0;
    for (uint k = 0u; k < per; k++) {
        uint h = i * 0x01000193u + k * 0x9e3779b9u;
        h ^= h >> 16;
        h *= 0x85ebca6bu;
        h ^= h >> 13;
        acc += table[h & (tsize - 1u)];
    }
    dst[i] = acc;
}
