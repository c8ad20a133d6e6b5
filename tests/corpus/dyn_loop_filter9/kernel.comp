#version 450
// A 1-D filter with 8 weights, but the loop reads 9.
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) readonly buffer W { float w[]; };
layout(set = 0, binding = 1) readonly buffer In { float src[]; };
layout(set = 0, binding = 2) writeonly buffer Out { float dst[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    float sum = 0.0;
    for (int k = 0; k < 9; k++)
        sum += w[k] * src[i + uint(k)];
    dst[i] = sum;
}
