#version 450
// 3-point stencil through shared memory; the halo (t[0], t[257]) is never loaded.
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer In { float src[]; };
layout(set = 0, binding = 1) writeonly buffer Out { float dst[]; };
shared float t[258];
void main() {
    uint l = gl_LocalInvocationID.x;
    uint i = gl_GlobalInvocationID.x;
    t[l + 1] = src[i];
    barrier();
    dst[i] = t[l] + t[l + 1] + t[l + 2];
}
