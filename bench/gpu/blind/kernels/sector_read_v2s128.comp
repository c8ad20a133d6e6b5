#version 450
// Blind set: one sector per lane: each invocation reads 8 B (a vec2) at
// the start of its own 128-B line, `per` lines a lane, grid-strided.
layout(local_size_x = 128) in;
layout(set = 0, binding = 0) readonly buffer I { vec2 src[]; };
layout(set = 0, binding = 1) writeonly buffer O { float dst[]; };
layout(push_constant) uniform P { uint lines; uint per; };

void main() {
    uint g = gl_GlobalInvocationID.x;
    uint stride = gl_NumWorkGroups.x * 128u;
    float acc = 0.0;
    for (uint k = 0u; k < per; k++) {
        uint line = g + k * stride;
        if (line < lines) {
            vec2 v = src[line * 16u];
            acc += v.x - v.y;
        }
    }
    dst[g] = acc;
}
