#version 450
// Blind set 3: a gather through an index table the plan gives (a file
// holding a permutation of 0..4095): output element i reads the source
// at i's 4096-element block plus perm[i mod 4096], scaled; the source
// (128 MiB) is beyond the L2; workgroups of 256 in a 2-D grid
// (rows of gl_NumWorkGroups.x groups).
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer S { float src[]; };
layout(set = 0, binding = 1) readonly buffer I { uint perm[]; };
layout(set = 0, binding = 2) writeonly buffer O { float o[]; };
layout(push_constant) uniform P { uint n; float scale; };

void main() {
    uint i = gl_GlobalInvocationID.y * gl_NumWorkGroups.x * 256u + gl_GlobalInvocationID.x;
    if (i >= n)
        return;
    o[i] = scale * src[(i & ~4095u) + perm[i & 4095u]];
}
