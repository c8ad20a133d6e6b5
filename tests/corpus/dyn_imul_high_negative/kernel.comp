#version 450
// A signed offset (i - 512) / 4 from the high word of a product by 2^30,
// recentred by +100 (too little: -128 .. 127).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { float y[]; };
void main() {
    int i = int(gl_GlobalInvocationID.x);
    int hi, lo;
    imulExtended(i - 512, 0x40000000, hi, lo);
    y[hi + 100] += 1.0;
}
