#version 450
// A 2-D group writes one value per row, but every column writes it.
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) readonly buffer In { float data[]; };
layout(set = 0, binding = 1) writeonly buffer Out { float outv[]; };
shared float rowv[8];
void main() {
    uint x = gl_LocalInvocationID.x, y = gl_LocalInvocationID.y;
    rowv[y] = data[y * 8u + x];
    barrier();
    outv[y * 8u + x] = rowv[y];
}
