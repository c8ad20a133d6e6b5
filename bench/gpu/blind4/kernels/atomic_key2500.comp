#version 450
// Blind set 4: contended global atomics: every lane adds its key + 1 to
// one of `bins` (2500 on the H200) counters, the counter a hash of the
// lane and the key; 256 lanes a workgroup.
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer K { uint key[]; };
layout(set = 0, binding = 1) buffer C { uint cnt[]; };
layout(push_constant) uniform P { uint n; uint bins; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= n)
        return;
    uint k = key[i];
    uint h = (i * 0x9e3779b1u) ^ (k * 0x01000193u);
    h ^= h >> 15;
    h *= 0x2c1b3c6du;
    h ^= h >> 12;
    atomicAdd(cnt[h % bins], k + 1u);
}
