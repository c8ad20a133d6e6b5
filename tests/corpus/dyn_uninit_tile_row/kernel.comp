#version 450
// A 2-D tile whose last row is never loaded before the transpose reads it.
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) readonly buffer In { float src[]; };
layout(set = 0, binding = 1) writeonly buffer Out { float dst[]; };
shared float tile[8][8];
void main() {
    uint x = gl_LocalInvocationID.x, y = gl_LocalInvocationID.y;
    if (y < 7u)
        tile[y][x] = src[y * 8u + x];
    barrier();
    dst[y * 8u + x] = tile[x][y];
}
