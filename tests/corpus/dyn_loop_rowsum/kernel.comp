#version 450
// Row sums of an n x n matrix; the loop runs one element too far.
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) writeonly buffer S { float s[]; };
layout(push_constant) uniform Params { uint n; };
void main() {
    uint row = gl_GlobalInvocationID.x;
    if (row >= n)
        return;
    float acc = 0.0;
    for (uint k = 0; k <= n; ++k)
        acc += a[row * n + k];
    s[row] = acc;
}
