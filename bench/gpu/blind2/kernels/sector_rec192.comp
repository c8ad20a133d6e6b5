#version 450
// Blind set 2: one sector per lane: records are 192 B (twelve vec4); each
// lane reads the first 32 B of its record (key and value, two vec4) and
// writes their dot product; workgroups of 128.
struct Rec {
    vec4 key;
    vec4 val;
    vec4 rest[10];
};
layout(local_size_x = 128) in;
layout(set = 0, binding = 0) readonly buffer R { Rec rec[]; };
layout(set = 0, binding = 1) writeonly buffer O { float o[]; };
layout(push_constant) uniform P { uint n; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < n)
        o[i] = dot(rec[i].key, rec[i].val);
}
