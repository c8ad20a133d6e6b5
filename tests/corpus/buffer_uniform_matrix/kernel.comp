#version 450
// A uniform block holding a mat4 (64 bytes); the plan gives 16 bytes.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform Xform { mat4 m; };
layout(set = 0, binding = 1) buffer Pts { vec4 p[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    p[i] = m * p[i];
}
