#version 450
// CSR sparse matrix-vector product over a generated structure: row r holds
// 4..32 entries (a hash of r) in slots r*32 .., column of entry j a hash of
// (r, j) over `cols` columns; one invocation per row (scalar CSR): the
// values stream, x is gathered.
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer V { float vals[]; };
layout(set = 0, binding = 1) readonly buffer X { float x[]; };
layout(set = 0, binding = 2) writeonly buffer Y { float y[]; };
layout(push_constant) uniform P { uint rows; uint cols; };

void main() {
    uint r = gl_GlobalInvocationID.x;
    if (r >= rows)
        return;
    uint len = 4u + ((r * 2654435761u) >> 27) % 29u;
    uint start = r * 32u;
    float acc = 0.0;
    for (uint j = 0u; j < len; j++) {
        uint col = ((start + j) * 2246822519u) & (cols - 1u);
        acc += vals[start + j] * x[col];
    }
    y[r] = acc;
}
