#version 450
// Validation: partial-sector writes: 8 bytes (a vec2) every 32 bytes,
// from a coalesced vec2 stream.
layout(local_size_x = 128) in;
layout(set = 0, binding = 0) readonly buffer I { vec2 src[]; };
layout(set = 0, binding = 1) writeonly buffer O { vec2 dst[]; };
layout(push_constant) uniform P { uint n; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < n)
        dst[i * 4u] = src[i] * 0.5 + 1.0;
}
