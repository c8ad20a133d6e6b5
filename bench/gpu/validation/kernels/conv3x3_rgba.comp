#version 450
// Validation: 3 x 3 convolution of a vec4 (RGBA float) image, clamped
// borders, weights from a small buffer.
layout(local_size_x = 16, local_size_y = 16) in;
layout(set = 0, binding = 0) readonly buffer I { vec4 src[]; };
layout(set = 0, binding = 1) writeonly buffer O { vec4 dst[]; };
layout(set = 0, binding = 2) readonly buffer W { float wt[]; };
layout(push_constant) uniform P { uint w; uint h; };

void main() {
    int x = int(gl_GlobalInvocationID.x), y = int(gl_GlobalInvocationID.y);
    if (x >= int(w) || y >= int(h))
        return;
    vec4 acc = vec4(0.0);
    for (int dy = -1; dy <= 1; dy++) {
        int yy = clamp(y + dy, 0, int(h) - 1);
        for (int dx = -1; dx <= 1; dx++) {
            int xx = clamp(x + dx, 0, int(w) - 1);
            acc += wt[(dy + 1) * 3 + dx + 1] * src[yy * int(w) + xx];
        }
    }
    dst[y * int(w) + x] = acc;
}
