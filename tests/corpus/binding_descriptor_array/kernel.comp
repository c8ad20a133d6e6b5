#version 450
// Four buffers behind one binding (a descriptor array).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Parts { float v[]; } parts[4];
layout(set = 0, binding = 1) buffer Sum { float s[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    s[i] = parts[0].v[i] + parts[1].v[i] + parts[2].v[i] + parts[3].v[i];
}
