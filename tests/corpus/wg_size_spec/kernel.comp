#version 450
// Workgroup size from a specialization constant; the plan asks for 4096.
layout(local_size_x_id = 0) in;
layout(constant_id = 0) const uint WG = 256;
layout(set = 0, binding = 0) buffer Counts { uint hits[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    hits[i] = i % WG;
}
