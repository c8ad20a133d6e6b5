#version 450
// Every invocation writes its value into the same shared slot.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { float data[]; };
layout(set = 0, binding = 1) writeonly buffer Out { float outv[]; };
shared float last;
void main() {
    last = data[gl_GlobalInvocationID.x];
    barrier();
    outv[gl_GlobalInvocationID.x] = last;
}
