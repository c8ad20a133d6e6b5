#version 450
// Each invocation copies a strip of 'count' elements, 1-based by mistake.
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) readonly buffer In { uint src[]; };
layout(set = 0, binding = 1) writeonly buffer Out { uint dst[]; };
layout(push_constant) uniform Params { uint count; };
void main() {
    uint base = gl_GlobalInvocationID.x * count;
    for (uint j = 1; j <= count; j++) {
        uint v = src[base + j];
        dst[base + j] = v;
    }
}
