#version 450
// Memory-bound: y = alpha * x + y (read 8 B, write 4 B, 2 FLOPs).
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) buffer Y { float y[]; };
layout(push_constant) uniform Params { uint n; float alpha; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < n)
        y[i] = alpha * x[i] + y[i];
}
