#version 450
// Validation: row-wise softmax over long rows, one 512-invocation
// workgroup per row, subgroup reductions then a small tree over subgroups.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 512) in;
layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) writeonly buffer Y { float y[]; };
layout(push_constant) uniform P { uint cols; };
shared float part[64];

float group_reduce(float v, bool is_max) {
    float s = is_max ? subgroupMax(v) : subgroupAdd(v);
    if (subgroupElect())
        part[gl_SubgroupID] = s;
    barrier();
    float r = part[0];
    for (uint k = 1u; k < gl_NumSubgroups; k++)
        r = is_max ? max(r, part[k]) : r + part[k];
    barrier();
    return r;
}

void main() {
    uint l = gl_LocalInvocationID.x;
    uint base = gl_WorkGroupID.x * cols;
    float m = -3.0e38;
    for (uint c = l; c < cols; c += 512u)
        m = max(m, x[base + c]);
    m = group_reduce(m, true);
    float s = 0.0;
    for (uint c = l; c < cols; c += 512u)
        s += exp(x[base + c] - m);
    float inv = 1.0 / group_reduce(s, false);
    for (uint c = l; c < cols; c += 512u)
        y[base + c] = exp(x[base + c] - m) * inv;
}
