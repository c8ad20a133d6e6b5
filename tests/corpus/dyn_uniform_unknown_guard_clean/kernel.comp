#version 450
// The guard on an unknown uniform count with the store inside the buffer.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform Params { uint count; } params;
layout(set = 0, binding = 1) buffer Out { float dst[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= params.count)
        return;
    dst[i] = 1.0;
}
