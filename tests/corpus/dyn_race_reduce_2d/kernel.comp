#version 450
// Row sums of a 16x16 tile, halving without a barrier between steps.
layout(local_size_x = 16, local_size_y = 16) in;
layout(set = 0, binding = 0) readonly buffer In { float data[]; };
layout(set = 0, binding = 1) writeonly buffer Out { float rows[]; };
shared float t[16][16];
void main() {
    uint x = gl_LocalInvocationID.x, y = gl_LocalInvocationID.y;
    t[y][x] = data[y * 16 + x];
    barrier();
    for (uint s = 8; s > 0; s >>= 1) {
        if (x < s)
            t[y][x] = t[y][x] + t[y][x + s];
    }
    barrier();
    if (x == 0)
        rows[y] = t[y][0];
}
