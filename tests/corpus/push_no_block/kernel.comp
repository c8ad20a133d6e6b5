#version 450
// Size fixed at compile time: no push constants at all.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer V { int v[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < 1000u)
        v[i] = -v[i];
}
