#version 450
// Probe (latency under load, gen_loadlat.py): workgroups of 1024 lanes,
// one a unit. Subgroup 0's first lane (chase != 0) runs `steps` dependent
// loads over the chase table: a 2 MiB page (1 << lshift lines of 128 B) at
// a time, every line of the page once in a scattered order (odd multiplier),
// each address waiting for the load before it (its value & zero, zero = 0
// at run time); `pos` keeps each group's place, so the next dispatch goes
// on to lines not in L2. Subgroups 1 .. streamers each run `steps` trips of
// one coalesced vec4 load a lane (512 B a subgroup a trip) over the stream
// table, lanes side by side, every trip's address also waiting for the
// trip before: a subgroup has one request in flight, so the streamers a
// unit set the bytes in flight and the chase and the streams take `steps`
// latencies each. The other subgroups return at once.
layout(local_size_x = 1024) in;
layout(set = 0, binding = 0) readonly buffer S { vec4 s[]; };
layout(set = 0, binding = 1) readonly buffer C { uint c[]; };
layout(set = 0, binding = 2) buffer Q { uint pos[]; };
layout(set = 0, binding = 3) writeonly buffer O { float o[]; };
layout(push_constant) uniform P {
    uint steps; uint streamers; uint chase; uint zero;
    uint pmask; uint lshift; uint smask;
};

void main() {
    uint l = gl_LocalInvocationID.x, w = l >> 5, g = gl_WorkGroupID.x;
    if (w == 0u) {
        if (chase == 0u || l != 0u)
            return;
        uint lmask = (1u << lshift) - 1u;
        uint k = pos[g], v = 0u;
        for (uint n = 0u; n < steps; n++, k++) {
            uint page = ((k >> lshift) + g) & pmask;
            uint line = (k * 12123u + g * 127u) & lmask;
            v = c[((page << lshift) | line) * 32u + (v & zero)];
        }
        pos[g] = k + (v & zero);
        return;
    }
    if (w > streamers)
        return;
    uint lanes = gl_NumWorkGroups.x * streamers * 32u;
    uint i = (g * streamers + (w - 1u)) * 32u + (l & 31u);
    uint dep = 0u;
    vec4 acc = vec4(0.0);
    for (uint n = 0u; n < steps; n++) {
        vec4 x = s[(i + n * lanes + dep) & smask];
        dep = floatBitsToUint(x.x) & zero;
        acc += x;
    }
    if (acc.x == -1234.5678)
        o[l] = acc.y;
}
