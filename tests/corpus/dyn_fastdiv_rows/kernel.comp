#version 450
// Row index by division with a magic multiplier (umulExtended, as in
// ggml's fastdiv): i / ne0 with ne0 = 96 given by mp and L in the push
// constants.  dst has one element per row, but the shader writes row + 1.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) writeonly buffer Out { float dst[]; };
layout(push_constant) uniform P { uint mp; uint L; uint ne0; uint rows; } p;
uint fastdiv(uint n, uint mp, uint L) {
    uint msbs, lsbs;
    umulExtended(n, mp, msbs, lsbs);
    return (msbs + n) >> L;
}
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint row = fastdiv(i, p.mp, p.L);
    if (i % p.ne0 == 0u)
        dst[row + 1u] = float(row);
}
