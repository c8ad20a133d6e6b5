#version 450
// Only the first half of the tile is written, all of it is read.
layout(local_size_x = 128) in;
layout(set = 0, binding = 0) readonly buffer In { float src[]; };
layout(set = 0, binding = 1) writeonly buffer Out { float dst[]; };
shared float tile[128];
void main() {
    uint l = gl_LocalInvocationID.x;
    if (l < 64u)
        tile[l] = src[gl_GlobalInvocationID.x];
    barrier();
    dst[gl_GlobalInvocationID.x] = tile[127u - l];
}
