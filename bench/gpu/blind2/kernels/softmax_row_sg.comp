#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
// Blind set 2: softmax over rows of `cols` floats (1000: not a power of
// two), one workgroup of 128 a row, strided loops; the row max and sum are
// reduced with subgroup operations, then across subgroups in workgroup
// memory.
layout(local_size_x = 128) in;
layout(set = 0, binding = 0) readonly buffer I { float x[]; };
layout(set = 0, binding = 1) writeonly buffer O { float y[]; };
layout(push_constant) uniform P { uint cols; };
shared float part[128];

float wg_max(float v) {
    v = subgroupMax(v);
    if (subgroupElect())
        part[gl_SubgroupID] = v;
    barrier();
    float m = part[0];
    for (uint s = 1u; s < gl_NumSubgroups; s++)
        m = max(m, part[s]);
    barrier();
    return m;
}

float wg_sum(float v) {
    v = subgroupAdd(v);
    if (subgroupElect())
        part[gl_SubgroupID] = v;
    barrier();
    float t = 0.0;
    for (uint s = 0u; s < gl_NumSubgroups; s++)
        t += part[s];
    barrier();
    return t;
}

void main() {
    uint base = gl_WorkGroupID.x * cols, l = gl_LocalInvocationID.x;
    float m = -3.4e38;
    for (uint c = l; c < cols; c += 128u)
        m = max(m, x[base + c]);
    m = wg_max(m);
    float s = 0.0;
    for (uint c = l; c < cols; c += 128u)
        s += exp(x[base + c] - m);
    float inv = 1.0 / wg_sum(s);
    for (uint c = l; c < cols; c += 128u)
        y[base + c] = exp(x[base + c] - m) * inv;
}
