#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
// Blind set 2: matrix-vector by workgroup: one workgroup of 96 lanes per
// row of 4 * cols4 floats (3072), vec4 loads, subgroupAdd, then the
// subgroups' partial sums in workgroup memory.
layout(local_size_x = 96) in;
layout(set = 0, binding = 0) readonly buffer A { vec4 a[]; };
layout(set = 0, binding = 1) readonly buffer X { vec4 x[]; };
layout(set = 0, binding = 2) writeonly buffer Y { float y[]; };
layout(push_constant) uniform P { uint cols4; float alpha; };
shared float part[96];

void main() {
    uint row = gl_WorkGroupID.x, l = gl_LocalInvocationID.x;
    float acc = 0.0;
    for (uint c = l; c < cols4; c += 96u)
        acc += dot(a[row * cols4 + c], x[c]);
    acc = subgroupAdd(acc);
    if (subgroupElect())
        part[gl_SubgroupID] = acc;
    barrier();
    if (l == 0u) {
        float t = 0.0;
        for (uint s = 0u; s < gl_NumSubgroups; s++)
            t += part[s];
        y[row] = alpha * t;
    }
}
