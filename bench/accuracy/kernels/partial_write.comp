#version 450
// Partial-sector writes: each invocation stores 4 bytes every `stride`
// floats (stride 16: one 4-byte write per 64 bytes, every store alone in
// its 32-byte sector); the reads are coalesced.
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer I { float src[]; };
layout(set = 0, binding = 1) writeonly buffer O { float dst[]; };
layout(push_constant) uniform P { uint n; uint stride; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < n)
        dst[i * stride] = src[i] * 2.0;
}
