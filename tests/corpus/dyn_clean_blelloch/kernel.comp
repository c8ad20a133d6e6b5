#version 450
// Blelloch (work-efficient) exclusive scan of 256 elements per workgroup,
// 128 invocations, up-sweep then down-sweep in shared memory.
layout(local_size_x = 128) in;
layout(set = 0, binding = 0) buffer Data { uint v[]; };
shared uint temp[256];
void main() {
    uint l = gl_LocalInvocationID.x;
    uint base = gl_WorkGroupID.x * 256u;
    temp[2u * l] = v[base + 2u * l];
    temp[2u * l + 1u] = v[base + 2u * l + 1u];
    uint offset = 1u;
    for (uint d = 128u; d > 0u; d >>= 1) {
        barrier();
        if (l < d) {
            uint ai = offset * (2u * l + 1u) - 1u;
            uint bi = offset * (2u * l + 2u) - 1u;
            temp[bi] += temp[ai];
        }
        offset *= 2u;
    }
    if (l == 0u)
        temp[255] = 0u;
    for (uint d = 1u; d < 256u; d *= 2u) {
        offset >>= 1;
        barrier();
        if (l < d) {
            uint ai = offset * (2u * l + 1u) - 1u;
            uint bi = offset * (2u * l + 2u) - 1u;
            uint t = temp[ai];
            temp[ai] = temp[bi];
            temp[bi] += t;
        }
    }
    barrier();
    v[base + 2u * l] = temp[2u * l];
    v[base + 2u * l + 1u] = temp[2u * l + 1u];
}
