#version 450
// Blind set 3: one sector per lane: records of 144 B (a vec2 key and 34
// floats of payload); each invocation reads only its record's key (8 B)
// and writes a float, workgroups of 32 x 4.
struct Record {
    vec2 key;
    float payload[34];
};
layout(local_size_x = 32, local_size_y = 4) in;
layout(set = 0, binding = 0) readonly buffer R { Record rec[]; };
layout(set = 0, binding = 1) writeonly buffer O { float o[]; };
layout(push_constant) uniform P { uint n; };

void main() {
    uint i = gl_WorkGroupID.x * 128u + gl_LocalInvocationIndex;
    if (i >= n)
        return;
    vec2 k = rec[i].key;
    o[i] = k.x * k.x - k.y;
}
