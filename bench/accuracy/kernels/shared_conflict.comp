#version 450
// Workgroup memory with a 32-way bank conflict on a 32-bank GPU: neighbouring
// invocations read words 32 apart (the column of a [32][32] tile).
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) writeonly buffer Out { float o[]; };
layout(push_constant) uniform Params { uint iters; };
shared float tile[1024];

void main() {
    uint l = gl_LocalInvocationID.x;
    for (uint j = 0; j < 4; j++)
        tile[l * 4 + j] = float(l + j);
    barrier();
    float acc = 0.0;
    for (uint k = 0; k < iters; k++)
        acc += tile[(l * 32 + k) & 1023u];
    o[gl_GlobalInvocationID.x] = acc;
}
