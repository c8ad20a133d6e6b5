#version 450
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
// Blind set 3: a reduction with atomics at the end on a few thousand
// addresses: a workgroup of 256 sums its chunk of 256 * per int16 values
// (lane-strided loads), each subgroup reduces with subgroupAdd and one
// lane adds it to the workgroup's segment total (workgroup mod segs,
// 3000 totals).
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer V { int16_t val[]; };
layout(set = 0, binding = 1) buffer T { int total[]; };
layout(push_constant) uniform P { uint n; uint per; uint segs; };

void main() {
    uint base = gl_WorkGroupID.x * 256u * per + gl_LocalInvocationID.x;
    int acc = 0;
    for (uint j = 0u; j < per; j++) {
        uint i = base + j * 256u;
        if (i < n)
            acc += int(val[i]);
    }
    acc = subgroupAdd(acc);
    if (subgroupElect())
        atomicAdd(total[gl_WorkGroupID.x % segs], acc);
}
