#version 450
// Blind set: matrix-vector product by row, y = A x: each invocation walks
// its own row of `cols` floats (1000, not a power of two) against x;
// workgroups of 128.
layout(local_size_x = 128) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) readonly buffer X { float x[]; };
layout(set = 0, binding = 2) writeonly buffer Y { float y[]; };
layout(push_constant) uniform P { uint rows; uint cols; };

void main() {
    uint r = gl_GlobalInvocationID.x;
    if (r >= rows)
        return;
    float acc = 0.0;
    uint base = r * cols;
    for (uint c = 0u; c < cols; c++)
        acc = fma(a[base + c], x[c], acc);
    y[r] = acc;
}
