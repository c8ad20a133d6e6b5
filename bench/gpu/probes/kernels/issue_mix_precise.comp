#version 450
// Probe (issue mix, gen_issuemix.py): as issue_mix.comp with X = 0 and
// MULADD = 1, but the accumulators `precise`: SPIR-V NoContraction, so
// each a * b + c stays a multiply and an add (two instructions).
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) writeonly buffer O { float dst[]; };
layout(push_constant) uniform P { uint reps; uint zero; float a; };

void main() {
    uint l = gl_LocalInvocationID.x;
    precise float acc[8];
    for (uint k = 0u; k < 8u; k++)
        acc[k] = float(l + k);
    for (uint r = 0u; r < reps; r++)
        for (uint j = 0u; j < 32u; j++)
            for (uint k = 0u; k < 8u; k++)
                acc[k] = acc[k] * a + 1.0;
    float s = 0.0;
    for (uint k = 0u; k < 8u; k++)
        s += acc[k];
    dst[gl_GlobalInvocationID.x] = s;
}
