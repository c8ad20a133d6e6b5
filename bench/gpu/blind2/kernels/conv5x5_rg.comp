#version 450
// Blind set 2: 5 x 5 convolution of a two-channel (vec2) image, weights
// read from a buffer, coordinates clamped at the borders; 16 x 16
// workgroups, one pixel a lane.
layout(local_size_x = 16, local_size_y = 16) in;
layout(set = 0, binding = 0) readonly buffer Src { vec2 src[]; };
layout(set = 0, binding = 1) writeonly buffer Dst { vec2 dst[]; };
layout(set = 0, binding = 2) readonly buffer W { float wt[25]; };
layout(push_constant) uniform P { uint w; uint h; };

void main() {
    uvec2 p = gl_GlobalInvocationID.xy;
    if (p.x >= w || p.y >= h)
        return;
    vec2 acc = vec2(0.0);
    for (int dy = -2; dy <= 2; dy++) {
        uint yy = uint(clamp(int(p.y) + dy, 0, int(h) - 1));
        for (int dx = -2; dx <= 2; dx++) {
            uint xx = uint(clamp(int(p.x) + dx, 0, int(w) - 1));
            acc += wt[(dy + 2) * 5 + dx + 2] * src[yy * w + xx];
        }
    }
    dst[p.y * w + p.x] = acc;
}
