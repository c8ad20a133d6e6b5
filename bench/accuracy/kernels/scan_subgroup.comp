#version 450
// Scan with subgroup operations: subgroupInclusiveAdd within each
// subgroup, the subgroup totals scanned by one invocation in workgroup
// memory, one barrier pair per workgroup.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer I { float src[]; };
layout(set = 0, binding = 1) writeonly buffer O { float dst[]; };
shared float tot[256];

void main() {
    uint i = gl_GlobalInvocationID.x;
    float v = subgroupInclusiveAdd(src[i]);
    if (gl_SubgroupInvocationID == gl_SubgroupSize - 1u)
        tot[gl_SubgroupID] = v;
    barrier();
    if (gl_LocalInvocationID.x == 0u) {
        float carry = 0.0; // the subgroup totals, scanned (exclusive)
        for (uint k = 0u; k < gl_NumSubgroups; k++) {
            float t = tot[k];
            tot[k] = carry;
            carry += t;
        }
    }
    barrier();
    dst[i] = v + tot[gl_SubgroupID];
}
