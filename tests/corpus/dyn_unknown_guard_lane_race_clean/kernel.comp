#version 450
// Each invocation stores to its own slot or, when its value is negative, to
// a second array: neighbours that decide differently collide.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer V { float v[]; };
layout(set = 0, binding = 1) writeonly buffer Out { float y[]; };
shared float s[65];
shared float n[64];
void main() {
    uint l = gl_LocalInvocationID.x;
    s[l] = 0.0;
    barrier();
    if (v[gl_GlobalInvocationID.x] < 0.0)
        n[l] = 1.0;
    else
        s[l] = 2.0;
    barrier();
    y[gl_GlobalInvocationID.x] = s[l];
}
