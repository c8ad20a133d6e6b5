#version 450
// Blind set 4: matrix-vector by workgroup: 256 lanes a row of 4 * cols4
// floats (read as vec4), a shared-memory tree of 8 halving steps with
// barriers (no subgroup operations).
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer A { vec4 a[]; };
layout(set = 0, binding = 1) readonly buffer X { vec4 x[]; };
layout(set = 0, binding = 2) writeonly buffer Y { float y[]; };
layout(push_constant) uniform P { uint cols4; };
shared float red[256];

void main() {
    uint l = gl_LocalInvocationID.x, row = gl_WorkGroupID.x;
    uint base = row * cols4;
    float acc = 0.0;
    for (uint c = l; c < cols4; c += 256u)
        acc += dot(a[base + c], x[c]);
    red[l] = acc;
    barrier();
    for (uint s = 128u; s > 0u; s >>= 1) {
        if (l < s)
            red[l] += red[l + s];
        barrier();
    }
    if (l == 0u)
        y[row] = red[0];
}
