#version 450
// Atomics-bound: every invocation adds to one counter.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer C { uint counter[]; };

void main() {
    atomicAdd(counter[0], 1u);
}
