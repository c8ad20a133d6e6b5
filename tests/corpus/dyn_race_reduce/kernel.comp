#version 450
// Tree reduction without the barrier inside the loop.
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer In { float data[]; };
layout(set = 0, binding = 1) writeonly buffer Out { float partial[]; };
shared float tile[256];
void main() {
    uint l = gl_LocalInvocationID.x;
    tile[l] = data[gl_GlobalInvocationID.x];
    barrier();
    for (uint s = 128; s > 0; s >>= 1) {
        if (l < s)
            tile[l] += tile[l + s];
    }
    barrier();
    if (l == 0)
        partial[gl_WorkGroupID.x] = tile[0];
}
