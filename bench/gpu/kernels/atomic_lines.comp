#version 450
// Atomic-contention probe: every invocation adds 1 to one of `words`
// counters chosen by a hash of its index, the counters `stride` words apart
// (stride 1: packed into words/32 lines; stride 32: one per 128-byte line).
// Which of lines, addresses or L2 slices serialise hot-spot atomics.
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) buffer H { uint h[]; };
layout(push_constant) uniform P { uint words; uint stride; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint w = ((i * 2654435761u) >> 8) % words;
    atomicAdd(h[w * stride], 1u);
}
