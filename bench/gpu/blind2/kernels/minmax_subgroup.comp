#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
// Blind set 2: min and max of n floats: a grid-stride loop with vec2
// loads, subgroupMin / subgroupMax, then the subgroups' results in
// workgroup memory; one (min, max) pair per workgroup of 256.
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer I { vec2 v[]; };
layout(set = 0, binding = 1) writeonly buffer O { vec2 o[]; };
layout(push_constant) uniform P { uint n2; };
shared vec2 part[256];

void main() {
    uint stride = gl_NumWorkGroups.x * 256u;
    float lo = 3.4e38, hi = -3.4e38;
    for (uint i = gl_GlobalInvocationID.x; i < n2; i += stride) {
        vec2 e = v[i];
        lo = min(lo, min(e.x, e.y));
        hi = max(hi, max(e.x, e.y));
    }
    lo = subgroupMin(lo);
    hi = subgroupMax(hi);
    if (subgroupElect())
        part[gl_SubgroupID] = vec2(lo, hi);
    barrier();
    if (gl_LocalInvocationID.x == 0u) {
        vec2 r = part[0];
        for (uint s = 1u; s < gl_NumSubgroups; s++)
            r = vec2(min(r.x, part[s].x), max(r.y, part[s].y));
        o[gl_WorkGroupID.x] = r;
    }
}
