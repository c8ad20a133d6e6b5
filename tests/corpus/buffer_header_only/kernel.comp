#version 450
// Reads only the header of a block that ends in an array: 4 bytes suffice.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer Cfg { uint count; float extra[]; };
layout(set = 0, binding = 1) writeonly buffer Out { uint o[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    o[i] = count + i;
}
