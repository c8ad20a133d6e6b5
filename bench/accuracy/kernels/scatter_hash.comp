#version 450
// Scatter through a hashed index: out[hash(i)] = in[i] (a permutation:
// every element written once, neighbouring lanes in different sectors).
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer I { float src[]; };
layout(set = 0, binding = 1) writeonly buffer O { float dst[]; };
layout(push_constant) uniform P { uint n; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < n)
        dst[(i * 2654435761u) & (n - 1u)] = src[i];
}
