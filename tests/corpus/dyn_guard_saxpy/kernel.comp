#version 450
// y = alpha * x + y without the guard 'i < n'.
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) buffer Y { float y[]; };
layout(push_constant) uniform Params { uint n; float alpha; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    y[i] = alpha * x[i] + y[i];
}
