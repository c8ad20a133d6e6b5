#version 450
// Weights copied into a private array of 8, then summed with k <= 8:
// the last iteration reads w[8].
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { float src[]; };
layout(set = 0, binding = 1) writeonly buffer Out { float dst[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    float w[8];
    for (int k = 0; k < 8; k++)
        w[k] = src[k];
    float s = 0.0;
    for (int k = 0; k <= 8; k++)
        s += w[k] * src[i];
    dst[i] = s;
}
