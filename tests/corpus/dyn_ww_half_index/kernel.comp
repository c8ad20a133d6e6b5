#version 450
// Two invocations share every slot: l / 2.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) writeonly buffer Out { uint outv[]; };
shared uint slot[32];
void main() {
    uint l = gl_LocalInvocationID.x;
    slot[l / 2u] = l;
    barrier();
    if (l < 32u)
        outv[l] = slot[l];
}
