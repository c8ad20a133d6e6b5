#version 450
// Workgroup-memory histogram: each workgroup counts `per` elements per
// invocation into 256 shared bins (hashed: lanes collide on bins), then adds
// its bins to the global histogram (256 global atomics per workgroup).
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer I { float src[]; };
layout(set = 0, binding = 1) buffer H { uint hist[]; };
layout(push_constant) uniform P { uint n; uint per; };
shared uint bins[256];

void main() {
    uint l = gl_LocalInvocationID.x;
    bins[l] = 0u;
    barrier();
    uint stride = gl_NumWorkGroups.x * 256u;
    for (uint k = 0u; k < per; k++) {
        uint i = gl_GlobalInvocationID.x + k * stride;
        if (i < n)
            atomicAdd(bins[(i * 2654435761u) >> 24], src[i] > 2.0 ? 2u : 1u);
    }
    barrier();
    atomicAdd(hist[l], bins[l]);
}
