#version 450
// Pairs of outputs per item, up to a count from a uniform buffer (the plan
// gives count = 300); the output holds 600 elements.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform Params { uint count; } params;
layout(set = 0, binding = 1) writeonly buffer Out { float y[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= params.count)
        return;
    y[2u * i] = 1.0;
    y[2u * i + 1u] = 2.0;
}
