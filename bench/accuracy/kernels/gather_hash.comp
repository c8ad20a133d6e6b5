#version 450
// Gather through a hashed index: out[i] = in[hash(i)] (n a power of two;
// the multiplier is odd, so every element is read once, in scattered
// order: each lane of a subgroup in another sector).
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer I { float src[]; };
layout(set = 0, binding = 1) writeonly buffer O { float dst[]; };
layout(push_constant) uniform P { uint n; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < n)
        dst[i] = src[(i * 2654435761u) & (n - 1u)];
}
