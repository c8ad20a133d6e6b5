#version 450
// RMS norm with subgroup reductions: each subgroup sums its squares with
// subgroupAdd, one lane per subgroup writes a partial to workgroup memory,
// the first subgroup adds the partials; then x * rsqrt(mean square) * w.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) writeonly buffer Y { float y[]; };
layout(set = 0, binding = 2) readonly buffer W { float w[]; };
layout(push_constant) uniform P { uint cols; };
shared float part[256];

void main() {
    uint l = gl_LocalInvocationID.x;
    uint base = gl_WorkGroupID.x * cols;
    float ss = 0.0;
    for (uint c = l; c < cols; c += 256u) {
        float v = x[base + c];
        ss += v * v;
    }
    ss = subgroupAdd(ss);
    if (subgroupElect())
        part[gl_SubgroupID] = ss;
    barrier();
    if (gl_SubgroupID == 0u) {
        float t = 0.0;
        for (uint k = gl_SubgroupInvocationID; k < gl_NumSubgroups; k += gl_SubgroupSize)
            t += part[k];
        t = subgroupAdd(t);
        if (subgroupElect())
            part[0] = t;
    }
    barrier();
    float r = inversesqrt(part[0] / float(cols) + 1e-5);
    for (uint c = l; c < cols; c += 256u)
        y[base + c] = x[base + c] * r * w[c];
}
