#version 450
// Probe (scan chain, gen_scanchain.py): scan_chain.comp's 20 barrier-
// separated levels a pass with the tree's active lanes (256, 128 .. 1, 1,
// 1 .. 256) but each active lane adding to its own word (no bank conflict,
// no data from another lane): the barriers and one shared round trip a
// level, without the tree's strided passes.
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer I { uint src[]; };
layout(set = 0, binding = 1) writeonly buffer O { uint dst[]; };
layout(push_constant) uniform P { uint reps; uint pad; };
shared uint t[256];

void main() {
    uint l = gl_LocalInvocationID.x, base = gl_WorkGroupID.x * 512u;
    t[l] = src[base + 2u * l] + pad;
    for (uint r = 0u; r < reps; r++) {
        for (uint d = 256u; d > 0u; d >>= 1) {
            barrier();
            if (l < d)
                t[l] += r;
        }
        barrier();
        if (l == 0u)
            t[0] += 1u;
        for (uint d = 1u; d < 512u; d <<= 1) {
            barrier();
            if (l < d)
                t[l] += d;
        }
        barrier();
    }
    dst[base + 2u * l] = t[l];
    dst[base + 2u * l + 1u] = 0u;
}
