#version 450
// Blind set: a launch probe: a few workgroups scale a small buffer.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer B { float v[]; };
layout(push_constant) uniform P { uint n; float s; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < n)
        v[i] = v[i] * s + 1.0;
}
