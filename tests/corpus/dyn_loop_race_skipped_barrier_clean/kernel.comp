#version 450
// An 8-step exchange: each step publishes a value and reads the neighbour's;
// the second barrier runs every step, so the next step's write races the read.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { float y[]; };
shared float s[64];
void main() {
    uint l = gl_LocalInvocationID.x;
    float acc = 0.0;
    for (uint c = 0u; c < 8u; c++) {
        s[l] = float(l + c);
        barrier();
        acc += s[(l + 1u) % 64u];
        if (c < 8u)
            barrier();
    }
    y[gl_GlobalInvocationID.x] = acc;
}
