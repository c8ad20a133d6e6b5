#version 450
// Log2 bins of the index into a private table of 10 counters
// (findMSB of the odd numbers 1 .. 2047 is 0 .. 10).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { uint y[]; };
void main() {
    uint i = gl_GlobalInvocationID.x | 1u;
    uint bins[10];
    for (int b = 0; b < 10; b++)
        bins[b] = 0u;
    int m = findMSB(i);
    bins[m] = i;
    y[gl_GlobalInvocationID.x] = bins[0] + bins[1];
}
