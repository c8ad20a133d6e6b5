#version 450
// Memory-bound with 16-byte accesses: b = a, one vec4 per invocation.
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer A { vec4 a[]; };
layout(set = 0, binding = 1) writeonly buffer B { vec4 b[]; };
layout(push_constant) uniform Params { uint n; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < n)
        b[i] = a[i];
}
