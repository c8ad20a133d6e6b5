#version 450
// Group 37 handles a patch of the output that sits past the end:
// the first and last groups behave alike, only a middle one differs.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { float y[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint j = i;
    if (gl_WorkGroupID.x == 37u)
        j = i - 2368u + 6400u;
    y[j] = 1.0;
}
