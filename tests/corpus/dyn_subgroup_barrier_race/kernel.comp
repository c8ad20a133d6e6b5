#version 450
// Each invocation publishes a value and reads the mirror invocation's
// (63 - l), ordered only by subgroupBarrier(): the mirror sits in another
// subgroup for every subgroup size below 64.
#extension GL_KHR_shader_subgroup_basic : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { float dst[]; };
shared float t[64];
void main() {
    uint l = gl_LocalInvocationID.x;
    t[l] = float(l);
    subgroupBarrier();
    dst[gl_GlobalInvocationID.x] = t[63u - l];
}
