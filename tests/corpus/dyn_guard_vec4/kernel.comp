#version 450
// Scales vec4 elements; n vec4s but the dispatch covers 64 per group.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { vec4 a[]; };
layout(set = 0, binding = 1) writeonly buffer Out { vec4 b[]; };
layout(push_constant) uniform Params { uint n; float s; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    vec4 v = a[i];
    b[i] = v * s;
}
