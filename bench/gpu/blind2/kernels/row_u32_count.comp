#version 450
// Blind set 2: per-lane row walk over unsigned integers: each invocation
// reads its own row of `cols` uints (61: rows are not line aligned) and
// writes the row's sum and how many of its entries reach `thresh`.
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) writeonly buffer O { uvec2 o[]; };
layout(push_constant) uniform P { uint rows; uint cols; uint thresh; };

void main() {
    uint r = gl_GlobalInvocationID.x;
    if (r >= rows)
        return;
    uint sum = 0u, hits = 0u;
    for (uint c = 0u; c < cols; ++c) {
        uint v = a[r * cols + c];
        sum += v;
        hits += v >= thresh ? 1u : 0u;
    }
    o[r] = uvec2(sum, hits);
}
