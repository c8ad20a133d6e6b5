#version 450
// Subgroup reduction: each invocation sums `per` elements (grid stride),
// subgroupAdd, partials per subgroup in workgroup memory, one write per
// workgroup.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer I { float src[]; };
layout(set = 0, binding = 1) writeonly buffer O { float dst[]; };
layout(push_constant) uniform P { uint n; uint per; };
shared float part[256];

void main() {
    uint stride = gl_NumWorkGroups.x * 256u;
    float acc = 0.0;
    for (uint k = 0u; k < per; k++) {
        uint i = gl_GlobalInvocationID.x + k * stride;
        if (i < n)
            acc += src[i];
    }
    acc = subgroupAdd(acc);
    if (subgroupElect())
        part[gl_SubgroupID] = acc;
    barrier();
    if (gl_LocalInvocationID.x == 0u) {
        float t = 0.0;
        for (uint k = 0u; k < gl_NumSubgroups; k++)
            t += part[k];
        dst[gl_WorkGroupID.x] = t;
    }
}
