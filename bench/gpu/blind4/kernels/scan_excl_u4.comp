#version 450
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_basic : require
// Blind set 4: exclusive scan of uint within blocks of 2048 (512 lanes, a
// uvec4 a lane): the lane's 4 values serially, subgroupExclusiveAdd over
// the lanes' sums, the subgroup totals scanned by one lane in workgroup
// memory; the block's total is written beside.
layout(local_size_x = 512) in;
layout(set = 0, binding = 0) readonly buffer I { uvec4 inp[]; };
layout(set = 0, binding = 1) writeonly buffer O { uvec4 outp[]; };
layout(set = 0, binding = 2) writeonly buffer T { uint totals[]; };
shared uint sgsum[128];

void main() {
    uint g = gl_GlobalInvocationID.x;
    uvec4 v = inp[g];
    uvec4 ex = uvec4(0u, v.x, v.x + v.y, v.x + v.y + v.z);
    uint mine = ex.w + v.w;
    uint before = subgroupExclusiveAdd(mine);
    if (gl_SubgroupInvocationID == gl_SubgroupSize - 1u)
        sgsum[gl_SubgroupID] = before + mine;
    barrier();
    if (gl_LocalInvocationID.x == 0u) {
        uint run = 0u;
        for (uint j = 0u; j < gl_NumSubgroups; j++) {
            uint t = sgsum[j];
            sgsum[j] = run;
            run += t;
        }
        totals[gl_WorkGroupID.x] = run;
    }
    barrier();
    outp[g] = ex + (before + sgsum[gl_SubgroupID]);
}
