#version 450
// Blind set 3: histogram in workgroup memory over 1000 bins hashed from
// each sample's bits and its index, workgroups of 64 x 4 lanes, a
// grid-stride loop of `per` samples a lane; the non-empty bins are then
// added to the global histogram.
layout(local_size_x = 64, local_size_y = 4) in;
layout(set = 0, binding = 0) readonly buffer S { float smp[]; };
layout(set = 0, binding = 1) buffer H { uint hist[]; };
layout(push_constant) uniform P { uint n; uint per; uint bins; };
shared uint bin_count[1024];

void main() {
    uint l = gl_LocalInvocationIndex;
    for (uint b = l; b < 1024u; b += 256u)
        bin_count[b] = 0u;
    barrier();
    uint stride = gl_NumWorkGroups.x * 256u;
    uint i = gl_WorkGroupID.x * 256u + l;
    for (uint j = 0u; j < per; j++, i += stride) {
        if (i >= n)
            break;
        uint h = floatBitsToUint(smp[i]) ^ (i * 0x61c88647u);
        h ^= h >> 15;
        h *= 0x2c1b3c6du;
        h ^= h >> 12;
        atomicAdd(bin_count[h % bins], 1u);
    }
    barrier();
    for (uint b = l; b < bins; b += 256u)
        if (bin_count[b] != 0u)
            atomicAdd(hist[b], bin_count[b]);
}
