#version 450
// Blind set: a sum reduction with subgroup operations: each lane sums
// `per` vec4 loads (grid stride), subgroupAdd, the subgroups' sums through
// workgroup memory, one partial per workgroup (no atomics).
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 512) in;
layout(set = 0, binding = 0) readonly buffer I { vec4 src[]; };
layout(set = 0, binding = 1) writeonly buffer O { float part[]; };
layout(push_constant) uniform P { uint n4; uint per; };
shared float sg[128];   // room for subgroups as small as 4 lanes

void main() {
    uint stride = gl_NumWorkGroups.x * 512u;
    vec4 acc = vec4(0.0);
    for (uint k = 0u; k < per; k++) {
        uint i = gl_GlobalInvocationID.x + k * stride;
        if (i < n4)
            acc += src[i];
    }
    float s = subgroupAdd(acc.x + acc.y + acc.z + acc.w);
    if (subgroupElect())
        sg[gl_SubgroupID] = s;
    barrier();
    if (gl_LocalInvocationID.x == 0u) {
        float t = 0.0;
        for (uint k = 0u; k < gl_NumSubgroups; k++)
            t += sg[k];
        part[gl_WorkGroupID.x] = t;
    }
}
