#version 450
// Blind set: matrix-vector product by workgroup: one workgroup of 256 per
// row of `cols` floats (16384), coalesced loads, a tree reduction in
// workgroup memory, one store per row.
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) readonly buffer X { float x[]; };
layout(set = 0, binding = 2) writeonly buffer Y { float y[]; };
layout(push_constant) uniform P { uint cols; };
shared float red[256];

void main() {
    uint l = gl_LocalInvocationID.x;
    uint base = gl_WorkGroupID.x * cols;
    float acc = 0.0;
    for (uint c = l; c < cols; c += 256u)
        acc = fma(a[base + c], x[c], acc);
    red[l] = acc;
    barrier();
    for (uint s = 128u; s > 0u; s >>= 1) {
        if (l < s)
            red[l] += red[l + s];
        barrier();
    }
    if (l == 0u)
        y[gl_WorkGroupID.x] = red[0];
}
