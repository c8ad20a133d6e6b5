#version 450
// Probe (rows), written by gen_rows.py: K = 8 values a lane loaded, one barrier, stored scaled: the
// loads in flight without a reduction's path.
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer I { float src[]; };
layout(set = 0, binding = 1) writeonly buffer O { float dst[]; };
shared float red[256];

void main() {
    uint l = gl_LocalInvocationID.x;
    uint base = gl_WorkGroupID.x * 2048u;
    float v[8];
    for (uint k = 0u; k < 8u; k++)
        v[k] = src[base + k * 256u + l];
    barrier();
    for (uint k = 0u; k < 8u; k++)
        dst[base + k * 256u + l] = v[k] * 0.5;
}
