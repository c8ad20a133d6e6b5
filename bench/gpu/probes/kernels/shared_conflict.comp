#version 450
// Probe (shared conflicts, gen_sharedconf.py): each 32-lane warp owns 1024
// words of workgroup memory (32 rows x 32 banks); in each of 32 unrolled
// steps a trip, lane i stores (LOAD = 0) or loads (LOAD = 1) one of its own
// words, the 32 lanes on 32 / K banks, K lanes a bank: a K-way conflict
// (K = 1 << SK). Step j puts lane i = (a, c) (a = i / K, c = i % K) at row
// c + K (j % (32 / K)), bank a + (32 / K) ((j / (32 / K)) % K): over the 32
// steps every lane writes 32 words of its own, no two lanes the same word,
// and a step's address is the lane's base plus a constant. `zero` is 0 at
// run time: it keeps the trips' addresses from being proven invariant.
layout(local_size_x = 256) in;
layout(constant_id = 0) const uint SK = 0u;
layout(constant_id = 1) const uint LOAD = 0u;
layout(set = 0, binding = 0) writeonly buffer O { uint dst[]; };
layout(push_constant) uniform P { uint reps; uint zero; };
shared uint t[8192];

const uint K = 1u << SK, SM = 5u - SK;

uint off(uint j) {
    return ((j & ((1u << SM) - 1u)) << (SK + 5u)) + (((j >> SM) & (K - 1u)) << SM);
}

void main() {
    uint l = gl_LocalInvocationID.x, i = l & 31u;
    uint lb = (l >> 5) * 1024u + ((i & (K - 1u)) << 5) + (i >> SK);
    uint acc = 0u;
    if (LOAD != 0u) {
        for (uint j = 0u; j < 32u; j++)
            t[lb + off(j)] = j;
        barrier();
    }
    for (uint r = 0u; r < reps; r++) {
        uint b = lb + (r & zero);
        for (uint j = 0u; j < 32u; j++) {
            if (LOAD != 0u)
                acc += t[b + off(j)];
            else
                t[b + off(j)] = r + j;
        }
    }
    barrier();
    dst[gl_GlobalInvocationID.x] = acc + t[(l * 37u) & 8191u];
}
