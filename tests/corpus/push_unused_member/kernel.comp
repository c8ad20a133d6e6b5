#version 450
// The block has a member this kernel never reads ('beta'): no value needed.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer V { float v[]; };
layout(push_constant) uniform P { uint n; float alpha; float beta; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < n)
        v[i] *= alpha;
}
