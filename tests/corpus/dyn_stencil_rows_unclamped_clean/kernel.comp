#version 450
// A vertical 5-point filter over a 64 x 64 grid, rows y + dy for dy in
// -2 .. 2, clamped to the grid.
layout(local_size_x = 16, local_size_y = 16) in;
layout(set = 0, binding = 0) readonly buffer In { float src[]; };
layout(set = 0, binding = 1) writeonly buffer Out { float dst[]; };
void main() {
    int x = int(gl_GlobalInvocationID.x), y = int(gl_GlobalInvocationID.y);
    float s = 0.0;
    for (int dy = -2; dy <= 2; dy++) {
        int yy = clamp(y + dy, 0, 63);
        s += src[yy * 64 + x];
    }
    dst[y * 64 + x] = s;
}
