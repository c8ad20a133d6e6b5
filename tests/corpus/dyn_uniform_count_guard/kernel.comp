#version 450
// The element count comes from a uniform buffer (as in the usual samples);
// the plan gives its contents (count = 100).  The store lands 5,000,000
// elements past the end of a 256-element buffer.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform Params { uint count; uint offset; } params;
layout(set = 0, binding = 1) buffer Out { float dst[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= params.count)
        return;
    dst[i + 5000000u] = float(i) * 2.0;
}
