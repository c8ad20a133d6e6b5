#version 450
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
// Blind set 4: a pitched 2-D copy of a uint16 image: a bw x bh box (in
// u16vec4 of 4 pixels) at (ox, oy) out of a source of pitch spitch into a
// destination of pitch dpitch; 64 x 4 lanes a workgroup.
layout(local_size_x = 64, local_size_y = 4) in;
layout(set = 0, binding = 0) readonly buffer S { u16vec4 src[]; };
layout(set = 0, binding = 1) writeonly buffer D { u16vec4 dst[]; };
layout(push_constant) uniform P { uint bw; uint bh; uint spitch; uint dpitch; uint ox; uint oy; };

void main() {
    uint x = gl_GlobalInvocationID.x, y = gl_GlobalInvocationID.y;
    if (x < bw && y < bh)
        dst[y * dpitch + x] = src[(y + oy) * spitch + x + ox];
}
