#version 450
// Probe (memory): four hashed gathers an invocation from a table of `tsize`
// floats, `group` consecutive lanes reading consecutive words of one place
// (group 1: every lane its own line; 8: a sector per 8 lanes; 32: a line
// per subgroup). With the table in L2, the time per request against the
// lines and sectors it touches says what an L2-hit gather costs.
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer T { float table[]; };
layout(set = 0, binding = 1) writeonly buffer O { float dst[]; };
layout(push_constant) uniform P { uint n; uint tsize; uint group; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= n)
        return;
    uint h = (i / group) * 0x2c1b3c6du + 0x9e3779b9u;
    float acc = 0.0;
    for (uint k = 0u; k < 4u; k++) {
        h ^= h << 13;
        h ^= h >> 17;
        h ^= h << 5;
        acc += table[((h % (tsize / group)) * group + i % group) % tsize];
    }
    dst[i] = acc;
}
