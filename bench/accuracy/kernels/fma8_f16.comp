#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
// Compute-bound FP16: 8 independent FMA chains per invocation.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) writeonly buffer Out { float o[]; };
layout(push_constant) uniform Params { uint iters; float a; float b; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    float16_t ha = float16_t(a), hb = float16_t(b);
    float16_t x0 = float16_t(float(i & 255u) * 1e-3);
    float16_t x1 = x0 + float16_t(0.1), x2 = x0 + float16_t(0.2);
    float16_t x3 = x0 + float16_t(0.3), x4 = x0 + float16_t(0.4);
    float16_t x5 = x0 + float16_t(0.5), x6 = x0 + float16_t(0.6);
    float16_t x7 = x0 + float16_t(0.7);
    for (uint k = 0; k < iters; k++) {
        x0 = fma(x0, ha, hb); x1 = fma(x1, ha, hb);
        x2 = fma(x2, ha, hb); x3 = fma(x3, ha, hb);
        x4 = fma(x4, ha, hb); x5 = fma(x5, ha, hb);
        x6 = fma(x6, ha, hb); x7 = fma(x7, ha, hb);
    }
    o[i] = float(((x0 + x1) + (x2 + x3)) + ((x4 + x5) + (x6 + x7)));
}
