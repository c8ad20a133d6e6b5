#version 450
// 2-D tile copy: 32 x 32 x 2 = 2048 invocations per workgroup.
layout(local_size_x = 32, local_size_y = 32, local_size_z = 2) in;
layout(set = 0, binding = 0) readonly buffer Src { float src[]; };
layout(set = 0, binding = 1) writeonly buffer Dst { float dst[]; };
layout(push_constant) uniform P { uint w; };

void main() {
    uvec3 g = gl_GlobalInvocationID;
    uint i = (g.z * w + g.y) * w + g.x;
    dst[i] = src[i];
}
