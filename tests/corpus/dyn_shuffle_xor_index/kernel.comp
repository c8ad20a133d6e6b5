#version 450
// The partner's index from subgroupShuffleXor(l, 1) reads shared memory at partner + 1.
#extension GL_KHR_shader_subgroup_shuffle : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { float y[]; };
shared float s[64];
void main() {
    uint l = gl_LocalInvocationID.x;
    s[l] = float(l);
    barrier();
    uint p = subgroupShuffleXor(l, 1u);
    y[gl_GlobalInvocationID.x] = s[p + 1u];
}
