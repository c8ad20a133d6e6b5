#version 450
// Blind set 3: layer norm with 32 x 4 workgroups, one row of `cols4` vec4
// (1536 floats) per y: each lane keeps its 12 vec4 in registers, the
// mean and then the variance reduced by a workgroup-memory tree per row.
layout(local_size_x = 32, local_size_y = 4) in;
layout(set = 0, binding = 0) readonly buffer X { vec4 x[]; };
layout(set = 0, binding = 1) writeonly buffer Y { vec4 y[]; };
layout(set = 0, binding = 2) readonly buffer G { vec4 gamma[]; };
layout(set = 0, binding = 3) readonly buffer B { vec4 beta[]; };
layout(push_constant) uniform P { uint rows; uint cols4; float eps; };
shared float red[4][32];

float row_sum(uint ly, uint lx, float v) {
    red[ly][lx] = v;
    barrier();
    for (uint s = 16u; s > 0u; s >>= 1) {
        if (lx < s)
            red[ly][lx] += red[ly][lx + s];
        barrier();
    }
    float t = red[ly][0];
    barrier();
    return t;
}

void main() {
    uint lx = gl_LocalInvocationID.x, ly = gl_LocalInvocationID.y;
    uint row = gl_WorkGroupID.x * 4u + ly;
    uint r = min(row, rows - 1u), base = r * cols4;
    vec4 v[12];
    float s = 0.0;
    for (uint k = 0u; k < 12u; k++) {
        v[k] = x[base + lx + 32u * k];
        s += v[k].x + v[k].y + v[k].z + v[k].w;
    }
    float mean = row_sum(ly, lx, s) / float(4u * cols4);
    float q = 0.0;
    for (uint k = 0u; k < 12u; k++) {
        vec4 d = v[k] - mean;
        q += dot(d, d);
    }
    float rstd = inversesqrt(row_sum(ly, lx, q) / float(4u * cols4) + eps);
    if (row >= rows)
        return;
    for (uint k = 0u; k < 12u; k++) {
        uint c = lx + 32u * k;
        y[base + c] = (v[k] - mean) * rstd * gamma[c] + beta[c];
    }
}
