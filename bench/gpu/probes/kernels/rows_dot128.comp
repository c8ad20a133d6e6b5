#version 450
// Probe (rows): as rows_sum128.comp with a vector: y = A x by row, each
// invocation its own row of `cols` floats against x (one broadcast sector
// a request), workgroups of 128.
layout(local_size_x = 128) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) readonly buffer X { float x[]; };
layout(set = 0, binding = 2) writeonly buffer Y { float y[]; };
layout(push_constant) uniform P { uint rows; uint cols; };

void main() {
    uint r = gl_GlobalInvocationID.x;
    if (r >= rows)
        return;
    uint base = r * cols;
    float acc = 0.0;
    for (uint c = 0u; c < cols; c++)
        acc = fma(a[base + c], x[c], acc);
    y[r] = acc;
}
