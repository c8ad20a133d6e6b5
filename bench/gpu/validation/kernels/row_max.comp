#version 450
// Validation: one invocation walks its own row (row length `cols`, not a
// power of two: rows do not start on a line) and keeps the row's maximum.
layout(local_size_x = 128) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) writeonly buffer M { float mx[]; };
layout(push_constant) uniform P { uint rows; uint cols; };

void main() {
    uint r = gl_GlobalInvocationID.x;
    if (r >= rows)
        return;
    float m = -3.0e38;
    uint base = r * cols;
    for (uint c = 0u; c < cols; c++)
        m = max(m, a[base + c]);
    mx[r] = m;
}
