#version 450
// An 8-tap filter reading t[l + k]; the halo after the 64 loaded elements
// is only 4 long, so taps k >= 4 of the last invocations read elements
// 68-70 that nothing wrote.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { float src[]; };
layout(set = 0, binding = 1) writeonly buffer Out { float dst[]; };
shared float t[72];
void main() {
    uint l = gl_LocalInvocationID.x;
    uint i = gl_GlobalInvocationID.x;
    t[l] = src[i];
    if (l < 4u)
        t[64u + l] = src[i + 64u];
    barrier();
    float s = 0.0;
    for (uint k = 0u; k < 8u; k++)
        s += t[l + k];
    dst[i] = s;
}
