#version 450
// Probe (rows), written by gen_rows.py: rows of 256 K floats, one workgroup a row, K = 16 values a lane loaded
// before a max and a sum tree reduction.
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer I { float src[]; };
layout(set = 0, binding = 1) writeonly buffer O { float dst[]; };
shared float red[256];

float reduce_max(float v, uint l) {
    red[l] = v;
    barrier();
    for (uint s = 128u; s > 0u; s >>= 1) {
        if (l < s)
            red[l] = max(red[l], red[l + s]);
        barrier();
    }
    float r = red[0];
    barrier();
    return r;
}

float reduce_sum(float v, uint l) {
    red[l] = v;
    barrier();
    for (uint s = 128u; s > 0u; s >>= 1) {
        if (l < s)
            red[l] = red[l] + red[l + s];
        barrier();
    }
    float r = red[0];
    barrier();
    return r;
}

void main() {
    uint l = gl_LocalInvocationID.x;
    uint base = gl_WorkGroupID.x * 4096u;
    float v[16];
    for (uint k = 0u; k < 16u; k++)
        v[k] = src[base + k * 256u + l];
    float m = -3.0e38;
    for (uint k = 0u; k < 16u; k++)
        m = max(m, v[k]);
    m = reduce_max(m, l);
    float s = 0.0;
    for (uint k = 0u; k < 16u; k++) {
        v[k] = exp(v[k] - m);
        s += v[k];
    }
    float inv = 1.0 / reduce_sum(s, l);
    for (uint k = 0u; k < 16u; k++)
        dst[base + k * 256u + l] = v[k] * inv;
}
