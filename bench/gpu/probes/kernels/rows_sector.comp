#version 450
// Probe (rows): one 4-byte read per `stride` floats: read k of invocation g
// is element (g + k * lanes) * stride, lanes = all invocations, `per` reads
// a lane (grid-strided, so the reads of one instruction are consecutive
// strides). stride 8 reads every 32-byte sector of a line, 16 one sector of
// every other, 32 one sector a 128-byte line, 64 and 128 one a line of every
// second and fourth: the DRAM cost of a sector against its neighbours.
layout(local_size_x = 128) in;
layout(set = 0, binding = 0) readonly buffer I { float src[]; };
layout(set = 0, binding = 1) writeonly buffer O { float dst[]; };
layout(push_constant) uniform P { uint n; uint stride; uint per; };

void main() {
    uint g = gl_GlobalInvocationID.x;
    uint lanes = gl_NumWorkGroups.x * 128u;
    float acc = 0.0;
    for (uint k = 0u; k < per; k++) {
        uint i = g + k * lanes;
        if (i < n)
            acc += src[i * stride];
    }
    dst[g] = acc;
}
