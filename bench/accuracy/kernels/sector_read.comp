#version 450
// One sector per lane: each invocation reads 4 bytes every `stride` floats
// (stride 8: each lane in its own 32-byte sector), writes coalesced.
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer I { float src[]; };
layout(set = 0, binding = 1) writeonly buffer O { float dst[]; };
layout(push_constant) uniform P { uint n; uint stride; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < n)
        dst[i] = src[i * stride] + 1.0;
}
