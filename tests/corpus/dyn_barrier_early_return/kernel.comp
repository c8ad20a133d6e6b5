#version 450
// Invocations past n return before the barrier the others wait at.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { float data[]; };
layout(set = 0, binding = 1) writeonly buffer Out { float outv[]; };
layout(push_constant) uniform Params { uint n; };
shared float tile[64];
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint l = gl_LocalInvocationID.x;
    if (i >= n)
        return;
    tile[l] = data[i];
    barrier();
    outv[i] = tile[63 - l];
}
