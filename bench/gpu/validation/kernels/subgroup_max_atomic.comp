#version 450
// Validation: one global atomic per subgroup on one address: each
// subgroup takes the maximum of `per` elements per lane with subgroupMax,
// one lane atomicMax-es it into a single word.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 128) in;
layout(set = 0, binding = 0) readonly buffer I { uint src[]; };
layout(set = 0, binding = 1) buffer O { uint best[]; };
layout(push_constant) uniform P { uint n; uint per; };

void main() {
    uint stride = gl_NumWorkGroups.x * 128u;
    for (uint k = 0u; k < per; k++) {
        uint i = gl_GlobalInvocationID.x + k * stride;
        uint v = i < n ? src[i] : 0u;
        uint m = subgroupMax(v);
        if (subgroupElect())
            atomicMax(best[0], m);
    }
}
