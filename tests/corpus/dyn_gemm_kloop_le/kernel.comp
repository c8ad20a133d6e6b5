#version 450
// A naive matrix product whose k-loop runs to k <= K: the last
// row of B is read one row past the end.
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) readonly buffer Bm { float b[]; };
layout(set = 0, binding = 2) writeonly buffer C { float cm[]; };
layout(push_constant) uniform P { uint K; };
void main() {
    uint row = gl_GlobalInvocationID.y, col = gl_GlobalInvocationID.x;
    float acc = 0.0;
    for (uint k = 0u; k <= K; k++)
        acc += a[row * K + k] * b[k * 32u + col];
    cm[row * 32u + col] = acc;
}
