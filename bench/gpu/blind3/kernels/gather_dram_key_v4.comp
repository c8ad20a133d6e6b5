#version 450
// Blind set 3: two vec4 gathers a lane from a 512-MiB table (far beyond
// the L2), the indices hashed from a key buffer's float bits; workgroups
// of 64 x 4, the result a vec4 a lane.
layout(local_size_x = 64, local_size_y = 4) in;
layout(set = 0, binding = 0) readonly buffer K { float key[]; };
layout(set = 0, binding = 1) readonly buffer T { vec4 tab[]; };
layout(set = 0, binding = 2) writeonly buffer O { vec4 o[]; };
layout(push_constant) uniform P { uint n; uint tsize; };

void main() {
    uint i = gl_WorkGroupID.x * 256u + gl_LocalInvocationIndex;
    if (i >= n)
        return;
    uint h = floatBitsToUint(key[i]) * 0xcc9e2d51u;
    h = (h << 15 | h >> 17) * 0x1b873593u;
    uint h2 = (h ^ (h >> 16)) * 0x85ebca6bu;
    h2 ^= h2 >> 13;
    o[i] = tab[h % tsize] - 0.5 * tab[h2 % tsize];
}
