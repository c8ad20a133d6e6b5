#version 450
// Blind set 2: naive batched transpose (as for attention heads): each of
// `batch` rows x cols matrices is transposed in place of its own output
// slab; reads along a row (coalesced), writes down a column (a row
// apart); 64 x 4 workgroups, the batch in z.
layout(local_size_x = 64, local_size_y = 4) in;
layout(set = 0, binding = 0) readonly buffer I { float src[]; };
layout(set = 0, binding = 1) writeonly buffer O { float dst[]; };
layout(push_constant) uniform P { uint rows; uint cols; };

void main() {
    uint c = gl_GlobalInvocationID.x, r = gl_GlobalInvocationID.y;
    uint slab = gl_GlobalInvocationID.z * rows * cols;
    if (c < cols && r < rows)
        dst[slab + c * rows + r] = src[slab + r * cols + c];
}
