#version 450
// Bytes unpacked with unpackUnorm4x8 index a 256-entry table.
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer Lut { float lut[256]; };
layout(set = 0, binding = 1) writeonly buffer Out { float y[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    vec4 u = unpackUnorm4x8(i * 0x01010101u);
    uint byte0 = uint(u.x * 255.0 + 0.5);
    y[i] = lut[byte0];
}
