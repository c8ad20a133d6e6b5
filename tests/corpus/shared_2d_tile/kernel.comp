#version 450
// A 64 x 160 float tile: 40 KiB of shared memory.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Data { float v[]; };
shared float tile[64][160];

void main() {
    uint l = gl_LocalInvocationID.x;
    uint i = gl_GlobalInvocationID.x;
    for (uint c = 0; c < 160; c++)
        tile[l][c] = v[i];
    barrier();
    v[i] = tile[63 - l][l];
}
