#version 450
// Every fourth group (wg % 4 == 2) packs pairs into half a tile:
// two invocations write one element.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { float y[]; };
shared float t[64];
void main() {
    uint l = gl_LocalInvocationID.x;
    uint slot = l;
    if ((gl_WorkGroupID.x % 4u) == 2u)
        slot = l / 2u;
    t[slot] = float(l);
    barrier();
    y[gl_GlobalInvocationID.x] = t[l];
}
