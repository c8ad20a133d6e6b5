#version 450
// Blind set: contended global atomics: each invocation adds its `per`
// input values (as integers) to one of `bins` (a few hundred, not a power
// of two) counters picked by a multiplicative hash of the element index.
layout(local_size_x = 128) in;
layout(set = 0, binding = 0) readonly buffer I { float src[]; };
layout(set = 0, binding = 1) buffer C { uint cnt[]; };
layout(push_constant) uniform P { uint n; uint bins; uint per; };

void main() {
    uint stride = gl_NumWorkGroups.x * 128u;
    for (uint k = 0u; k < per; k++) {
        uint i = gl_GlobalInvocationID.x + k * stride;
        if (i >= n)
            return;
        uint b = ((i * 2654435761u) >> 7) % bins;
        atomicAdd(cnt[b], uint(src[i] * 4.0 + 5.0));
    }
}
