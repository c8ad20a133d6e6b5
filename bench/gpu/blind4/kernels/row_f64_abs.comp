#version 450
// Blind set 4: a lane walks its own row of doubles: the L1 norm and the
// sum of squares of the first len elements of a row laid out at a pitch of
// `pitch` doubles (consecutive lanes' reads are a whole row apart: a
// row-wise reduction with a stride); workgroups of 96.
layout(local_size_x = 96) in;
layout(set = 0, binding = 0) readonly buffer A { double a[]; };
layout(set = 0, binding = 1) writeonly buffer S { double s[]; };
layout(push_constant) uniform P { uint rows; uint len; uint pitch; };

void main() {
    uint r = gl_GlobalInvocationID.x;
    if (r >= rows)
        return;
    uint base = r * pitch;
    double l1 = 0.0, l2 = 0.0;
    for (uint c = 0u; c < len; c++) {
        double v = a[base + c];
        l1 += abs(v);
        l2 += v * v;
    }
    s[2u * r] = l1;
    s[2u * r + 1u] = l2;
}
