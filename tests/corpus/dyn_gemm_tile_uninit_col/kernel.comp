#version 450
// A 16x16 tiled matrix product; the tile load skips column 15 (l.x < 15u),
// which the k-loop reads only at its last iteration.
layout(local_size_x = 16, local_size_y = 16) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) readonly buffer Bm { float b[]; };
layout(set = 0, binding = 2) writeonly buffer C { float cm[]; };
shared float As[16][16];
shared float Bs[16][16];
void main() {
    uvec2 l = gl_LocalInvocationID.xy;
    uint row = gl_GlobalInvocationID.y, col = gl_GlobalInvocationID.x;
    float acc = 0.0;
    for (uint t = 0u; t < 4u; t++) {
        if (l.x < 15u)
            As[l.y][l.x] = a[row * 64u + t * 16u + l.x];
        Bs[l.y][l.x] = b[(t * 16u + l.y) * 64u + col];
        barrier();
        for (uint k = 0u; k < 16u; k++)
            acc += As[l.y][k] * Bs[k][l.x];
        barrier();
    }
    cm[row * 64u + col] = acc;
}
