#version 450
// Adam optimizer step: four streams read (parameters, gradients, two
// moments), three written, a square root and a division per element.
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) buffer Pm { float p[]; };
layout(set = 0, binding = 1) readonly buffer G { float g[]; };
layout(set = 0, binding = 2) buffer M { float m[]; };
layout(set = 0, binding = 3) buffer V { float v[]; };
layout(push_constant) uniform P { uint n; float lr; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= n)
        return;
    float gi = g[i];
    float mi = 0.9 * m[i] + 0.1 * gi;
    float vi = 0.999 * v[i] + 0.001 * gi * gi;
    m[i] = mi;
    v[i] = vi;
    p[i] -= lr * mi / (sqrt(vi) + 1e-8);
}
