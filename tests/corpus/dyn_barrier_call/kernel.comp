#version 450
// A helper with a barrier, called under a condition on the invocation id.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer D { float d[]; };
shared float t[64];
void sync_and_add(uint l) {
    barrier();
    t[l] += 1.0;
}
void main() {
    uint l = gl_LocalInvocationID.x;
    t[l] = d[l];
    if (l < 32u)
        sync_and_add(l);
    d[l] = t[l];
}
