#version 450
// The fastdiv row index (umulExtended magic division by ne0 = 96), one
// element per row, written at the row itself.
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
        dst[row] = float(row);
}
