#version 450
// Probe (scan chain, gen_scanchain.py): the Blelloch tree of blind set 2's
// scan (512 uints, 256 lanes: up-sweep, top, down-sweep, a barrier before
// every level: 20 a pass) run `reps` times over the same workgroup memory,
// so that a group lives for reps x 20 dependent levels and the dispatch
// (132 R groups, one wave) sets R groups a unit. pad != 0 indexes the tree
// conflict-free (word i at i + i / 32): the chain without bank conflicts.
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer I { uint src[]; };
layout(set = 0, binding = 1) writeonly buffer O { uint dst[]; };
layout(push_constant) uniform P { uint reps; uint pad; };
shared uint t[528];
// FILL

uint at(uint i) { return i + ((i >> 5) & pad); }

void main() {
    uint l = gl_LocalInvocationID.x, base = gl_WorkGroupID.x * 512u;
    t[at(2u * l)] = src[base + 2u * l];
    t[at(2u * l + 1u)] = src[base + 2u * l + 1u];
    // FILL INIT
    for (uint r = 0u; r < reps; r++) {
        uint off = 1u;
        for (uint d = 256u; d > 0u; d >>= 1) {
            barrier();
            if (l < d)
                t[at(off * (2u * l + 2u) - 1u)] += t[at(off * (2u * l + 1u) - 1u)];
            off <<= 1;
        }
        barrier();
        if (l == 0u)
            t[at(511u)] = r;
        for (uint d = 1u; d < 512u; d <<= 1) {
            off >>= 1;
            barrier();
            if (l < d) {
                uint ai = at(off * (2u * l + 1u) - 1u), bi = at(off * (2u * l + 2u) - 1u);
                uint v = t[ai];
                t[ai] = t[bi];
                t[bi] += v;
            }
        }
        barrier();
    }
    // FILL USE
    dst[base + 2u * l] = t[at(2u * l)];
    dst[base + 2u * l + 1u] = t[at(2u * l + 1u)];
}
