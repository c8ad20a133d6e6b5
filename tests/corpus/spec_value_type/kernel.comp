#version 450
// Items per invocation from a spec constant; the plan gives a fraction.
layout(local_size_x = 64) in;
layout(constant_id = 0) const uint ITEMS = 4;
layout(set = 0, binding = 0) buffer V { float v[]; };

void main() {
    for (uint k = 0; k < ITEMS; k++)
        v[gl_GlobalInvocationID.x * ITEMS + k] *= 2.0;
}
