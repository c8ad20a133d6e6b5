#version 450
// Blind set: partial-sector writes: each invocation reads a vec4 and
// stores it as the first 16 B of its own 64-B record (the rest untouched).
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer I { vec4 src[]; };
layout(set = 0, binding = 1) writeonly buffer O { vec4 rec[]; };
layout(push_constant) uniform P { uint n; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < n)
        rec[i * 4u] = src[i] * 2.0;
}
