#version 450
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_basic : require
// Blind set 4: RMS norm of half rows (a row of 5120 a workgroup of 320):
// each lane reads 4 f16vec4 a row apart by 320, the mean square in fp32
// by subgroupAdd and a workgroup-memory sum, y = x / rms * gain (half).
layout(local_size_x = 320) in;
layout(set = 0, binding = 0) readonly buffer X { f16vec4 x[]; };
layout(set = 0, binding = 1) writeonly buffer Y { f16vec4 y[]; };
layout(set = 0, binding = 2) readonly buffer G { f16vec4 gain[]; };
layout(push_constant) uniform P { uint cols4; float eps; };
const uint PER = 4u;
shared float part[80];
shared float scale;

void main() {
    uint l = gl_LocalInvocationID.x;
    uint base = gl_WorkGroupID.x * cols4;
    vec4 v[PER];
    float ss = 0.0;
    for (uint k = 0u; k < PER; k++) {
        uint c = l + 320u * k;
        v[k] = c < cols4 ? vec4(x[base + c]) : vec4(0.0);
        ss += dot(v[k], v[k]);
    }
    ss = subgroupAdd(ss);
    if (subgroupElect())
        part[gl_SubgroupID] = ss;
    barrier();
    if (l == 0u) {
        float t = 0.0;
        for (uint j = 0u; j < gl_NumSubgroups; j++)
            t += part[j];
        scale = inversesqrt(t / float(4u * cols4) + eps);
    }
    barrier();
    for (uint k = 0u; k < PER; k++) {
        uint c = l + 320u * k;
        if (c < cols4)
            y[base + c] = f16vec4(v[k] * scale * vec4(gain[c]));
    }
}
