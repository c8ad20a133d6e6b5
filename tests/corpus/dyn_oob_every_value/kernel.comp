#version 450
// A histogram whose bucket index (data % 16) is offset by 300 into an
// array of 256 bins: whatever the data, every store is out of range.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint data[]; };
layout(set = 0, binding = 1) buffer Bins { uint bins[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint b = data[i] % 16u + 300u;
    atomicAdd(bins[b], 1u);
}
