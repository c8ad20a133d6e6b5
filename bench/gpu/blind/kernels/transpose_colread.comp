#version 450
// Blind set: naive transpose out = in^T of a rows x cols matrix where each
// invocation owns an OUTPUT element: the stores are coalesced, the loads
// walk a column (lanes `cols` floats apart); 8 x 32 workgroups.
layout(local_size_x = 8, local_size_y = 32) in;
layout(set = 0, binding = 0) readonly buffer I { float src[]; };
layout(set = 0, binding = 1) writeonly buffer O { float dst[]; };
layout(push_constant) uniform P { uint rows; uint cols; };

void main() {
    uint r = gl_GlobalInvocationID.x;   // output column = input row
    uint c = gl_GlobalInvocationID.y;   // output row = input column
    if (r >= rows || c >= cols)
        return;
    dst[c * rows + r] = src[r * cols + c];
}
