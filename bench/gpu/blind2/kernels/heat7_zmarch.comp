#version 450
// Blind set 2: 3-D 7-point heat step over a w x h x d grid, borders
// clamped; each lane owns one (x, y) column and marches it in z, keeping
// the planes below, at and above in registers; 32 x 8 workgroups.
layout(local_size_x = 32, local_size_y = 8) in;
layout(set = 0, binding = 0) readonly buffer U { float u[]; };
layout(set = 0, binding = 1) writeonly buffer V { float v[]; };
layout(push_constant) uniform P { uint w; uint h; uint d; float alpha; };

void main() {
    uint x = gl_GlobalInvocationID.x, y = gl_GlobalInvocationID.y;
    if (x >= w || y >= h)
        return;
    uint xm = x > 0u ? x - 1u : 0u, xp = min(x + 1u, w - 1u);
    uint ym = y > 0u ? y - 1u : 0u, yp = min(y + 1u, h - 1u);
    uint plane = w * h;
    float below = u[y * w + x], mid = below;
    for (uint z = 0u; z < d; z++) {
        uint zp = min(z + 1u, d - 1u);
        float above = u[zp * plane + y * w + x];
        uint o = z * plane;
        float lat = u[o + y * w + xm] + u[o + y * w + xp] + u[o + ym * w + x] + u[o + yp * w + x];
        v[o + y * w + x] = mid + alpha * (lat + below + above - 6.0 * mid);
        below = mid;
        mid = above;
    }
}
