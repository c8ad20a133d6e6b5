#version 450
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_basic : require
// Softmax probes (gen_softmax.py): blind set 4's b4_softmax_sg_rows (a row
// a subgroup, 4 rows a workgroup of 32 x 4, each lane keeping cols / 32 of
// its row's values in a register array) taken apart by specialization:
//   REDUCE    1: the row's max and sum by subgroup reductions combined
//             through workgroup memory and barriers; 0: each lane's own
//   UNROLLED  1: the store loop runs to the constant 32 with a guard (the
//             compiler can unroll it and keep v[] in registers); 0: it
//             runs to cols / 32 (v[] indexed by a counter it may keep)
//   WRITE     1: the whole row; 0: one value a row
//   EXP       1: exp() of every value; 0: the values themselves
layout(local_size_x = 32, local_size_y = 4) in;
layout(constant_id = 0) const int REDUCE = 1;
layout(constant_id = 1) const int UNROLLED = 0;
layout(constant_id = 2) const int WRITE = 1;
layout(constant_id = 3) const int EXP = 1;
layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) writeonly buffer Y { float y[]; };
layout(push_constant) uniform P { uint rows; uint cols; };
const uint MAXPER = 32u;
shared float part[128];
shared float rowv[4];

float rowop(float v, uint ty, bool is_max) {
    if (REDUCE == 0)
        return v;
    v = is_max ? subgroupMax(v) : subgroupAdd(v);
    if (subgroupElect())
        part[gl_SubgroupID] = v;
    barrier();
    if (gl_LocalInvocationID.x == 0u) {
        uint per = 32u / min(gl_SubgroupSize, 32u);
        float m = part[ty * per];
        for (uint j = 1u; j < per; j++)
            m = is_max ? max(m, part[ty * per + j]) : m + part[ty * per + j];
        rowv[ty] = m;
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
    m = rowop(m, ty, true);
    float s = 0.0;
    for (uint k = 0u; k < MAXPER; k++) {
        v[k] = k < per ? (EXP == 1 ? exp(v[k] - m) : v[k]) : 0.0;
        s += v[k];
    }
    float inv = 1.0 / rowop(s, ty, false);
    if (!live)
        return;
    if (WRITE == 0) {
        if (tx == 0u)
            y[r] = v[0] * inv;
    } else if (UNROLLED == 1) {
        for (uint k = 0u; k < MAXPER; k++)
            if (k < per)
                y[base + 32u * k] = v[k] * inv;
    } else {
        for (uint k = 0u; k < per && k < MAXPER; k++)
            y[base + 32u * k] = v[k] * inv;
    }
}
