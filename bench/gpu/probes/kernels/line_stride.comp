#version 450
// Probe (memory): every 32 consecutive invocations move one whole 128-byte
// line; line t of the strided side sits at (t % rows) * stride + t / rows
// (rows = lines / stride), so consecutive lines are `stride` lines apart, as
// a tiled transpose's row segments are. strided_store = 1: coalesced reads,
// strided full-line stores; 0: strided full-line reads, coalesced stores.
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer Src { float src[]; };
layout(set = 0, binding = 1) writeonly buffer Dst { float dst[]; };
layout(push_constant) uniform P { uint lines; uint stride; uint strided_store; };

void main() {
    uint g = gl_GlobalInvocationID.x;
    uint t = g >> 5u;
    if (t >= lines)
        return;
    uint rows = lines / stride;
    uint line = (t % rows) * stride + t / rows;
    uint far = line * 32u + (g & 31u);
    if (strided_store != 0u)
        dst[far] = src[g];
    else
        dst[g] = src[far];
}
