#version 450
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
// Blind set 3: matrix-vector by workgroup with int16-quantised weights
// and a float scale per row: 64 x 4 workgroups, four rows a workgroup (one
// a y), 64 lanes a row of 4 * cols4 weights read as i16vec4 (8 B a lane);
// subgroupAdd, then the row's subgroups (64 / subgroup size of them)
// summed from workgroup memory.
layout(local_size_x = 64, local_size_y = 4) in;
layout(set = 0, binding = 0) readonly buffer W { i16vec4 w[]; };
layout(set = 0, binding = 1) readonly buffer X { vec4 x[]; };
layout(set = 0, binding = 2) readonly buffer S { float scale[]; };
layout(set = 0, binding = 3) writeonly buffer Y { float y[]; };
layout(push_constant) uniform P { uint rows; uint cols4; };
shared float part[256];

void main() {
    uint lx = gl_LocalInvocationID.x, row = gl_WorkGroupID.x * 4u + gl_LocalInvocationID.y;
    float acc = 0.0;
    if (row < rows)
        for (uint c = lx; c < cols4; c += 64u)
            acc += dot(vec4(ivec4(w[row * cols4 + c])), x[c]);
    acc = subgroupAdd(acc);
    if (subgroupElect())
        part[gl_SubgroupID] = acc;
    barrier();
    if (lx == 0u && row < rows) {
        uint per_row = 64u / gl_SubgroupSize, first = gl_LocalInvocationID.y * per_row;
        float t = 0.0;
        for (uint s = 0u; s < per_row; s++)
            t += part[first + s];
        y[row] = scale[row] * t;
    }
}
