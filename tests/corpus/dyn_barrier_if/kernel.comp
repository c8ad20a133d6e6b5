#version 450
// Half a reduction step, with the barrier inside the 'if'.
layout(local_size_x = 128) in;
layout(set = 0, binding = 0) readonly buffer In { float data[]; };
layout(set = 0, binding = 1) writeonly buffer Out { float outv[]; };
shared float tile[128];
void main() {
    uint l = gl_LocalInvocationID.x;
    tile[l] = data[gl_GlobalInvocationID.x];
    barrier();
    if (l < 64) {
        tile[l] += tile[l + 64];
        barrier();
    }
    if (l == 0)
        outv[gl_WorkGroupID.x] = tile[0];
}
