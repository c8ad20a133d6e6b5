#version 450
// Blind set: counting matches with one global atomic per subgroup on one
// address: each step a subgroup ballots "value above the threshold" and
// one elected lane adds the ballot's bit count to the single counter.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer I { float src[]; };
layout(set = 0, binding = 1) buffer C { uint count[]; };
layout(push_constant) uniform P { uint n; uint per; float threshold; };

void main() {
    uint stride = gl_NumWorkGroups.x * 256u;
    for (uint k = 0u; k < per; k++) {
        uint i = gl_GlobalInvocationID.x + k * stride;
        bool hit = i < n && src[i] > threshold;
        uint c = subgroupBallotBitCount(subgroupBallot(hit));
        if (subgroupElect())
            atomicAdd(count[0], c);
    }
}
