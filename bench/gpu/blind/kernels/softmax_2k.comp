#version 450
// Blind set: row-wise softmax over rows of 2048 floats, one workgroup of
// 256 per row, eight values a lane kept in registers, max and sum reduced
// through workgroup memory (a tree of barriers, no subgroup operations).
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer I { float src[]; };
layout(set = 0, binding = 1) writeonly buffer O { float dst[]; };
layout(push_constant) uniform P { uint cols; };
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
            red[l] += red[l + s];
        barrier();
    }
    float r = red[0];
    barrier();
    return r;
}

void main() {
    uint l = gl_LocalInvocationID.x;
    uint base = gl_WorkGroupID.x * cols;
    float v[8];
    float m = -3.0e38;
    for (uint k = 0u; k < 8u; k++) {
        v[k] = src[base + k * 256u + l];
        m = max(m, v[k]);
    }
    m = reduce_max(m, l);
    float s = 0.0;
    for (uint k = 0u; k < 8u; k++) {
        v[k] = exp(v[k] - m);
        s += v[k];
    }
    float inv = 1.0 / reduce_sum(s, l);
    for (uint k = 0u; k < 8u; k++)
        dst[base + k * 256u + l] = v[k] * inv;
}
