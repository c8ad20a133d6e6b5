#version 450
// Blind set 4: one sector per lane: lane i reads the vec4 at the start of
// its 160-B record (a column of 10-vec4 rows) and writes a weighted sum,
// 128 lanes a workgroup.
layout(local_size_x = 128) in;
layout(set = 0, binding = 0) readonly buffer R { vec4 rec[]; };
layout(set = 0, binding = 1) writeonly buffer O { float o[]; };
layout(push_constant) uniform P { uint n; uint recv4; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= n)
        return;
    vec4 v = rec[i * recv4];
    o[i] = dot(v, vec4(1.0, -1.0, 0.5, 0.25));
}
