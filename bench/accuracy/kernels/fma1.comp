#version 450
// FP32 with one dependent FMA chain per invocation (latency of the FMA).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) writeonly buffer Out { float o[]; };
layout(push_constant) uniform Params { uint iters; float a; float b; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    float x = float(i) * 1e-6;
    for (uint k = 0; k < iters; k++)
        x = fma(x, a, b);
    o[i] = x;
}
