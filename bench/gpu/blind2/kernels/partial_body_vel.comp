#version 450
// Blind set 2: partial-sector writes: bodies are 48-B records (position,
// velocity, acceleration); each lane stores only velocity.xy (8 B at byte
// 16 of its record) from a packed force array; workgroups of 256.
struct Body {
    vec4 pos;
    vec4 vel;
    vec4 acc;
};
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer F { vec2 force[]; };
layout(set = 0, binding = 1) writeonly buffer B { Body body[]; };
layout(push_constant) uniform P { uint n; float dt; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < n)
        body[i].vel.xy = force[i] * dt;
}
