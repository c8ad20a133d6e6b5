#version 450
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
// Blind set 3: transpose of an int16 matrix (rows x cols, multiples of
// 64) through a 64 x 64 workgroup-memory tile padded to 65 ints a row:
// 16 x 16 workgroups, each invocation moves 4 x 4 elements (16 lanes a
// row: 32-B reads and writes).
layout(local_size_x = 16, local_size_y = 16) in;
layout(set = 0, binding = 0) readonly buffer A { int16_t a[]; };
layout(set = 0, binding = 1) writeonly buffer T { int16_t t[]; };
layout(push_constant) uniform P { uint rows; uint cols; };
shared int tile[64][65];

void main() {
    uint tx = gl_LocalInvocationID.x, ty = gl_LocalInvocationID.y;
    uint r0 = gl_WorkGroupID.y * 64u, c0 = gl_WorkGroupID.x * 64u;
    for (uint i = 0u; i < 4u; i++)
        for (uint j = 0u; j < 4u; j++)
            tile[ty + 16u * i][tx + 16u * j] = int(a[(r0 + ty + 16u * i) * cols + c0 + tx + 16u * j]);
    barrier();
    for (uint i = 0u; i < 4u; i++)
        for (uint j = 0u; j < 4u; j++)
            t[(c0 + ty + 16u * i) * rows + r0 + tx + 16u * j] = int16_t(tile[tx + 16u * j][ty + 16u * i]);
}
