#version 450
// Blind set 2: pitched copy of a w x h rectangle of vec4 texels starting
// at (ox, oy) of a source of pitch spitch into a destination of pitch
// dpitch (pitches in texels, rows padded); 64 x 4 workgroups.
layout(local_size_x = 64, local_size_y = 4) in;
layout(set = 0, binding = 0) readonly buffer S { vec4 src[]; };
layout(set = 0, binding = 1) writeonly buffer D { vec4 dst[]; };
layout(push_constant) uniform P { uint w; uint h; uint spitch; uint dpitch; uint ox; uint oy; };

void main() {
    uint x = gl_GlobalInvocationID.x, y = gl_GlobalInvocationID.y;
    if (x < w && y < h)
        dst[y * dpitch + x] = src[(y + oy) * spitch + x + ox];
}
