#version 450
// Blind set: each invocation sums its own row of `cols` floats (96: a row
// is three 128-B lines), workgroups of 64; lanes are a row apart.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) writeonly buffer S { float s[]; };
layout(push_constant) uniform P { uint rows; uint cols; };

void main() {
    uint r = gl_GlobalInvocationID.x;
    if (r >= rows)
        return;
    float acc = 0.0;
    for (uint c = 0u; c < cols; c++)
        acc += a[r * cols + c];
    s[r] = acc;
}
