#version 450
// The same level without the barrier between the neighbour's read and the
// rewrite: lane l ^ 1 may still be reading t[l] when lane l writes it.
#extension GL_KHR_shader_subgroup_basic : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { float dst[]; };
shared float t[64];
void main() {
    uint l = gl_LocalInvocationID.x;
    t[l] = float(l);
    subgroupBarrier();
    float n = t[l ^ 1u];
    t[l] = t[l] + n;
    subgroupBarrier();
    dst[gl_GlobalInvocationID.x] = t[l ^ 1u];
}
