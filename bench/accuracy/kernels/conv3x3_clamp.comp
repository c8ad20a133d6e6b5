#version 450
// 2-D convolution, 3 x 3 taps, borders clamped (every tap reads a pixel:
// clamp() instead of a branch).  One invocation per output pixel.
layout(local_size_x = 16, local_size_y = 16) in;
layout(set = 0, binding = 0) readonly buffer I { float src[]; };
layout(set = 0, binding = 1) writeonly buffer O { float dst[]; };
layout(push_constant) uniform P { uint w; uint h; };
const float k[9] = float[9](0.0625, 0.125, 0.0625, 0.125, 0.25, 0.125, 0.0625, 0.125, 0.0625);

void main() {
    int x = int(gl_GlobalInvocationID.x), y = int(gl_GlobalInvocationID.y);
    if (x >= int(w) || y >= int(h))
        return;
    float acc = 0.0;
    for (int dy = -1; dy <= 1; dy++) {
        int yy = clamp(y + dy, 0, int(h) - 1);
        for (int dx = -1; dx <= 1; dx++) {
            int xx = clamp(x + dx, 0, int(w) - 1);
            acc += k[(dy + 1) * 3 + dx + 1] * src[yy * int(w) + xx];
        }
    }
    dst[y * int(w) + x] = acc;
}
