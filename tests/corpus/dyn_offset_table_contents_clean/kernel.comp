#version 450
// Each group writes at an offset read from a table the plan fills
// (64 * group).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer Offsets { uint base[]; };
layout(set = 0, binding = 1) writeonly buffer Out { float y[]; };
void main() {
    uint o = base[gl_WorkGroupID.x];
    y[o + gl_LocalInvocationID.x] = 1.0;
}
