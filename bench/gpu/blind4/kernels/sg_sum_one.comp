#version 450
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_basic : require
// Blind set 4: an integer total: each lane sums `per` ivec4 a grid apart,
// subgroupAdd, and one atomicAdd per subgroup on a single address;
// 128 lanes a workgroup.
layout(local_size_x = 128) in;
layout(set = 0, binding = 0) readonly buffer V { ivec4 v[]; };
layout(set = 0, binding = 1) buffer T { int total[]; };
layout(push_constant) uniform P { uint n4; uint per; };

void main() {
    uint lanes = gl_NumWorkGroups.x * 128u;
    int s = 0;
    for (uint k = 0u; k < per; k++) {
        uint j = gl_GlobalInvocationID.x + k * lanes;
        if (j < n4) {
            ivec4 q = v[j];
            s += q.x + q.y + q.z + q.w;
        }
    }
    s = subgroupAdd(s);
    if (subgroupElect())
        atomicAdd(total[0], s);
}
