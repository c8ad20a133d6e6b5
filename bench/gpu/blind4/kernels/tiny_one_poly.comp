#version 450
// Blind set 4: launch probe: one workgroup of 128 evaluates a degree-6
// polynomial (Horner) on n floats.
layout(local_size_x = 128) in;
layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) writeonly buffer Y { float y[]; };
layout(push_constant) uniform P { uint n; };

void main() {
    uint i = gl_LocalInvocationID.x;
    if (i >= n)
        return;
    float t = x[i];
    float p = 0.125;
    p = p * t - 0.25;
    p = p * t + 0.5;
    p = p * t - 1.0;
    p = p * t + 2.0;
    p = p * t - 0.75;
    p = p * t + 0.0625;
    y[i] = p;
}
