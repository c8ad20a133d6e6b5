#version 450
// Clamp to [0, limit]; the plan gives a negative limit for a uint.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer V { uint v[]; };
layout(push_constant) uniform P { uint limit; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    v[i] = min(v[i], limit);
}
