#version 450
// Probe (memory): each invocation walks `cols` floats of its own row, rows
// `pitch` floats apart, row = invocation % rows. With rows small the matrix
// stays in L2 and the time is the L1's cost per subgroup request for lanes
// `pitch` * 4 bytes apart; with rows = lanes it streams from DRAM. jitter = 1
// starts each row 0..31 floats late (hashed), so the lanes' offsets in their
// lines are scattered, as in a CSR walk over rows of varying length.
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) writeonly buffer S { float s[]; };
layout(push_constant) uniform P { uint lanes; uint rows; uint pitch; uint cols; uint jitter; };

void main() {
    uint g = gl_GlobalInvocationID.x;
    if (g >= lanes)
        return;
    uint base = (g % rows) * pitch;
    if (jitter != 0u)
        base += (g * 2654435761u) >> 27;
    float acc = 0.0;
    for (uint c = 0u; c < cols; c++)
        acc += a[base + c];
    s[g] = acc;
}
