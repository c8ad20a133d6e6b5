#version 450
// Blind set: 3 x 3 convolution with weights from a buffer, clamped
// borders, one output per invocation, wide 64 x 2 workgroups.
layout(local_size_x = 64, local_size_y = 2) in;
layout(set = 0, binding = 0) readonly buffer I { float src[]; };
layout(set = 0, binding = 1) writeonly buffer O { float dst[]; };
layout(set = 0, binding = 2) readonly buffer K { float wt[]; };
layout(push_constant) uniform P { int w; int h; };

void main() {
    int x = int(gl_GlobalInvocationID.x), y = int(gl_GlobalInvocationID.y);
    if (x >= w || y >= h)
        return;
    float acc = 0.0;
    for (int dy = -1; dy <= 1; dy++) {
        int yy = clamp(y + dy, 0, h - 1);
        for (int dx = -1; dx <= 1; dx++) {
            int xx = clamp(x + dx, 0, w - 1);
            acc += wt[(dy + 1) * 3 + dx + 1] * src[yy * w + xx];
        }
    }
    dst[y * w + x] = acc;
}
