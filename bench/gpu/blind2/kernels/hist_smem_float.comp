#version 450
// Blind set 2: histogram of float samples in workgroup memory: the bin is
// a hash of the sample's bits (`bins` <= 256 of them, 200 here), 512
// lanes, a grid-stride loop of `per` samples a lane; then each workgroup
// adds its non-empty bins to the global histogram.
layout(local_size_x = 512) in;
layout(set = 0, binding = 0) readonly buffer S { float sample_v[]; };
layout(set = 0, binding = 1) buffer H { uint hist[]; };
layout(push_constant) uniform P { uint n; uint per; uint bins; };
shared uint local_hist[256];

void main() {
    uint l = gl_LocalInvocationID.x;
    if (l < 256u)
        local_hist[l] = 0u;
    barrier();
    uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    uint i = gl_GlobalInvocationID.x;
    for (uint j = 0u; j < per && i < n; j++, i += stride) {
        uint b = floatBitsToUint(sample_v[i]) * 2654435761u;
        atomicAdd(local_hist[(b >> 20) % bins], 1u);
    }
    barrier();
    if (l < bins && local_hist[l] != 0u)
        atomicAdd(hist[l], local_hist[l]);
}
