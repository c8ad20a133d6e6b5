#version 450
// One workgroup per row; 100000 rows in y exceed 65535 groups.
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) buffer R { uint rows[]; };

void main() {
    if (gl_LocalInvocationID.x == 0)
        rows[gl_WorkGroupID.y] = gl_WorkGroupID.y;
}
