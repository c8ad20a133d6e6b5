#version 450
// 2-D convolution, 5 x 5 taps, borders clamped.  One invocation per output
// pixel; 25 neighbour reads, most from L1.
layout(local_size_x = 16, local_size_y = 16) in;
layout(set = 0, binding = 0) readonly buffer I { float src[]; };
layout(set = 0, binding = 1) writeonly buffer O { float dst[]; };
layout(push_constant) uniform P { uint w; uint h; };

void main() {
    int x = int(gl_GlobalInvocationID.x), y = int(gl_GlobalInvocationID.y);
    if (x >= int(w) || y >= int(h))
        return;
    float acc = 0.0;
    for (int dy = -2; dy <= 2; dy++) {
        int yy = clamp(y + dy, 0, int(h) - 1);
        for (int dx = -2; dx <= 2; dx++) {
            int xx = clamp(x + dx, 0, int(w) - 1);
            float wt = 1.0 / float(1 + dx * dx + dy * dy);
            acc += wt * src[yy * int(w) + xx];
        }
    }
    dst[y * int(w) + x] = acc;
}
