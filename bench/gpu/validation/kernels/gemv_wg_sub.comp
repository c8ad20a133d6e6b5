#version 450
// Validation: matrix-vector product, one 128-invocation workgroup per
// row, vec4 loads, subgroupAdd then a 4-entry shared combine.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 128) in;
layout(set = 0, binding = 0) readonly buffer A { vec4 a[]; };
layout(set = 0, binding = 1) readonly buffer X { vec4 x[]; };
layout(set = 0, binding = 2) writeonly buffer Y { float y[]; };
layout(push_constant) uniform P { uint cols4; };
shared float part[32];

void main() {
    uint l = gl_LocalInvocationID.x;
    uint base = gl_WorkGroupID.x * cols4;
    float acc = 0.0;
    for (uint c = l; c < cols4; c += 128u)
        acc += dot(a[base + c], x[c]);
    float s = subgroupAdd(acc);
    if (subgroupElect())
        part[gl_SubgroupID] = s;
    barrier();
    if (l == 0u) {
        float t = 0.0;
        for (uint k = 0u; k < gl_NumSubgroups; k++)
            t += part[k];
        y[gl_WorkGroupID.x] = t;
    }
}
