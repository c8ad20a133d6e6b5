#version 450
// Validation: 7 x 7 box-weighted convolution with clamped borders, one
// invocation per output pixel, 32 x 8 workgroups.
layout(local_size_x = 32, local_size_y = 8) in;
layout(set = 0, binding = 0) readonly buffer I { float src[]; };
layout(set = 0, binding = 1) writeonly buffer O { float dst[]; };
layout(push_constant) uniform P { uint w; uint h; };

void main() {
    int x = int(gl_GlobalInvocationID.x), y = int(gl_GlobalInvocationID.y);
    if (x >= int(w) || y >= int(h))
        return;
    float acc = 0.0;
    for (int dy = -3; dy <= 3; dy++) {
        int yy = min(max(y + dy, 0), int(h) - 1);
        for (int dx = -3; dx <= 3; dx++) {
            int xx = min(max(x + dx, 0), int(w) - 1);
            acc += src[yy * int(w) + xx];
        }
    }
    dst[y * int(w) + x] = acc * (1.0 / 49.0);
}
