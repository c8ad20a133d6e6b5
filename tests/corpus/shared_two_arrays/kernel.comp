#version 450
// Two shared arrays, 20 KiB + 16 KiB: together over 32 KiB.
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer In { vec4 a[]; };
layout(set = 0, binding = 1) writeonly buffer Out { float o[]; };
shared vec4 stage[1280];
shared float sums[4096];

void main() {
    uint l = gl_LocalInvocationID.x;
    uint i = gl_GlobalInvocationID.x;
    for (uint k = 0; k < 5; k++)
        stage[l * 5 + k] = a[i];
    for (uint k = 0; k < 16; k++)
        sums[l * 16 + k] = float(k);
    barrier();
    o[i] = stage[l * 5].x + sums[l * 16 + 3];
}
