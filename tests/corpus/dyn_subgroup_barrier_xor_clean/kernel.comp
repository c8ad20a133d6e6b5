#version 450
// Pairs exchange through shared memory under subgroupBarrier(); the partner
// is l ^ 1 (the same subgroup).
#extension GL_KHR_shader_subgroup_basic : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { float y[]; };
shared float s[64];
void main() {
    uint l = gl_LocalInvocationID.x;
    s[l] = float(l);
    subgroupMemoryBarrierShared();
    subgroupBarrier();
    y[gl_GlobalInvocationID.x] = s[l ^ 1u];
}
