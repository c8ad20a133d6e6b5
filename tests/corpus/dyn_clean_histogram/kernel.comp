#version 450
// 64-bin histogram: shared counters with atomics, then merged globally.
layout(local_size_x = 128) in;
layout(set = 0, binding = 0) readonly buffer In { uint data[]; };
layout(set = 0, binding = 1) buffer Bins { uint bins[]; };
layout(push_constant) uniform Params { uint n; };
shared uint hist[64];
void main() {
    uint l = gl_LocalInvocationID.x;
    uint i = gl_GlobalInvocationID.x;
    if (l < 64u)
        hist[l] = 0u;
    barrier();
    if (i < n)
        atomicAdd(hist[data[i] % 64u], 1u);
    barrier();
    if (l < 64u)
        atomicAdd(bins[l], hist[l]);
}
