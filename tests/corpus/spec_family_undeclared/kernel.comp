#version 450
// One of a family of pipelines: the plan sets SpecIds 0, 1 and 2; this
// variant declares only 0 and 1.
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint STRIDE = 1;
layout(set = 0, binding = 0) buffer Out { float y[]; };
void main() {
    y[gl_GlobalInvocationID.x * STRIDE] = 1.0;
}
