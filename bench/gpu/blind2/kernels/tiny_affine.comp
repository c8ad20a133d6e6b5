#version 450
// Blind set 2: a launch probe: one workgroup of 32 lanes applies a * x + b
// to a handful of floats.
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) writeonly buffer Y { float y[]; };
layout(push_constant) uniform P { uint n; float a; float b; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < n)
        y[i] = a * x[i] + b;
}
