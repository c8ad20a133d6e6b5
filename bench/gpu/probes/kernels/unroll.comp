#version 450
// Does the driver's compiler fully unroll a loop of N constant trips and
// fold what depends only on its counter?  Each trip's weight 1/(1 + k*k)
// is a constant once the loop is unrolled (one FMA a trip is left); kept,
// every trip also pays an integer multiply-add, a conversion, a
// reciprocal and the loop control.  The outer loop (a push-constant trip
// count) makes every N do the same number of trips: iters x N = 2048.
layout(local_size_x = 256) in;
layout(constant_id = 0) const int N = 8;
layout(set = 0, binding = 0) writeonly buffer D { float d[]; };
layout(push_constant) uniform P { uint iters; float a; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    float x = float(i) * 1e-6;
    float acc = 0.0;
    for (uint r = 0u; r < iters; r++) {
        for (int k = 0; k < N; k++) {
            float wt = 1.0 / float(1 + k * k);
            acc = fma(wt, x, acc);
        }
        x += a;
    }
    d[i] = acc;
}
