#version 450
// Blind set 2: hashed gathers through a key buffer: each lane reads its
// key, hashes it with its index (FNV-1a style) and fetches `per` vec2
// entries of a table of `tsize` vec2, `step` entries apart (mod tsize);
// workgroups of 256.
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer K { uint key[]; };
layout(set = 0, binding = 1) readonly buffer T { vec2 table[]; };
layout(set = 0, binding = 2) writeonly buffer O { vec2 o[]; };
layout(push_constant) uniform P { uint n; uint tsize; uint per; uint step; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= n)
        return;
    uint h = 2166136261u;
    h = (h ^ key[i]) * 16777619u;
    h = (h ^ i) * 16777619u;
    h ^= h >> 13;
    h *= 0x5bd1e995u;
    h ^= h >> 15;
    vec2 acc = vec2(0.0);
    for (uint j = 0u; j < per; j++)
        acc += table[(h + j * step) % tsize];
    o[i] = acc;
}
