#version 450
// A vertical 5-tap filter over an 18-row shared tile (16 rows + a halo of 2):
// the taps reach rows l.y + 0 .. l.y + 4, two rows past the tile for the
// bottom invocations.  Only the later taps leave the tile.
layout(local_size_x = 16, local_size_y = 16) in;
layout(set = 0, binding = 0) readonly buffer In { float src[]; };
layout(set = 0, binding = 1) writeonly buffer Out { float dst[]; };
shared float tile[18][16];
void main() {
    uvec2 l = gl_LocalInvocationID.xy;
    uint i = gl_GlobalInvocationID.y * 64u + gl_GlobalInvocationID.x;
    tile[l.y][l.x] = src[i];
    if (l.y < 2u)
        tile[l.y + 16u][l.x] = src[(i + 1024u) % 4096u];
    barrier();
    float s = 0.0;
    for (uint dy = 0u; dy < 5u; dy++)
        s += tile[l.y + dy][l.x];
    dst[i] = s;
}
