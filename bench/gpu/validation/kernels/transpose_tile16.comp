#version 450
// Validation: transpose through an unpadded 16 x 16 tile (16 x 16
// workgroups): the column reads from workgroup memory conflict.
layout(local_size_x = 16, local_size_y = 16) in;
layout(set = 0, binding = 0) readonly buffer In { float src[]; };
layout(set = 0, binding = 1) writeonly buffer Out { float dst[]; };
layout(push_constant) uniform P { uint rows; uint cols; };
shared float tile[16][16];

void main() {
    uint lx = gl_LocalInvocationID.x, ly = gl_LocalInvocationID.y;
    uint bx = gl_WorkGroupID.x * 16u, by = gl_WorkGroupID.y * 16u;
    tile[ly][lx] = src[(by + ly) * cols + bx + lx];
    barrier();
    dst[(bx + ly) * rows + by + lx] = tile[lx][ly];
}
