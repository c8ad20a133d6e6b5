#version 450
// Probe (row pages, gen_rowpages.py, written from row_pages_v4.comp:
// the rows folded onto the first L2ROWS, a matrix L2 holds): each invocation g of lanes = all
// invocations sums `reps` rows of `cols` elements one after the other
// (row g + k lanes for the k-th), rows contiguous (the pitch is the row),
// with vec4 loads (16 B a lane a trip).
// coal != 0 reads the same elements with the lanes side by side instead
// (element (k cols + c) lanes + g): the matrix as one coalesced stream.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { vec4 a[]; };
layout(set = 0, binding = 1) writeonly buffer Y { float y[]; };
layout(constant_id = 0) const uint L2ROWS = 8192u;
layout(push_constant) uniform P { uint cols; uint reps; uint coal; };

void main() {
    uint g = gl_GlobalInvocationID.x, lanes = gl_NumWorkGroups.x * 64u;
    vec4 acc = vec4(0.0);
    for (uint k = 0u; k < reps; k++)
        for (uint c = 0u; c < cols; c++)
            acc += a[coal != 0u ? (k * cols + c) * lanes + g : ((k * lanes + g) & (L2ROWS - 1u)) * cols + c];
    y[g] = (acc.x + acc.y) + (acc.z + acc.w);
}
