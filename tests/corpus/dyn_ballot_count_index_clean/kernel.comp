#version 450
// The number of active invocations of the subgroup (8) indexes a table of
// 9 counters (0 .. 8 possible).
#extension GL_KHR_shader_subgroup_ballot : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { uint y[]; };
shared uint cnt[9];
void main() {
    uint l = gl_LocalInvocationID.x;
    if (l < 9u)
        cnt[l] = 0u;
    barrier();
    uint n = subgroupBallotBitCount(subgroupBallot(true));
    atomicAdd(cnt[n], 1u);
    barrier();
    if (l == 0u)
        y[gl_WorkGroupID.x] = cnt[0];
}
