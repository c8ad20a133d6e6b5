#version 450
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
// Blind set 2: each invocation sums its own row of `cols` half floats
// (192 halves: a row is three 128-B lines), accumulating in fp32, and
// scales the sum; workgroups of 128, lanes a row apart.
layout(local_size_x = 128) in;
layout(set = 0, binding = 0) readonly buffer A { float16_t a[]; };
layout(set = 0, binding = 1) writeonly buffer S { float s[]; };
layout(push_constant) uniform P { uint rows; uint cols; float scale; };

void main() {
    uint r = gl_GlobalInvocationID.x;
    if (r >= rows)
        return;
    uint base = r * cols;
    float acc = 0.0;
    for (uint c = 0u; c < cols; ++c)
        acc += float(a[base + c]);
    s[r] = acc * scale;
}
