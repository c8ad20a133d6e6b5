#version 450
// Blind set 2: y = A x by row with vec4 loads: each invocation walks its
// own row of 4 * cols4 floats (384) against x; workgroups of 64.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { vec4 a[]; };
layout(set = 0, binding = 1) readonly buffer X { vec4 x[]; };
layout(set = 0, binding = 2) writeonly buffer Y { float y[]; };
layout(push_constant) uniform P { uint rows; uint cols4; };

void main() {
    uint r = gl_GlobalInvocationID.x;
    if (r >= rows)
        return;
    vec4 acc = vec4(0.0);
    for (uint c = 0u; c < cols4; c++)
        acc += a[r * cols4 + c] * x[c];
    y[r] = (acc.x + acc.y) + (acc.z + acc.w);
}
