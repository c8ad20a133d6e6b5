#version 450
// Validation: one sector per lane: each invocation reads 4 bytes every
// 64 bytes (every other sector untouched), `per` reads a lane, grid stride.
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer I { float src[]; };
layout(set = 0, binding = 1) writeonly buffer O { float dst[]; };
layout(push_constant) uniform P { uint n; uint per; };

void main() {
    uint inv = gl_NumWorkGroups.x * 256u;
    float acc = 0.0;
    for (uint k = 0u; k < per; k++) {
        uint i = gl_GlobalInvocationID.x + k * inv;
        if (i < n)
            acc += src[i * 16u];
    }
    dst[gl_GlobalInvocationID.x] = acc;
}
