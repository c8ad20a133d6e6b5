#version 450
// Sizes its loop by the length of binding 1, which the plan leaves out.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { uint o[]; };
layout(set = 0, binding = 1) readonly buffer Ref { float r[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    o[i] = uint(r.length());
}
