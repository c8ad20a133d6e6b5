#version 450
// Layer norm: one workgroup per row; mean and variance by tree reductions
// in workgroup memory, then (x - mean) / sd * gamma + beta.
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) writeonly buffer Y { float y[]; };
layout(set = 0, binding = 2) readonly buffer G { float gamma[]; };
layout(set = 0, binding = 3) readonly buffer B { float beta[]; };
layout(push_constant) uniform P { uint cols; };
shared float s1[256];
shared float s2[256];

void main() {
    uint l = gl_LocalInvocationID.x;
    uint base = gl_WorkGroupID.x * cols;
    float a = 0.0, b = 0.0;
    for (uint c = l; c < cols; c += 256u) {
        float v = x[base + c];
        a += v;
        b += v * v;
    }
    s1[l] = a;
    s2[l] = b;
    barrier();
    for (uint s = 128u; s > 0u; s >>= 1) {
        if (l < s) {
            s1[l] += s1[l + s];
            s2[l] += s2[l + s];
        }
        barrier();
    }
    float mean = s1[0] / float(cols);
    float var = s2[0] / float(cols) - mean * mean;
    float r = inversesqrt(max(var, 0.0) + 1e-5);
    for (uint c = l; c < cols; c += 256u)
        y[base + c] = (x[base + c] - mean) * r * gamma[c] + beta[c];
}
