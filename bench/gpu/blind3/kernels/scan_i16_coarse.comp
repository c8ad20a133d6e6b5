#version 450
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
// Blind set 3: inclusive scan of int16 values into int32, coarsened: a
// workgroup of 64 scans 1024 values, each lane 16 consecutive ones (read
// as four i16vec4) serially, the 64 lane totals by a Kogge-Stone scan in
// workgroup memory (double-buffered), the block's total written apart.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer V { i16vec4 v[]; };
layout(set = 0, binding = 1) writeonly buffer S { int s[]; };
layout(set = 0, binding = 2) writeonly buffer T { int total[]; };
shared int ks[2][64];

void main() {
    uint l = gl_LocalInvocationID.x, first = gl_WorkGroupID.x * 1024u + 16u * l;
    int run[16];
    int acc = 0;
    for (uint q = 0u; q < 4u; q++) {
        ivec4 e = ivec4(v[first / 4u + q]);
        for (uint c = 0u; c < 4u; c++) {
            acc += e[c];
            run[4u * q + c] = acc;
        }
    }
    uint src = 0u;
    ks[0][l] = acc;
    barrier();
    for (uint d = 1u; d < 64u; d <<= 1) {
        int x = ks[src][l];
        if (l >= d)
            x += ks[src][l - d];
        ks[1u - src][l] = x;
        src = 1u - src;
        barrier();
    }
    int before = ks[src][l] - acc;
    for (uint c = 0u; c < 16u; c++)
        s[first + c] = before + run[c];
    if (l == 63u)
        total[gl_WorkGroupID.x] = ks[src][63];
}
