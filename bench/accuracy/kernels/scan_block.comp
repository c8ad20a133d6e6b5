#version 450
// Block scan: inclusive prefix sum of 256 elements per workgroup in
// workgroup memory (Hillis-Steele, double-buffered: 8 steps, 8 barriers).
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer I { float src[]; };
layout(set = 0, binding = 1) writeonly buffer O { float dst[]; };
shared float buf[2][256];

void main() {
    uint l = gl_LocalInvocationID.x;
    uint i = gl_GlobalInvocationID.x;
    buf[0][l] = src[i];
    barrier();
    uint cur = 0u;
    for (uint off = 1u; off < 256u; off <<= 1) {
        float v = buf[cur][l];
        if (l >= off)
            v += buf[cur][l - off];
        buf[cur ^ 1u][l] = v;
        cur ^= 1u;
        barrier();
    }
    dst[i] = buf[cur][l];
}
