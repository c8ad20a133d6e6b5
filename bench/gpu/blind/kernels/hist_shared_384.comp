#version 450
// Blind set: a histogram in workgroup memory over 384 bins hashed from the
// element's value and index (256 lanes, grid stride of `per` elements per
// lane), then one global atomic per bin per workgroup.
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
    for (uint k = 0u; k < per; k++) {
        uint i = gl_GlobalInvocationID.x + k * stride;
        if (i < n) {
            uint h = (src[i] ^ i) * 0x9e3779b1u;
            atomicAdd(bins[(h >> 16) % 384u], 1u);
        }
    }
    barrier();
    for (uint b = l; b < 384u; b += 256u)
        atomicAdd(hist[b], bins[b]);
}
