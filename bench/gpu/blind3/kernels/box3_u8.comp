#version 450
// Blind set 3: 3 x 3 box filter on an 8-bit grey image stored four pixels
// to a uint (no 8-bit storage needed), borders clamped pixel by pixel:
// each invocation makes one word (4 pixels) from the 3 x 3 words around
// it; 16 x 16 workgroups.
layout(local_size_x = 16, local_size_y = 16) in;
layout(set = 0, binding = 0) readonly buffer I { uint img[]; };
layout(set = 0, binding = 1) writeonly buffer O { uint outp[]; };
layout(push_constant) uniform P { uint wq; uint h; };

uint px(uint row, int x) { // pixel x of a row, x clamped to the row
    int xc = clamp(x, 0, int(wq * 4u) - 1);
    return (img[row * wq + uint(xc >> 2)] >> (8u * uint(xc & 3))) & 255u;
}

void main() {
    uint gx = gl_GlobalInvocationID.x, gy = gl_GlobalInvocationID.y;
    if (gx >= wq || gy >= h)
        return;
    uint word = 0u;
    for (int k = 0; k < 4; k++) {
        int x = int(gx * 4u) + k;
        uint s = 0u;
        for (int dy = -1; dy <= 1; dy++) {
            uint row = uint(clamp(int(gy) + dy, 0, int(h) - 1));
            s += px(row, x - 1) + px(row, x) + px(row, x + 1);
        }
        word |= ((s + 4u) / 9u) << (8u * uint(k));
    }
    outp[gy * wq + gx] = word;
}
