#version 450
// Blind set: CSR SpMV over a generated banded structure: row r holds the
// entries row_start(r) .. row_start(r + 1) with row_start(r) = 16 r +
// (r * 7 & 7) (rows of 9 to 23 entries); an entry's column is the row plus
// a signed offset read from the index buffer (-8..8, scaled by 37), mod
// `cols`.  One invocation per row, workgroups of 64.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer V { float vals[]; };
layout(set = 0, binding = 1) readonly buffer C { int off[]; };
layout(set = 0, binding = 2) readonly buffer X { float x[]; };
layout(set = 0, binding = 3) writeonly buffer Y { float y[]; };
layout(push_constant) uniform P { uint rows; uint cols; };

uint row_start(uint r) { return 16u * r + ((r * 7u) & 7u); }

void main() {
    uint r = gl_GlobalInvocationID.x;
    if (r >= rows)
        return;
    float acc = 0.0;
    for (uint j = row_start(r); j < row_start(r + 1u); j++) {
        uint col = uint(int(r) + off[j] * 37 + int(cols)) % cols;
        acc += vals[j] * x[col];
    }
    y[r] = acc;
}
