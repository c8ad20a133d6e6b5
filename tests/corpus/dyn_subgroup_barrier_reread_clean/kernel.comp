#version 450
// A tree level inside one subgroup: every lane reads its neighbour's word,
// a subgroupBarrier() orders those reads, then each lane reads and
// rewrites its own word. The neighbour's earlier read is ordered before
// the write: no race (the record of readers restarts at the barrier).
#extension GL_KHR_shader_subgroup_basic : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { float dst[]; };
shared float t[64];
void main() {
    uint l = gl_LocalInvocationID.x;
    t[l] = float(l);
    subgroupBarrier();
    float n = t[l ^ 1u];
    subgroupBarrier();
    t[l] = t[l] + n;
    subgroupBarrier();
    dst[gl_GlobalInvocationID.x] = t[l ^ 1u];
}
