#version 450
// Blind set 2: a launch probe: a few workgroups of 256 lanes each take the
// reciprocal square root of one small value.
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) writeonly buffer Y { float y[]; };
layout(push_constant) uniform P { uint n; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < n)
        y[i] = inversesqrt(abs(x[i]) + 1.0);
}
