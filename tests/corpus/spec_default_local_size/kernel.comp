#version 450
// The author means a 256-wide workgroup, but local_size_x_id = 0 gets its
// own spec constant (default 1): without a plan value, groups are 1 wide.
layout(local_size_x_id = 0) in;
layout(constant_id = 0) const uint WG = 256;
layout(set = 0, binding = 0) buffer V { float v[]; };

void main() {
    uint i = gl_WorkGroupID.x * WG + gl_LocalInvocationID.x;
    v[i] = 1.0;
}
