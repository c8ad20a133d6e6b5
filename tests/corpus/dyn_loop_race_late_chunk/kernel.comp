#version 450
// Chunks staged through a pre-filled shared array with no barrier in the
// loop.  Chunk c reads back element (7 - c) * 64 + l + 1, the neighbouring
// invocation's element of chunk 7 - c.  Chunks 0-3 read elements still
// holding the fill; from chunk 4 on, each chunk rewrites elements that
// another invocation read (or reads elements another invocation just
// wrote) in the same barrier interval.
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
        dst[c * 64u + l] = stage[(7u - c) * 64u + l + 1u];
    }
}
