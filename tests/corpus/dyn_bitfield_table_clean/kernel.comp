#version 450
// A histogram of bits 4..11 of the index: 256 bins.
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) buffer H { uint hist[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint bin = bitfieldExtract(i, 4, 8);
    atomicAdd(hist[bin], 1u);
}
