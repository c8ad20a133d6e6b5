#version 450
// Validation: workgroup-memory histogram over 1024 hashed bins (512
// invocations per workgroup, grid stride), then the bins added to a global
// histogram.
layout(local_size_x = 512) in;
layout(set = 0, binding = 0) readonly buffer I { uint src[]; };
layout(set = 0, binding = 1) buffer H { uint hist[]; };
layout(push_constant) uniform P { uint n; uint per; };
shared uint bins[1024];

void main() {
    uint l = gl_LocalInvocationID.x;
    bins[l] = 0u;
    bins[l + 512u] = 0u;
    barrier();
    uint stride = gl_NumWorkGroups.x * 512u;
    for (uint k = 0u; k < per; k++) {
        uint i = gl_GlobalInvocationID.x + k * stride;
        if (i < n)
            atomicAdd(bins[((i + src[i]) * 0x27d4eb2du) >> 22], 1u);
    }
    barrier();
    atomicAdd(hist[l], bins[l]);
    atomicAdd(hist[l + 512u], bins[l + 512u]);
}
