#version 450
// Compute-bound FP64: 8 independent FMA chains per invocation.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) writeonly buffer Out { double o[]; };
layout(push_constant) uniform Params { uint iters; float a; float b; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    double da = double(a), db = double(b);
    double x0 = double(i) * 1e-6, x1 = x0 + 0.1, x2 = x0 + 0.2, x3 = x0 + 0.3;
    double x4 = x0 + 0.4, x5 = x0 + 0.5, x6 = x0 + 0.6, x7 = x0 + 0.7;
    for (uint k = 0; k < iters; k++) {
        x0 = fma(x0, da, db); x1 = fma(x1, da, db);
        x2 = fma(x2, da, db); x3 = fma(x3, da, db);
        x4 = fma(x4, da, db); x5 = fma(x5, da, db);
        x6 = fma(x6, da, db); x7 = fma(x7, da, db);
    }
    o[i] = ((x0 + x1) + (x2 + x3)) + ((x4 + x5) + (x6 + x7));
}
