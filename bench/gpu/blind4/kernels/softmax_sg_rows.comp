#version 450
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_basic : require
// Blind set 4: row-wise softmax, 4 rows a workgroup of 32 x 4 (a row a y):
// each lane keeps its cols / 32 values of the row in registers, the row's
// max and sum by subgroup reductions combined through workgroup memory
// (one subgroup a row where subgroups are 32 wide).
layout(local_size_x = 32, local_size_y = 4) in;
layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) writeonly buffer Y { float y[]; };
layout(push_constant) uniform P { uint rows; uint cols; };
const uint MAXPER = 32u;
shared float part[128];
shared float rowv[4];

float rowmax(float v, uint ty) {
    v = subgroupMax(v);
    if (subgroupElect())
        part[gl_SubgroupID] = v;
    barrier();
    if (gl_LocalInvocationID.x == 0u) {
        uint per = 32u / min(gl_SubgroupSize, 32u);
        float m = part[ty * per];
        for (uint j = 1u; j < per; j++)
            m = max(m, part[ty * per + j]);
        rowv[ty] = m;
    }
    barrier();
    return rowv[ty];
}

float rowsum(float v, uint ty) {
    v = subgroupAdd(v);
    if (subgroupElect())
        part[gl_SubgroupID] = v;
    barrier();
    if (gl_LocalInvocationID.x == 0u) {
        uint per = 32u / min(gl_SubgroupSize, 32u);
        float s = 0.0;
        for (uint j = 0u; j < per; j++)
            s += part[ty * per + j];
        rowv[ty] = s;
    }
    barrier();
    return rowv[ty];
}

void main() {
    uint tx = gl_LocalInvocationID.x, ty = gl_LocalInvocationID.y;
    uint r = gl_WorkGroupID.x * 4u + ty;
    uint per = cols / 32u;
    bool live = r < rows;
    uint base = r * cols + tx;
    float v[MAXPER];
    float m = -3.0e38;
    for (uint k = 0u; k < MAXPER; k++) {
        v[k] = (live && k < per) ? x[base + 32u * k] : -3.0e38;
        m = max(m, v[k]);
    }
    m = rowmax(m, ty);
    float s = 0.0;
    for (uint k = 0u; k < MAXPER; k++) {
        v[k] = k < per ? exp(v[k] - m) : 0.0;
        s += v[k];
    }
    float inv = 1.0 / rowsum(s, ty);
    if (!live)
        return;
    for (uint k = 0u; k < per && k < MAXPER; k++)
        y[base + 32u * k] = v[k] * inv;
}
