#version 450
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
// Blind set 3: hashed gathers from a half-float table that fits the L2
// (tsize halves, 16 MiB): `per` reads a lane at an integer hash of the
// lane and the iteration, modulo tsize; fp32 sum; workgroups of 256.
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer T { float16_t tab[]; };
layout(set = 0, binding = 1) writeonly buffer O { float o[]; };
layout(push_constant) uniform P { uint n; uint tsize; uint per; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= n)
        return;
    float acc = 0.0;
    for (uint j = 0u; j < per; j++) {
        uint h = i * 0x9e3779b1u + j * 0x7f4a7c15u;
        h ^= h >> 15;
        h *= 0x2c1b3c6du;
        h ^= h >> 12;
        h *= 0x297a2d39u;
        h ^= h >> 15;
        acc += float(tab[h % tsize]);
    }
    o[i] = acc;
}
