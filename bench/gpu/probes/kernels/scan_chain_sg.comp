#version 450
// Probe (scan chain, gen_scanchain.py): scan_chain.comp's tree with the
// workgroup barriers left out where they are not needed: a level whose
// active lanes lie in the first subgroup (d <= subgroup size: up-sweep
// d <= 16, the top, down-sweep d <= 32 on the H200, 12 of the 20 levels a
// pass) is ordered by subgroupBarrier() alone (each subgroup orders only
// itself), one between the level's reads and its writes and one after it;
// the other 8 keep the workgroup barrier. Same shared accesses, same chain.
#extension GL_KHR_shader_subgroup_basic : require
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer I { uint src[]; };
layout(set = 0, binding = 1) writeonly buffer O { uint dst[]; };
layout(push_constant) uniform P { uint reps; uint pad; };
shared uint t[528];

uint at(uint i) { return i + ((i >> 5) & pad); }

// after a level whose writers are lanes < w: the next level may read
#define ORDER(w) if ((w) <= gl_SubgroupSize) subgroupBarrier(); else barrier()
// between a level's reads and its writes, where only a subgroup orders it
#define SPLIT(d) if ((d) <= gl_SubgroupSize) subgroupBarrier()

void main() {
    uint l = gl_LocalInvocationID.x, base = gl_WorkGroupID.x * 512u;
    t[at(2u * l)] = src[base + 2u * l];
    t[at(2u * l + 1u)] = src[base + 2u * l + 1u];
    for (uint r = 0u; r < reps; r++) {
        uint off = 1u;
        barrier();
        for (uint d = 256u; d > 0u; d >>= 1) {
            uint ai = at(off * (2u * l + 1u) - 1u), bi = at(off * (2u * l + 2u) - 1u);
            uint a = 0u, b = 0u;
            if (l < d) {
                a = t[ai];
                b = t[bi];
            }
            SPLIT(d);
            if (l < d)
                t[bi] = a + b;
            off <<= 1;
            ORDER(d);
        }
        if (l == 0u)
            t[at(511u)] = r;
        ORDER(1u);
        for (uint d = 1u; d < 512u; d <<= 1) {
            off >>= 1;
            uint ai = at(off * (2u * l + 1u) - 1u), bi = at(off * (2u * l + 2u) - 1u);
            uint v = 0u, u = 0u;
            if (l < d) {
                v = t[ai];
                u = t[bi];
            }
            SPLIT(d);
            if (l < d) {
                t[ai] = u;
                t[bi] = u + v;
            }
            // the next level's lanes (2 d) read what these wrote
            ORDER(2u * d);
        }
    }
    barrier();
    dst[base + 2u * l] = t[at(2u * l)];
    dst[base + 2u * l + 1u] = t[at(2u * l + 1u)];
}
