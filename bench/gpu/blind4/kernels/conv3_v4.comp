#version 450
// Blind set 4: a 3 x 3 binomial blur (1 2 1 / 2 4 2 / 1 2 1, / 16) of an
// RGBA float image, one vec4 pixel a lane, borders clamped; 8 x 8 groups.
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) readonly buffer S { vec4 src[]; };
layout(set = 0, binding = 1) writeonly buffer D { vec4 dst[]; };
layout(push_constant) uniform P { uint w; uint h; };

void main() {
    uint x = gl_GlobalInvocationID.x, y = gl_GlobalInvocationID.y;
    if (x >= w || y >= h)
        return;
    uint xl = x > 0u ? x - 1u : 0u, xr = min(x + 1u, w - 1u);
    uint yu = y > 0u ? y - 1u : 0u, yd = min(y + 1u, h - 1u);
    vec4 acc = vec4(0.0);
    uint rows[3] = uint[3](yu * w, y * w, yd * w);
    for (int j = 0; j < 3; j++) {
        float wy = j == 1 ? 2.0 : 1.0;
        acc += wy * (src[rows[j] + xl] + 2.0 * src[rows[j] + x] + src[rows[j] + xr]);
    }
    dst[y * w + x] = acc * 0.0625;
}
