#version 450
// Validation: hashed gather from a table of `tsize` floats (a power of
// two) through an index computed from the element and a xorshift, four
// gathers per invocation into one output.
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer T { float table[]; };
layout(set = 0, binding = 1) writeonly buffer O { float dst[]; };
layout(push_constant) uniform P { uint n; uint tsize; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= n)
        return;
    uint h = i * 0x2c1b3c6du;
    float acc = 0.0;
    for (uint k = 0u; k < 4u; k++) {
        h ^= h << 13;
        h ^= h >> 17;
        h ^= h << 5;
        acc += table[h & (tsize - 1u)];
    }
    dst[i] = acc;
}
