#version 450
// Probe (rows): row-wise softmax with a kept loop over a run-time width
// (`cols`, a multiple of 256): one workgroup of 256 a row, each lane's
// loads one a trip, max and sum by tree reductions in workgroup memory, the
// row read three times (the second and third from the caches), written
// once: the corpus softmax_row's shape at other widths.
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) writeonly buffer Y { float y[]; };
layout(push_constant) uniform P { uint cols; };
shared float red[256];

void main() {
    uint l = gl_LocalInvocationID.x;
    uint base = gl_WorkGroupID.x * cols;
    float m = -3.0e38;
    for (uint c = l; c < cols; c += 256u)
        m = max(m, x[base + c]);
    red[l] = m;
    barrier();
    for (uint s = 128u; s > 0u; s >>= 1) {
        if (l < s)
            red[l] = max(red[l], red[l + s]);
        barrier();
    }
    m = red[0];
    barrier();
    float sum = 0.0;
    for (uint c = l; c < cols; c += 256u)
        sum += exp(x[base + c] - m);
    red[l] = sum;
    barrier();
    for (uint s = 128u; s > 0u; s >>= 1) {
        if (l < s)
            red[l] += red[l + s];
        barrier();
    }
    float inv = 1.0 / red[0];
    for (uint c = l; c < cols; c += 256u)
        y[base + c] = exp(x[base + c] - m) * inv;
}
