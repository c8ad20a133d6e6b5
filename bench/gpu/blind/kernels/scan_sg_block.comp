#version 450
// Blind set: a block-wise inclusive scan of 1024 elements per workgroup of
// 256 (four a lane, scanned in registers), the lane totals scanned with
// subgroupInclusiveAdd and the subgroup totals through workgroup memory;
// block totals written for a second pass.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer I { uint src[]; };
layout(set = 0, binding = 1) writeonly buffer O { uint dst[]; };
layout(set = 0, binding = 2) writeonly buffer T { uint totals[]; };
shared uint sums[64];    // room for subgroups as small as 4 lanes

void main() {
    uint l = gl_LocalInvocationID.x;
    uint base = gl_WorkGroupID.x * 1024u + l * 4u;
    uvec4 v = uvec4(src[base], src[base + 1u], src[base + 2u], src[base + 3u]) & 255u;
    v.y += v.x;
    v.z += v.y;
    v.w += v.z;
    uint incl = subgroupInclusiveAdd(v.w);
    if (gl_SubgroupInvocationID == gl_SubgroupSize - 1u)
        sums[gl_SubgroupID] = incl;
    barrier();
    uint before = 0u;
    for (uint k = 0u; k < gl_SubgroupID; k++)
        before += sums[k];
    uint off = before + incl - v.w;
    dst[base] = off + v.x;
    dst[base + 1u] = off + v.y;
    dst[base + 2u] = off + v.z;
    dst[base + 3u] = off + v.w;
    if (l == 255u)
        totals[gl_WorkGroupID.x] = off + v.w;
}
