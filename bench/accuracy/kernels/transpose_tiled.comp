#version 450
// out = transpose(in) for an n x n matrix, through a padded 32x33 tile so
// the column reads from shared memory hit distinct banks.
layout(local_size_x = 32, local_size_y = 8) in;
layout(set = 0, binding = 0) readonly buffer In { float src[]; };
layout(set = 0, binding = 1) writeonly buffer Out { float dst[]; };
layout(push_constant) uniform Params { uint n; };
shared float tile[32][33];

void main() {
    uint bx = gl_WorkGroupID.x * 32;
    uint by = gl_WorkGroupID.y * 32;
    uint lx = gl_LocalInvocationID.x;
    uint ly = gl_LocalInvocationID.y;
    for (uint j = 0; j < 32; j += 8)
        tile[ly + j][lx] = src[(by + ly + j) * n + bx + lx];
    barrier();
    for (uint j = 0; j < 32; j += 8)
        dst[(bx + ly + j) * n + by + lx] = tile[lx][ly + j];
}
