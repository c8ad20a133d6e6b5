#version 450
// The same exchange with a workgroup barrier(): in flow that only the first
// subgroup takes, the other subgroups never reach it.
#extension GL_KHR_shader_subgroup_basic : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { float dst[]; };
shared float t[64];
void main() {
    uint l = gl_LocalInvocationID.x;
    if (gl_SubgroupID == 0u) {
        t[l] = float(l);
        barrier();
        dst[gl_GlobalInvocationID.x] = t[l ^ 1u];
    }
}
