#version 450
// A 7-tap 1D convolution from a shared tile of 64 + halo: the tile
// holds 6 halo elements but the taps reach l + 6.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { float src[]; };
layout(set = 0, binding = 1) writeonly buffer Out { float dst[]; };
layout(set = 0, binding = 2) readonly buffer W { float w[7]; };
shared float tile[70];
void main() {
    uint l = gl_LocalInvocationID.x;
    uint i = gl_GlobalInvocationID.x;
    tile[l] = src[i];
    if (l < 6u)
        tile[64u + l] = src[(i + 64u) % 4096u];
    barrier();
    float s = 0.0;
    for (uint k = 0u; k < 7u; k++)
        s += w[k] * tile[l + k];
    dst[i] = s;
}
