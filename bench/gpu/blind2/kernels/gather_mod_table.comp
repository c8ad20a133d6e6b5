#version 450
// Blind set 2: hashed gathers: each lane sums `per` entries of a table of
// `tsize` floats at indices from an integer hash (xorshift-multiply) of
// its index, taken modulo the table size; workgroups of 128.
layout(local_size_x = 128) in;
layout(set = 0, binding = 0) readonly buffer T { float table[]; };
layout(set = 0, binding = 1) writeonly buffer O { float o[]; };
layout(push_constant) uniform P { uint n; uint tsize; uint per; };

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
    float acc = 0.0;
    for (uint j = 0u; j < per; j++)
        acc += table[hash(i * per + j) % tsize];
    o[i] = acc;
}
