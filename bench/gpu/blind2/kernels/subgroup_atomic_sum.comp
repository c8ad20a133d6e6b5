#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
// Blind set 2: one global atomic per subgroup on one address: each lane
// quantises `per` samples (grid stride), the subgroup sums them with
// subgroupAdd and one elected lane adds the sum to a single total;
// workgroups of 128.
layout(local_size_x = 128) in;
layout(set = 0, binding = 0) readonly buffer S { float s[]; };
layout(set = 0, binding = 1) buffer T { uint total[]; };
layout(push_constant) uniform P { uint n; uint per; float gain; };

void main() {
    uint stride = gl_NumWorkGroups.x * 128u;
    uint mine = 0u;
    for (uint j = 0u; j < per; j++) {
        uint i = gl_GlobalInvocationID.x + j * stride;
        if (i < n)
            mine += uint(abs(s[i]) * gain);
    }
    uint sum = subgroupAdd(mine);
    if (subgroupElect())
        atomicAdd(total[0], sum);
}
