#version 450
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
// Blind set 3: matrix-vector by row, y = W x + b, the matrix in half
// floats: one invocation per row walks its 2 * cols2 halves as f16vec2
// (rows of 640 B), accumulating in fp32; workgroups of 128.
layout(local_size_x = 128) in;
layout(set = 0, binding = 0) readonly buffer W { f16vec2 w[]; };
layout(set = 0, binding = 1) readonly buffer X { vec2 x[]; };
layout(set = 0, binding = 2) readonly buffer B { float bias[]; };
layout(set = 0, binding = 3) writeonly buffer Y { float y[]; };
layout(push_constant) uniform P { uint rows; uint cols2; };

void main() {
    uint r = gl_GlobalInvocationID.x;
    if (r >= rows)
        return;
    float acc = bias[r];
    for (uint c = 0u; c < cols2; c++)
        acc += dot(vec2(w[r * cols2 + c]), x[c]);
    y[r] = acc;
}
