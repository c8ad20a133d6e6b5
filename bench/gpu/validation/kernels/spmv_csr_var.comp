#version 450
// Validation: scalar CSR SpMV, rows of nnz_row - (r & 7) entries in
// slots r * nnz_row .., column of entry j a hash of j over `cols` (a power
// of two); one invocation per row, workgroups of 32.
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) readonly buffer V { float vals[]; };
layout(set = 0, binding = 1) readonly buffer X { float x[]; };
layout(set = 0, binding = 2) writeonly buffer Y { float y[]; };
layout(push_constant) uniform P { uint rows; uint cols; uint nnz_row; };

void main() {
    uint r = gl_GlobalInvocationID.x;
    if (r >= rows)
        return;
    uint start = r * nnz_row, end = start + nnz_row - (r & 7u);
    float acc = 0.0;
    for (uint j = start; j < end; j++)
        acc += vals[j] * x[(j * 0x9e3779b1u) >> 8 & (cols - 1u)];
    y[r] = acc;
}
