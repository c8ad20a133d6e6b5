#version 450
// A reversal through shared memory ordered by memoryBarrierShared() alone (no execution barrier).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { float y[]; };
shared float s[64];
void main() {
    uint l = gl_LocalInvocationID.x;
    s[l] = float(l) * 0.5;
    memoryBarrierShared();
    y[gl_GlobalInvocationID.x] = s[63u - l];
}
