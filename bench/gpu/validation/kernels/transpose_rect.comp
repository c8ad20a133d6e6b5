#version 450
// Validation: naive transpose of a rows x cols matrix (rows != cols):
// coalesced reads, each lane's store `rows` floats from its neighbour's.
layout(local_size_x = 32, local_size_y = 8) in;
layout(set = 0, binding = 0) readonly buffer In { float src[]; };
layout(set = 0, binding = 1) writeonly buffer Out { float dst[]; };
layout(push_constant) uniform P { uint rows; uint cols; };

void main() {
    uint c = gl_GlobalInvocationID.x, r = gl_GlobalInvocationID.y;
    if (r < rows && c < cols)
        dst[c * rows + r] = src[r * cols + c];
}
