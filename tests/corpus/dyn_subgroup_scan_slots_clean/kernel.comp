#version 450
// Each invocation appends 2 items at its subgroup's exclusive prefix sum,
// into a region of 16 slots per subgroup (8 invocations).
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) writeonly buffer Out { float y[]; };
void main() {
    uint sg = gl_GlobalInvocationID.x / gl_SubgroupSize;
    uint at = subgroupExclusiveAdd(2u);
    uint base = sg * 16u;
    y[base + at] = 1.0;
    y[base + at + 1u] = 2.0;
}
