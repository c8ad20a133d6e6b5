#version 450
// The uniform count guard with the store inside the buffer (count = 100 of
// 256 elements; the other invocations return).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform Params { uint count; uint offset; } params;
layout(set = 0, binding = 1) buffer Out { float dst[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= params.count)
        return;
    dst[i + params.offset] = float(i) * 2.0;
}
