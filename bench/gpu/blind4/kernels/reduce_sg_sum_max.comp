#version 450
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_basic : require
// Blind set 4: a subgroup reduction: 256 lanes a workgroup stride over the
// grid reading vec4, accumulating the sum and the largest magnitude;
// subgroupAdd / subgroupMax, the subgroups' results combined by one lane,
// a (sum, max) pair a workgroup.
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer V { vec4 v[]; };
layout(set = 0, binding = 1) writeonly buffer R { vec2 part[]; };
layout(push_constant) uniform P { uint n4; };
shared vec2 sg[64];

void main() {
    uint stride = gl_NumWorkGroups.x * 256u;
    float s = 0.0, m = 0.0;
    for (uint i = gl_GlobalInvocationID.x; i < n4; i += stride) {
        vec4 q = v[i];
        s += (q.x + q.y) + (q.z + q.w);
        vec4 a = abs(q);
        m = max(m, max(max(a.x, a.y), max(a.z, a.w)));
    }
    s = subgroupAdd(s);
    m = subgroupMax(m);
    if (subgroupElect())
        sg[gl_SubgroupID] = vec2(s, m);
    barrier();
    if (gl_LocalInvocationID.x == 0u) {
        vec2 t = sg[0];
        for (uint j = 1u; j < gl_NumSubgroups; j++)
            t = vec2(t.x + sg[j].x, max(t.y, sg[j].y));
        part[gl_WorkGroupID.x] = t;
    }
}
