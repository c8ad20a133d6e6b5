#version 450
// Only the first subgroup does the exchange; its subgroupBarrier() is in
// subgroup-uniform flow, which is allowed (only the active invocations of
// a subgroup take part in a subgroup barrier).
#extension GL_KHR_shader_subgroup_basic : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { float dst[]; };
shared float t[64];
void main() {
    uint l = gl_LocalInvocationID.x;
    if (gl_SubgroupID == 0u) {
        t[l] = float(l);
        subgroupBarrier();
        dst[gl_GlobalInvocationID.x] = t[l ^ 1u];
    }
}
