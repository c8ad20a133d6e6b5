#version 450
// Unrolled partial sums; the plan sets SpecId 1 (UNROLL), which the shader declares.
layout(local_size_x = 64) in;
layout(constant_id = 1) const uint UNROLL = 4;
layout(set = 0, binding = 0) readonly buffer In { float a[]; };
layout(set = 0, binding = 1) writeonly buffer Out { float s[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    float acc = 0.0;
    for (uint k = 0; k < UNROLL; k++)
        acc += a[i * UNROLL + k];
    s[i] = acc;
}
