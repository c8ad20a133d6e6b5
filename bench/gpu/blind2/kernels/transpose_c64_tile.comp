#version 450
// Blind set 2: transpose of a matrix of complex numbers (vec2) through a
// 32 x 32 workgroup tile without padding; 32 x 8 lanes, four rows a lane.
layout(local_size_x = 32, local_size_y = 8) in;
layout(set = 0, binding = 0) readonly buffer I { vec2 src[]; };
layout(set = 0, binding = 1) writeonly buffer O { vec2 dst[]; };
layout(push_constant) uniform P { uint rows; uint cols; };
shared vec2 tile[32][32];

void main() {
    uint tx = gl_LocalInvocationID.x, ty = gl_LocalInvocationID.y;
    uint c0 = gl_WorkGroupID.x * 32u, r0 = gl_WorkGroupID.y * 32u;
    for (uint k = 0u; k < 32u; k += 8u) {
        uint r = r0 + ty + k, c = c0 + tx;
        if (r < rows && c < cols)
            tile[ty + k][tx] = src[r * cols + c];
    }
    barrier();
    for (uint k = 0u; k < 32u; k += 8u) {
        uint c = c0 + ty + k, r = r0 + tx;
        if (r < rows && c < cols)
            dst[c * rows + r] = tile[tx][ty + k];
    }
}
