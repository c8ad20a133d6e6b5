#version 450
// Blind set: tiled transpose through a padded 32 x 33 workgroup tile;
// 32 x 8 invocations, each moving four rows of the tile.
layout(local_size_x = 32, local_size_y = 8) in;
layout(set = 0, binding = 0) readonly buffer I { float src[]; };
layout(set = 0, binding = 1) writeonly buffer O { float dst[]; };
layout(push_constant) uniform P { uint rows; uint cols; };
shared float tile[32][33];

void main() {
    uint lx = gl_LocalInvocationID.x, ly = gl_LocalInvocationID.y;
    uint c0 = gl_WorkGroupID.x * 32u, r0 = gl_WorkGroupID.y * 32u;
    for (uint k = 0u; k < 32u; k += 8u)
        tile[ly + k][lx] = src[(r0 + ly + k) * cols + c0 + lx];
    barrier();
    for (uint k = 0u; k < 32u; k += 8u)
        dst[(c0 + ly + k) * rows + r0 + lx] = tile[lx][ly + k];
}
