#version 450
// Row sums of an n x n matrix; the plan writes 'N' for 'n' and 'Stride' for 'stride'.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) writeonly buffer S { float s[]; };
layout(push_constant) uniform Dims { uint n; uint stride; };

void main() {
    uint r = gl_GlobalInvocationID.x;
    if (r >= n)
        return;
    float acc = 0.0;
    for (uint c = 0; c < n; c++)
        acc += a[r * stride + c];
    s[r] = acc;
}
