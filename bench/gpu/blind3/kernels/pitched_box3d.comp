#version 450
// Blind set 3: copy of a bw x bh x bd box out of a pitched 3-D volume
// (row pitch spitch, slice pitch sslice, box origin ox, oy, oz) into a
// pitched destination (dpitch, dslice); 32 x 4 x 2 workgroups.
layout(local_size_x = 32, local_size_y = 4, local_size_z = 2) in;
layout(set = 0, binding = 0) readonly buffer S { float src[]; };
layout(set = 0, binding = 1) writeonly buffer D { float dst[]; };
layout(push_constant) uniform P {
    uint bw; uint bh; uint bd; uint spitch; uint sslice; uint dpitch; uint dslice;
    uint ox; uint oy; uint oz;
};

void main() {
    uvec3 g = gl_GlobalInvocationID;
    if (g.x >= bw || g.y >= bh || g.z >= bd)
        return;
    dst[g.z * dslice + g.y * dpitch + g.x] = src[(g.z + oz) * sslice + (g.y + oy) * spitch + g.x + ox];
}
