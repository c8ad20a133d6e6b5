#version 450
// One atomic per subgroup: each subgroup sums its elements with subgroupAdd
// and one lane adds the sum to a single global counter.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer I { float src[]; };
layout(set = 0, binding = 1) buffer O { uint total[]; };
layout(push_constant) uniform P { uint n; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint v = i < n ? uint(src[i] * 8.0 + 8.0) : 0u;
    uint s = subgroupAdd(v);
    if (subgroupElect())
        atomicAdd(total[0], s);
}
