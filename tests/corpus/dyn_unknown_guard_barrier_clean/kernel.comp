#version 450
// A per-workgroup flag from a buffer (contents not given) guards a
// reversal through shared memory with a barrier inside: every invocation of a workgroup reads the same flag.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer F { uint flag[]; };
layout(set = 0, binding = 1) buffer Y { float y[]; };
shared float s[64];
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint l = gl_LocalInvocationID.x;
    if (flag[i / 64u] != 0u) {
        s[l] = y[i];
        barrier();
        y[i] = s[63u - l];
    }
}
