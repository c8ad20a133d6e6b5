#version 450
// The same guard on a uniform count, but the plan leaves the uniform's
// contents to the runner: both sides of the guard are analysed, and the
// store past the end is reported (as not proven: it runs only if the count
// lets it).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform Params { uint count; } params;
layout(set = 0, binding = 1) buffer Out { float dst[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= params.count)
        return;
    dst[i + 256u] = 1.0;
}
