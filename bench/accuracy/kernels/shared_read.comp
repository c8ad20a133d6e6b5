#version 450
// Workgroup-memory-bound: every invocation reads the shared tile iters times.
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) writeonly buffer Out { float o[]; };
layout(push_constant) uniform Params { uint iters; };
shared float tile[256];

void main() {
    uint l = gl_LocalInvocationID.x;
    tile[l] = float(l);
    barrier();
    float acc = 0.0;
    for (uint k = 0; k < iters; k++)
        acc += tile[(l + k) & 255u];
    o[gl_GlobalInvocationID.x] = acc;
}
