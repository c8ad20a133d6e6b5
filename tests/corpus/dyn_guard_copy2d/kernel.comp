#version 450
// 2-D copy of a w x h image; the groups overhang the right and bottom edge.
layout(local_size_x = 16, local_size_y = 16) in;
layout(set = 0, binding = 0) readonly buffer Src { float src[]; };
layout(set = 0, binding = 1) writeonly buffer Dst { float dst[]; };
layout(push_constant) uniform Params { uint w; uint h; };
void main() {
    uint x = gl_GlobalInvocationID.x;
    uint y = gl_GlobalInvocationID.y;
    uint i = y * w + x;
    dst[i] = src[i];
}
