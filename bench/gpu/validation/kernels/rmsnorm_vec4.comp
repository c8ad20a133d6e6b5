#version 450
// Validation: RMS norm with vec4 loads, one 128-invocation workgroup per
// row, the sum of squares through a shared tree reduction.
layout(local_size_x = 128) in;
layout(set = 0, binding = 0) readonly buffer X { vec4 x[]; };
layout(set = 0, binding = 1) writeonly buffer Y { vec4 y[]; };
layout(set = 0, binding = 2) readonly buffer G { vec4 g[]; };
layout(push_constant) uniform P { uint cols4; };
shared float red[128];

void main() {
    uint l = gl_LocalInvocationID.x;
    uint base = gl_WorkGroupID.x * cols4;
    float s = 0.0;
    for (uint c = l; c < cols4; c += 128u) {
        vec4 v = x[base + c];
        s += dot(v, v);
    }
    red[l] = s;
    barrier();
    for (uint k = 64u; k > 0u; k >>= 1) {
        if (l < k)
            red[l] += red[l + k];
        barrier();
    }
    float r = inversesqrt(red[0] / float(cols4 * 4u) + 1e-6);
    for (uint c = l; c < cols4; c += 128u)
        y[base + c] = x[base + c] * r * g[c];
}
