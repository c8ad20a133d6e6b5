#version 450
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
// Blind set 3: row-wise softmax of half floats, one workgroup of 256 a
// row of `cols` (4096): one pass keeps each lane's running max and
// rescaled sum (online softmax), the pairs are combined in workgroup
// memory, and a second pass writes half-float probabilities.
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer X { float16_t x[]; };
layout(set = 0, binding = 1) writeonly buffer Y { float16_t y[]; };
layout(push_constant) uniform P { uint cols; };
shared vec2 ms[256];

void main() {
    uint l = gl_LocalInvocationID.x, base = gl_WorkGroupID.x * cols;
    float m = -1e30, s = 0.0;
    for (uint c = l; c < cols; c += 256u) {
        float v = float(x[base + c]);
        float nm = max(m, v);
        s = s * exp(m - nm) + exp(v - nm);
        m = nm;
    }
    ms[l] = vec2(m, s);
    barrier();
    for (uint half_ = 128u; half_ > 0u; half_ >>= 1) {
        if (l < half_) {
            vec2 a = ms[l], b = ms[l + half_];
            float nm = max(a.x, b.x);
            ms[l] = vec2(nm, a.y * exp(a.x - nm) + b.y * exp(b.x - nm));
        }
        barrier();
    }
    vec2 tot = ms[0];
    float inv = 1.0 / tot.y;
    for (uint c = l; c < cols; c += 256u)
        y[base + c] = float16_t(exp(float(x[base + c]) - tot.x) * inv);
}
