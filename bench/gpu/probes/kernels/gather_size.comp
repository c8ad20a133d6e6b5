#version 450
// Probe (memory): four hashed 4-byte gathers an invocation from a table of
// `tsize` floats (xorshift index, % tsize). Swept over table sizes around
// the L2's capacity, the time says which share of the gathers L2 serves.
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer T { float table[]; };
layout(set = 0, binding = 1) writeonly buffer O { float dst[]; };
layout(push_constant) uniform P { uint n; uint tsize; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= n)
        return;
    uint h = i * 0x2c1b3c6du + 0x9e3779b9u;
    float acc = 0.0;
    for (uint k = 0u; k < 4u; k++) {
        h ^= h << 13;
        h ^= h >> 17;
        h ^= h << 5;
        acc += table[h % tsize];
    }
    dst[i] = acc;
}
