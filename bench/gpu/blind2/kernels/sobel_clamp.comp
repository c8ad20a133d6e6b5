#version 450
// Blind set 2: Sobel gradient magnitude of a w x h image, borders clamped
// to the edge, one pixel a lane, 32 x 8 workgroups.
layout(local_size_x = 32, local_size_y = 8) in;
layout(set = 0, binding = 0) readonly buffer Src { float src[]; };
layout(set = 0, binding = 1) writeonly buffer Dst { float dst[]; };
layout(push_constant) uniform P { int w; int h; };

float at(int x, int y) {
    return src[clamp(y, 0, h - 1) * w + clamp(x, 0, w - 1)];
}

void main() {
    int x = int(gl_GlobalInvocationID.x), y = int(gl_GlobalInvocationID.y);
    if (x >= w || y >= h)
        return;
    float tl = at(x - 1, y - 1), t = at(x, y - 1), tr = at(x + 1, y - 1);
    float l = at(x - 1, y), r = at(x + 1, y);
    float bl = at(x - 1, y + 1), b = at(x, y + 1), br = at(x + 1, y + 1);
    float gx = (tr + 2.0 * r + br) - (tl + 2.0 * l + bl);
    float gy = (bl + 2.0 * b + br) - (tl + 2.0 * t + tr);
    dst[y * w + x] = sqrt(gx * gx + gy * gy);
}
