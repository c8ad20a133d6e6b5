#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
// Blind set 3: stream compaction with one global atomic per subgroup on
// one counter: each lane tests its 8 consecutive samples (x > thresh),
// the subgroup prefix-sums the counts, one lane reserves the subgroup's
// slots with atomicAdd on the counter, and the lanes write the indices
// (+1) of their passing samples there (the slot wrapping at cap).
layout(local_size_x = 128) in;
layout(set = 0, binding = 0) readonly buffer S { vec4 s[]; };
layout(set = 0, binding = 1) buffer C { uint counter[]; };
layout(set = 0, binding = 2) writeonly buffer O { uint idx[]; };
layout(push_constant) uniform P { uint n8; uint cap; float thresh; };

void main() {
    uint t = gl_GlobalInvocationID.x;
    vec4 a = vec4(-2.0), b = vec4(-2.0);
    if (t < n8) {
        a = s[2u * t];
        b = s[2u * t + 1u];
    }
    bvec4 pa = greaterThan(a, vec4(thresh)), pb = greaterThan(b, vec4(thresh));
    uint mine = uint(pa.x) + uint(pa.y) + uint(pa.z) + uint(pa.w) +
                uint(pb.x) + uint(pb.y) + uint(pb.z) + uint(pb.w);
    uint before = subgroupExclusiveAdd(mine), all_ = subgroupAdd(mine);
    uint base = 0u;
    if (subgroupElect())
        base = atomicAdd(counter[0], all_);
    base = subgroupBroadcastFirst(base) + before;
    for (uint q = 0u; q < 8u; q++) {
        bool pass = q < 4u ? pa[q] : pb[q - 4u];
        if (pass) {
            idx[base % cap] = 8u * t + q + 1u;
            base++;
        }
    }
}
