#version 450
// Naive transpose: coalesced reads, writes with stride n floats.
layout(local_size_x = 16, local_size_y = 16) in;
layout(set = 0, binding = 0) readonly buffer In { float src[]; };
layout(set = 0, binding = 1) writeonly buffer Out { float dst[]; };
layout(push_constant) uniform Params { uint n; };

void main() {
    uint x = gl_GlobalInvocationID.x, y = gl_GlobalInvocationID.y;
    if (x < n && y < n)
        dst[x * n + y] = src[y * n + x];
}
