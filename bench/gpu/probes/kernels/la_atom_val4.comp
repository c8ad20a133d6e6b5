#version 450
// Probe (loop atomics): 256 lanes, `per` grid-stride trips a lane over src;
// bins[] are 384 workgroup-memory words, flushed to hist at the end.
// la_atom_val4: four trips a step, four loads before their four atomics
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer I { uint src[]; };
layout(set = 0, binding = 1) buffer H { uint hist[]; };
layout(push_constant) uniform P { uint n; uint per; };
shared uint bins[384];

void main() {
    uint l = gl_LocalInvocationID.x;
    for (uint b = l; b < 384u; b += 256u)
        bins[b] = 0u;
    barrier();
    uint stride = gl_NumWorkGroups.x * 256u;
    uint acc = 0u;
    for (uint k = 0u; k + 3u < per; k += 4u) {
        uint i = gl_GlobalInvocationID.x + k * stride;
        if (i + 3u * stride < n) {
            uint a0 = src[i], a1 = src[i + stride], a2 = src[i + 2u * stride], a3 = src[i + 3u * stride];
            atomicAdd(bins[(((a0 ^ i) * 0x9e3779b1u) >> 16) % 384u], 1u);
            atomicAdd(bins[(((a1 ^ (i + stride)) * 0x9e3779b1u) >> 16) % 384u], 1u);
            atomicAdd(bins[(((a2 ^ (i + 2u * stride)) * 0x9e3779b1u) >> 16) % 384u], 1u);
            atomicAdd(bins[(((a3 ^ (i + 3u * stride)) * 0x9e3779b1u) >> 16) % 384u], 1u);
        }
    }
    barrier();
    for (uint b = l; b < 384u; b += 256u)
        atomicAdd(hist[b], bins[b] + acc);
}
