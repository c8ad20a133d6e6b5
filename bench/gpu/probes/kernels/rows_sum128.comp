#version 450
// Probe (rows): each invocation sums its own row of `cols` floats, rows
// `cols` floats apart (lanes 4 * cols bytes apart), workgroups of 128, one
// row per invocation. With few workgroups per unit the lines a lane is
// walking (one per lane, 16 KiB per workgroup) stay in L1 for the next 31
// iterations; with many they do not: the groups sweep at cols = 1000 puts
// 2..20 workgroups on each unit and finds the L1 a kernel without
// workgroup memory gets. `reps` > 1: each invocation then walks `reps`
// rows, one after the other, `rows` rows apart (so that a dispatch of few
// workgroups still moves >= 200 MB).
layout(local_size_x = 128) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) writeonly buffer S { float s[]; };
layout(push_constant) uniform P { uint rows; uint cols; uint reps; };

void main() {
    uint r = gl_GlobalInvocationID.x;
    if (r >= rows)
        return;
    float acc = 0.0;
    for (uint j = 0u; j < reps; j++) {
        uint base = (r + j * rows) * cols;
        for (uint c = 0u; c < cols; c++)
            acc += a[base + c];
    }
    s[r] = acc;
}
