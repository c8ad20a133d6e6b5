#version 450
// Blind set 3: gathers at indices hashed from a key buffer's contents
// (the key's float bits, then `per` steps of the hash), from a float table
// that fits the L2 (12 MiB); workgroups of 128.
layout(local_size_x = 128) in;
layout(set = 0, binding = 0) readonly buffer K { float key[]; };
layout(set = 0, binding = 1) readonly buffer T { float tab[]; };
layout(set = 0, binding = 2) writeonly buffer O { float o[]; };
layout(push_constant) uniform P { uint n; uint tsize; uint per; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= n)
        return;
    uint h = floatBitsToUint(key[i]);
    float acc = 0.0;
    for (uint j = 0u; j < per; j++) {
        h ^= h >> 16;
        h *= 0x85ebca6bu;
        h ^= h >> 13;
        h += 0x6a09e667u;
        acc += tab[h % tsize];
    }
    o[i] = acc;
}
