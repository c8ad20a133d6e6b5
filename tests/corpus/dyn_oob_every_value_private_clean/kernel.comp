#version 450
// Weights w[0..3]; the index (l % 4) is 0 .. 3.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { float y[]; };
void main() {
    float w[4] = float[4](0.1, 0.2, 0.3, 0.4);
    uint l = gl_LocalInvocationID.x;
    y[gl_GlobalInvocationID.x] = w[(l % 4u)];
}
