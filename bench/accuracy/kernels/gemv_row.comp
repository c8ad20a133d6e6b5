#version 450
// Matrix-vector product by row: one invocation walks one row of A
// (row-major, so neighbouring lanes are a row apart), dotting it with x.
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) readonly buffer X { float x[]; };
layout(set = 0, binding = 2) writeonly buffer Y { float y[]; };
layout(push_constant) uniform P { uint rows; uint cols; };

void main() {
    uint r = gl_GlobalInvocationID.x;
    if (r >= rows)
        return;
    float acc = 0.0;
    for (uint c = 0u; c < cols; c++)
        acc += a[r * cols + c] * x[c];
    y[r] = acc;
}
