#version 450
// Validation (launch probe): a few workgroups fill a small buffer.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) writeonly buffer O { float dst[]; };
layout(push_constant) uniform P { uint n; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < n)
        dst[i] = float(i) * 0.5;
}
