#version 450
// Two data-dependent decisions: a shift by 64 where the mask is 0, then a
// store only for positive values (the store takes the shifted index only
// when the first goes one way and the second the other); the shifted index leaves the buffer.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer M { uint mask[]; };
layout(set = 0, binding = 1) readonly buffer V { float v[]; };
layout(set = 0, binding = 2) writeonly buffer Out { float y[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint j;
    if (mask[i] != 0u)
        j = i;
    else
        j = i + 64u;
    if (v[i] > 0.0)
        y[j] = v[i];
}
