#version 450
// Blind set 2: CSR SpMV, 32 lanes per row (eight rows a workgroup of 256),
// over a generated structure: row r holds entries start(r) .. start(r+1)
// with start(r) = 40 r + hash(r) % 24 (rows of 17 to 63 entries); an
// entry's column mixes the row, the entry and its index from the column
// buffer (mod cols); the 32 partial sums are reduced in workgroup memory.
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer V { float val[]; };
layout(set = 0, binding = 1) readonly buffer J { uint colidx[]; };
layout(set = 0, binding = 2) readonly buffer X { float x[]; };
layout(set = 0, binding = 3) writeonly buffer Y { float y[]; };
layout(push_constant) uniform P { uint rows; uint cols; };
shared float part[256];

uint start(uint r) {
    uint h = r * 0x9e3779b1u;
    return 40u * r + (h >> 16) % 24u;
}

void main() {
    uint l = gl_LocalInvocationID.x, lane = l % 32u;
    uint r = gl_WorkGroupID.x * 8u + l / 32u;
    float acc = 0.0;
    if (r < rows) {
        uint end = start(r + 1u);
        for (uint j = start(r) + lane; j < end; j += 32u)
            acc += val[j] * x[(r * 53u + j * 131u + colidx[j] * 977u) % cols];
    }
    part[l] = acc;
    barrier();
    for (uint s = 16u; s > 0u; s >>= 1) {
        if (lane < s)
            part[l] += part[l + s];
        barrier();
    }
    if (lane == 0u && r < rows)
        y[r] = part[l];
}
