#version 450
// Blind set 4: a histogram in workgroup memory over 509 bins hashed from
// each word and its index, 512 lanes a workgroup striding over the grid,
// then one global atomicAdd a non-empty bin a workgroup.
layout(local_size_x = 512) in;
layout(set = 0, binding = 0) readonly buffer D { uint data[]; };
layout(set = 0, binding = 1) buffer H { uint hist[]; };
layout(push_constant) uniform P { uint n; };
shared uint bins[509];

void main() {
    uint l = gl_LocalInvocationID.x;
    for (uint b = l; b < 509u; b += 512u)
        bins[b] = 0u;
    barrier();
    uint stride = gl_NumWorkGroups.x * 512u;
    for (uint i = gl_GlobalInvocationID.x; i < n; i += stride) {
        uint x = (data[i] * 0x01000193u) ^ (i * 0x9e3779b1u);
        x ^= x >> 16;
        x *= 0x7feb352du;
        x ^= x >> 15;
        atomicAdd(bins[x % 509u], 1u);
    }
    barrier();
    for (uint b = l; b < 509u; b += 512u) {
        uint c = bins[b];
        if (c != 0u)
            atomicAdd(hist[b], c);
    }
}
