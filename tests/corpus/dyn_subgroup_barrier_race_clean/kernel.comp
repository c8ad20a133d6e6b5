#version 450
// The pairwise exchange stays inside a subgroup (l ^ 1), so subgroupBarrier()
// with its shared-memory semantics orders it.
#extension GL_KHR_shader_subgroup_basic : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { float dst[]; };
shared float t[64];
void main() {
    uint l = gl_LocalInvocationID.x;
    t[l] = float(l);
    subgroupBarrier();
    dst[gl_GlobalInvocationID.x] = t[l ^ 1u];
}
