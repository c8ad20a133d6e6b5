#version 450
// Validation: contended global atomics: every invocation adds `per` times
// to one of `bins` counters (a few hundred), chosen by a hash of its index
// and the step.
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) buffer C { uint cnt[]; };
layout(push_constant) uniform P { uint bins; uint per; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    for (uint k = 0u; k < per; k++) {
        uint h = (i ^ (k * 0x9e3779b9u)) * 0x85ebca6bu;
        atomicAdd(cnt[(h >> 13) % bins], 1u);
    }
}
