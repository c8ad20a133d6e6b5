#version 450
// Blind set 2: fused residual add and RMS norm over rows of `cols` floats
// (5120), one workgroup of 512 a row: h = x + res, out = h * g /
// sqrt(mean(h^2) + eps); the sum of squares is a tree reduction in
// workgroup memory.
layout(local_size_x = 512) in;
layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) readonly buffer R { float res[]; };
layout(set = 0, binding = 2) readonly buffer G { float g[]; };
layout(set = 0, binding = 3) writeonly buffer O { float o[]; };
layout(push_constant) uniform P { uint cols; float eps; };
shared float sq[512];

void main() {
    uint l = gl_LocalInvocationID.x, base = gl_WorkGroupID.x * cols;
    float acc = 0.0;
    for (uint c = l; c < cols; c += 512u) {
        float h = x[base + c] + res[base + c];
        acc += h * h;
    }
    sq[l] = acc;
    barrier();
    for (uint s = 256u; s > 0u; s >>= 1) {
        if (l < s)
            sq[l] += sq[l + s];
        barrier();
    }
    float scale = inversesqrt(sq[0] / float(cols) + eps);
    for (uint c = l; c < cols; c += 512u)
        o[base + c] = (x[base + c] + res[base + c]) * scale * g[c];
}
