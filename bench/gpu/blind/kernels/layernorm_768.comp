#version 450
// Blind set: layer norm over rows of 768 (a transformer's hidden size),
// one workgroup of 256 per row, three values a lane; sum and sum of
// squares by subgroupAdd, the subgroups' partials through workgroup memory.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer I { float src[]; };
layout(set = 0, binding = 1) writeonly buffer O { float dst[]; };
layout(set = 0, binding = 2) readonly buffer G { float gamma[]; };
layout(set = 0, binding = 3) readonly buffer B { float beta[]; };
layout(push_constant) uniform P { uint cols; float eps; };
shared vec2 part[64];    // room for subgroups as small as 4 lanes

void main() {
    uint l = gl_LocalInvocationID.x;
    uint base = gl_WorkGroupID.x * cols;
    float v0 = src[base + l], v1 = src[base + 256u + l], v2 = src[base + 512u + l];
    vec2 s = vec2(v0 + v1 + v2, v0 * v0 + v1 * v1 + v2 * v2);
    s = subgroupAdd(s);
    if (subgroupElect())
        part[gl_SubgroupID] = s;
    barrier();
    vec2 t = vec2(0.0);
    for (uint k = 0u; k < gl_NumSubgroups; k++)
        t += part[k];
    float mean = t.x / float(cols);
    float rstd = inversesqrt(t.y / float(cols) - mean * mean + eps);
    dst[base + l] = (v0 - mean) * rstd * gamma[l] + beta[l];
    dst[base + 256u + l] = (v1 - mean) * rstd * gamma[256u + l] + beta[256u + l];
    dst[base + 512u + l] = (v2 - mean) * rstd * gamma[512u + l] + beta[512u + l];
}
