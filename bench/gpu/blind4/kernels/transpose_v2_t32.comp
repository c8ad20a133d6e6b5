#version 450
// Blind set 4: transpose of a matrix of vec2 (8-B complex values) through
// a 32 x 33 shared tile; 32 x 8 lanes, 4 elements a lane.
layout(local_size_x = 32, local_size_y = 8) in;
layout(set = 0, binding = 0) readonly buffer S { vec2 src[]; };
layout(set = 0, binding = 1) writeonly buffer D { vec2 dst[]; };
layout(push_constant) uniform P { uint rows; uint cols; };
shared vec2 tile[32][33];

void main() {
    uint tx = gl_LocalInvocationID.x, ty = gl_LocalInvocationID.y;
    uint c0 = gl_WorkGroupID.x * 32u, r0 = gl_WorkGroupID.y * 32u;
    for (uint j = ty; j < 32u; j += 8u) {
        uint r = r0 + j, c = c0 + tx;
        if (r < rows && c < cols)
            tile[j][tx] = src[r * cols + c];
    }
    barrier();
    for (uint j = ty; j < 32u; j += 8u) {
        uint c = c0 + j, r = r0 + tx;
        if (r < rows && c < cols)
            dst[c * rows + r] = tile[tx][j];
    }
}
