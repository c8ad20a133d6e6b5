#version 450
// Probe (issue mix, gen_issuemix.py): X = 0: every step 8 independent FP32
// multiply-adds a lane, fma() (MULADD = 0) or written a * b + c (MULADD =
// 1, which SPIR-V lets the compiler contract into one FMA); X > 0: every
// step one conflict-free workgroup-memory load (lane i of warp w reads word
// w * 1024 + 32 j + i of step j: base plus a constant) feeding X FMAs on
// X accumulators. 32 unrolled steps a trip; `zero` is 0 at run time, so
// the trips' addresses are not proven invariant.
layout(local_size_x = 256) in;
layout(constant_id = 0) const uint X = 0u;
layout(constant_id = 1) const uint MULADD = 0u;
layout(set = 0, binding = 0) writeonly buffer O { float dst[]; };
layout(push_constant) uniform P { uint reps; uint zero; float a; };
shared float t[8192];

void main() {
    uint l = gl_LocalInvocationID.x;
    uint base = (l >> 5) * 1024u + (l & 31u);
    float acc[16];
    for (uint k = 0u; k < 16u; k++)
        acc[k] = float(l + k);
    if (X != 0u) {
        for (uint j = 0u; j < 32u; j++)
            t[base + j * 32u] = float(j);
        barrier();
    }
    for (uint r = 0u; r < reps; r++) {
        uint b = base + (r & zero);
        for (uint j = 0u; j < 32u; j++) {
            if (X == 0u) {
                for (uint k = 0u; k < 8u; k++)
                    acc[k] = MULADD != 0u ? acc[k] * a + 1.0 : fma(acc[k], a, 1.0);
            } else {
                float v = t[b + j * 32u];
                for (uint k = 0u; k < X; k++)
                    acc[k] = fma(acc[k], a, v);
            }
        }
    }
    float s = 0.0;
    for (uint k = 0u; k < 16u; k++)
        s += acc[k];
    dst[gl_GlobalInvocationID.x] = s;
}
