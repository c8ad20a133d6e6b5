#version 450
// Blind set 3: naive transpose of a rows x cols float matrix with tall
// 8 x 32 workgroups (x along a row): each invocation copies one element,
// 8 lanes reading a 32-B run of a row, 32 lanes writing a 128-B run of an
// output row.
layout(local_size_x = 8, local_size_y = 32) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) writeonly buffer T { float t[]; };
layout(push_constant) uniform P { uint rows; uint cols; };

void main() {
    uint c = gl_GlobalInvocationID.x, r = gl_GlobalInvocationID.y;
    if (r < rows && c < cols)
        t[c * rows + r] = a[r * cols + c];
}
