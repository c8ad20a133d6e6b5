#version 450
// Neighbour exchange ordered by groupMemoryBarrier() only.
layout(local_size_x = 32, local_size_y = 2) in;
layout(set = 0, binding = 0) buffer Out { float y[]; };
shared float s[2][32];
void main() {
    uvec2 l = gl_LocalInvocationID.xy;
    s[l.y][l.x] = float(l.x + l.y);
    groupMemoryBarrier();
    y[gl_LocalInvocationIndex] = s[1u - l.y][l.x];
}
