#version 450
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
// Blind set 4: matrix-vector by row with int8 weights: a lane walks its
// row of 4 * cols4 int8 (read as i8vec4, rows of 384 B), times a float x,
// times the row's scale; workgroups of 32.
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) readonly buffer W { i8vec4 w[]; };
layout(set = 0, binding = 1) readonly buffer X { vec4 x[]; };
layout(set = 0, binding = 2) readonly buffer S { float scale[]; };
layout(set = 0, binding = 3) writeonly buffer Y { float y[]; };
layout(push_constant) uniform P { uint rows; uint cols4; };

void main() {
    uint r = gl_GlobalInvocationID.x;
    if (r >= rows)
        return;
    float acc = 0.0;
    uint base = r * cols4;
    for (uint c = 0u; c < cols4; c++)
        acc += dot(vec4(w[base + c]), x[c]);
    y[r] = acc * scale[r];
}
