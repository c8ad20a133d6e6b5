#version 450
// Blind set 3: contended global atomics: each invocation makes 2..5
// atomicAdds (the count from its key: a runtime trip count) on `bins`
// (384) counters, the counter hashed from the lane, the iteration and the
// key's value; workgroups of 128.
layout(local_size_x = 128) in;
layout(set = 0, binding = 0) readonly buffer K { uint key[]; };
layout(set = 0, binding = 1) buffer C { uint count[]; };
layout(push_constant) uniform P { uint lanes; uint bins; };

void main() {
    uint t = gl_GlobalInvocationID.x;
    if (t >= lanes)
        return;
    uint kv = key[t], reps = 2u + (kv & 3u);
    for (uint j = 0u; j < reps; j++) {
        uint h = (t * 0x27d4eb2fu + j * 0x165667b1u) ^ (kv * 0x9e3779b1u);
        h ^= h >> 16;
        h *= 0x7feb352du;
        h ^= h >> 15;
        atomicAdd(count[h % bins], 1u + (kv >> 2));
    }
}
