#version 450
// Blind set 4: launch probe: a handful of workgroups (3 x 2 of 8 x 4
// lanes) scaling and clamping a small 2-D array of 24 x 8.
layout(local_size_x = 8, local_size_y = 4) in;
layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) writeonly buffer Y { float y[]; };
layout(push_constant) uniform P { uint w; };

void main() {
    uint i = gl_GlobalInvocationID.y * w + gl_GlobalInvocationID.x;
    y[i] = clamp(1.5 * x[i] + 0.25, -1.0, 1.0);
}
