#version 450
// Validation: each invocation walks its own row two elements a step (a
// vec2 load), a dot product with a shared vector.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { vec2 a[]; };
layout(set = 0, binding = 1) readonly buffer X { vec2 x[]; };
layout(set = 0, binding = 2) writeonly buffer Y { float y[]; };
layout(push_constant) uniform P { uint rows; uint half_cols; };

void main() {
    uint r = gl_GlobalInvocationID.x;
    if (r >= rows)
        return;
    float acc = 0.0;
    for (uint c = 0u; c < half_cols; c++)
        acc += dot(a[r * half_cols + c], x[c]);
    y[r] = acc;
}
