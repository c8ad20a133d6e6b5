#version 450
// Blind set 4: a 7 x 7 convolution of a float image straight from global
// memory (no shared tile), borders clamped per tap; the 49 weights are a
// buffer; workgroups of 32 x 4.
layout(local_size_x = 32, local_size_y = 4) in;
layout(set = 0, binding = 0) readonly buffer S { float src[]; };
layout(set = 0, binding = 1) writeonly buffer D { float dst[]; };
layout(set = 0, binding = 2) readonly buffer W { float wt[]; };
layout(push_constant) uniform P { uint w; uint h; };

void main() {
    uint x = gl_GlobalInvocationID.x, y = gl_GlobalInvocationID.y;
    if (x >= w || y >= h)
        return;
    float acc = 0.0;
    for (int dy = -3; dy <= 3; dy++) {
        uint row = uint(clamp(int(y) + dy, 0, int(h) - 1)) * w;
        for (int dx = -3; dx <= 3; dx++) {
            uint col = uint(clamp(int(x) + dx, 0, int(w) - 1));
            acc += wt[(dy + 3) * 7 + dx + 3] * src[row + col];
        }
    }
    dst[y * w + x] = acc;
}
