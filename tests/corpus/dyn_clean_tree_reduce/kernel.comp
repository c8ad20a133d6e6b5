#version 450
// Tree reduction: each workgroup sums 256 elements into out[group].
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer In { float data[]; };
layout(set = 0, binding = 1) writeonly buffer Out { float partial[]; };
layout(push_constant) uniform Params { uint n; };
shared float tile[256];

void main() {
    uint l = gl_LocalInvocationID.x;
    uint i = gl_GlobalInvocationID.x;
    tile[l] = i < n ? data[i] : 0.0;
    barrier();
    for (uint s = 128; s > 0; s >>= 1) {
        if (l < s)
            tile[l] += tile[l + s];
        barrier();
    }
    if (l == 0)
        partial[gl_WorkGroupID.x] = tile[0];
}
