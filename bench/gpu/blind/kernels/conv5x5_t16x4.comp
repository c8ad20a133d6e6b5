#version 450
// Blind set: 5 x 5 Gaussian-like convolution (separable weights written
// out), clamped borders, one output pixel per invocation, 16 x 4 groups.
layout(local_size_x = 16, local_size_y = 4) in;
layout(set = 0, binding = 0) readonly buffer I { float src[]; };
layout(set = 0, binding = 1) writeonly buffer O { float dst[]; };
layout(push_constant) uniform P { int w; int h; };

const float k1[5] = float[5](1.0, 4.0, 6.0, 4.0, 1.0);

void main() {
    int x = int(gl_GlobalInvocationID.x), y = int(gl_GlobalInvocationID.y);
    if (x >= w || y >= h)
        return;
    float acc = 0.0;
    for (int j = 0; j < 5; j++) {
        int yy = clamp(y + j - 2, 0, h - 1);
        float row = 0.0;
        for (int i = 0; i < 5; i++) {
            int xx = clamp(x + i - 2, 0, w - 1);
            row += k1[i] * src[yy * w + xx];
        }
        acc += k1[j] * row;
    }
    dst[y * w + x] = acc * (1.0 / 256.0);
}
