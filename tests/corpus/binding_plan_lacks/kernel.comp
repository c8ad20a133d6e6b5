#version 450
// saxpy; the plan forgets the output buffer y (binding 1).
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) buffer Y { float y[]; };
layout(push_constant) uniform Params { uint n; float alpha; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < n)
        y[i] = alpha * x[i] + y[i];
}
