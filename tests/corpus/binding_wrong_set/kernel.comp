#version 450
// Reads its input from descriptor set 1; the plan gives set 0.
layout(local_size_x = 64) in;
layout(set = 1, binding = 0) readonly buffer In { vec2 pts[]; };
layout(set = 0, binding = 1) writeonly buffer Out { float len2[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    len2[i] = dot(pts[i], pts[i]);
}
