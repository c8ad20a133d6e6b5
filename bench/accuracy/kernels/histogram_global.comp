#version 450
// Global-memory histogram: every element adds 1 to one of `bins` counters
// chosen by a hash of its index (a few hundred addresses, millions of
// atomics: contention, not traffic).
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer I { float src[]; };
layout(set = 0, binding = 1) buffer H { uint hist[]; };
layout(push_constant) uniform P { uint n; uint bins; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= n)
        return;
    uint b = ((i * 2654435761u) >> 16) % bins;
    atomicAdd(hist[b], src[i] > 2.0 ? 2u : 1u);
}
