#version 450
// Blind set 2: contended global atomics: each lane adds `per` weights to
// counters picked by a multiplicative hash of its element index and key,
// over `bins` counters (256: a few hundred addresses for millions of
// atomics); workgroups of 64.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer K { uint key[]; };
layout(set = 0, binding = 1) buffer C { uint counter[]; };
layout(push_constant) uniform P { uint lanes; uint per; uint bins; };

void main() {
    uint t = gl_GlobalInvocationID.x;
    if (t >= lanes)
        return;
    uint k = key[t];
    for (uint j = 0u; j < per; j++) {
        uint e = t * per + j;
        uint h = (e * 2246822519u) ^ (k * 374761393u);
        h ^= h >> 15;
        atomicAdd(counter[h % bins], 1u + (k & 3u));
    }
}
