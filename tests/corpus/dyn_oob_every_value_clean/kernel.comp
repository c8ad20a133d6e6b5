#version 450
// The bucket index data % 16 + 240 stays inside the 256 bins for any data.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint data[]; };
layout(set = 0, binding = 1) buffer Bins { uint bins[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint b = data[i] % 16u + 240u;
    atomicAdd(bins[b], 1u);
}
