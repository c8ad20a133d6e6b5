#version 450
// Every 1000th group (wg % 1000 == 999) writes one tail element; the tail
// holds all 4 (groups 999, 1999, 2999, 3999).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { float y[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    if ((gl_WorkGroupID.x % 1000u) == 999u && gl_LocalInvocationID.x == 0u)
        y[288000u + gl_WorkGroupID.x / 1000u] = 2.0;
    y[i] = 1.0;
}
