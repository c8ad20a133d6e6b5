#version 450
// The same staging, but each chunk reads back only its own invocation's
// element of the chunk it just wrote.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { float src[]; };
layout(set = 0, binding = 1) writeonly buffer Out { float dst[]; };
shared float stage[513];
void main() {
    uint l = gl_LocalInvocationID.x;
    for (uint k = l; k < 513u; k += 64u)
        stage[k] = 0.0;
    barrier();
    for (uint c = 0u; c < 8u; c++) {
        stage[c * 64u + l] = src[c * 64u + l];
        dst[c * 64u + l] = stage[c * 64u + l];
    }
}
