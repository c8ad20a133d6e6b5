#version 450
// The block has a 32-byte header before its array; the plan gives 8 bytes.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Params { uint count; uint flags; vec4 scale; float data[]; };
layout(set = 0, binding = 1) buffer Out { float o[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < count)
        o[i] = scale.x * float(flags);
}
