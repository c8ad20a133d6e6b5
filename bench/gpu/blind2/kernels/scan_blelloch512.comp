#version 450
// Blind set 2: work-efficient (Blelloch) exclusive scan of 512 uints per
// workgroup of 256 lanes in workgroup memory (up-sweep, down-sweep), two
// elements a lane; each block's total goes to a second buffer.
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer I { uint src[]; };
layout(set = 0, binding = 1) writeonly buffer O { uint dst[]; };
layout(set = 0, binding = 2) writeonly buffer T { uint totals[]; };
shared uint t[512];

void main() {
    uint l = gl_LocalInvocationID.x, base = gl_WorkGroupID.x * 512u;
    t[2u * l] = src[base + 2u * l];
    t[2u * l + 1u] = src[base + 2u * l + 1u];
    uint off = 1u;
    for (uint d = 256u; d > 0u; d >>= 1) {
        barrier();
        if (l < d)
            t[off * (2u * l + 2u) - 1u] += t[off * (2u * l + 1u) - 1u];
        off <<= 1;
    }
    barrier();
    if (l == 0u) {
        totals[gl_WorkGroupID.x] = t[511];
        t[511] = 0u;
    }
    for (uint d = 1u; d < 512u; d <<= 1) {
        off >>= 1;
        barrier();
        if (l < d) {
            uint ai = off * (2u * l + 1u) - 1u, bi = off * (2u * l + 2u) - 1u;
            uint v = t[ai];
            t[ai] = t[bi];
            t[bi] += v;
        }
    }
    barrier();
    dst[base + 2u * l] = t[2u * l];
    dst[base + 2u * l + 1u] = t[2u * l + 1u];
}
