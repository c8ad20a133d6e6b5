#version 450
// Atomics over distinct addresses: a 4096-bin histogram of the ids.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer H { uint bins[]; };

void main() {
    atomicAdd(bins[gl_GlobalInvocationID.x & 4095u], 1u);
}
