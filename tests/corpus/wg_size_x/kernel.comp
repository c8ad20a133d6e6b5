#version 450
// Each axis is within the limit, but 1024 x 2 = 2048 invocations per workgroup.
layout(local_size_x = 1024, local_size_y = 2) in;
layout(set = 0, binding = 0) buffer Data { float v[]; };

void main() {
    uint i = gl_GlobalInvocationID.y * 4096 + gl_GlobalInvocationID.x;
    v[i] = v[i] * 2.0;
}
