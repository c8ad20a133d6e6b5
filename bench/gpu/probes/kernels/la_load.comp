#version 450
// Probe (loop atomics): 256 lanes, `per` grid-stride trips a lane over src;
// bins[] are 384 workgroup-memory words, flushed to hist at the end.
// la_load: the trip loads src[i] and adds it (no atomic: bandwidth)
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
    for (uint k = 0u; k < per; k++) {
        uint i = gl_GlobalInvocationID.x + k * stride;
        if (i < n)
            acc += src[i];
    }
    barrier();
    for (uint b = l; b < 384u; b += 256u)
        atomicAdd(hist[b], bins[b] + acc);
}
