#version 450
// Blind set 4: a partial-sector write: lane i stores one float at
// out[6 i + 1] (a 24-B stride, so each 32-B sector gets one or two 4-B
// stores), reading a dense float input; 192 lanes a workgroup.
layout(local_size_x = 192) in;
layout(set = 0, binding = 0) readonly buffer I { float inp[]; };
layout(set = 0, binding = 1) writeonly buffer O { float outp[]; };
layout(push_constant) uniform P { uint n; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < n)
        outp[6u * i + 1u] = 2.0 * inp[i] + 1.0;
}
