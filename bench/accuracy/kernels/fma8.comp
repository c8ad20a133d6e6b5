#version 450
// Compute-bound FP32: 8 independent FMA chains per invocation.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) writeonly buffer Out { float o[]; };
layout(push_constant) uniform Params { uint iters; float a; float b; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    float x0 = float(i) * 1e-6, x1 = x0 + 0.1, x2 = x0 + 0.2, x3 = x0 + 0.3;
    float x4 = x0 + 0.4, x5 = x0 + 0.5, x6 = x0 + 0.6, x7 = x0 + 0.7;
    for (uint k = 0; k < iters; k++) {
        x0 = fma(x0, a, b); x1 = fma(x1, a, b);
        x2 = fma(x2, a, b); x3 = fma(x3, a, b);
        x4 = fma(x4, a, b); x5 = fma(x5, a, b);
        x6 = fma(x6, a, b); x7 = fma(x7, a, b);
    }
    o[i] = ((x0 + x1) + (x2 + x3)) + ((x4 + x5) + (x6 + x7));
}
