#version 450
// Blind set 3: launch probe: one workgroup of 64, x * x - 0.5 on the
// first n (40) floats.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) writeonly buffer Y { float y[]; };
layout(push_constant) uniform P { uint n; };

void main() {
    uint i = gl_LocalInvocationID.x;
    if (i < n)
        y[i] = x[i] * x[i] - 0.5;
}
