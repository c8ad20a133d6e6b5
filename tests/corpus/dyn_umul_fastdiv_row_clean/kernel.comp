#version 450
// Division by 3 with a magic multiplier (0xAAAAAAAB, shift 1), as fast
// division does; items run to 3 * rows, rows = 1024.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Rows { float r[]; };
layout(push_constant) uniform P { uint n; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= n)
        return;
    uint hi, lo;
    umulExtended(i, 0xAAAAAAABu, hi, lo);
    uint q = hi >> 1;
    r[q] += 1.0;
}
