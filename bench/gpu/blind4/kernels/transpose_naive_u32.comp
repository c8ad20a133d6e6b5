#version 450
// Blind set 4: naive transpose of a uint matrix, 16 x 16 workgroups:
// coalesced reads along a row, writes a column apart (4-B stores a
// `rows` stride from each other).
layout(local_size_x = 16, local_size_y = 16) in;
layout(set = 0, binding = 0) readonly buffer S { uint src[]; };
layout(set = 0, binding = 1) writeonly buffer D { uint dst[]; };
layout(push_constant) uniform P { uint rows; uint cols; };

void main() {
    uint c = gl_GlobalInvocationID.x, r = gl_GlobalInvocationID.y;
    if (r < rows && c < cols)
        dst[c * rows + r] = src[r * cols + c];
}
