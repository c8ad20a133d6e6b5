#version 450
// The 8-tap filter with a halo of 7 loaded: every tap reads a written element.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { float src[]; };
layout(set = 0, binding = 1) writeonly buffer Out { float dst[]; };
shared float t[72];
void main() {
    uint l = gl_LocalInvocationID.x;
    uint i = gl_GlobalInvocationID.x;
    t[l] = src[i];
    if (l < 7u)
        t[64u + l] = src[i + 64u];
    barrier();
    float s = 0.0;
    for (uint k = 0u; k < 8u; k++)
        s += t[l + k];
    dst[i] = s;
}
