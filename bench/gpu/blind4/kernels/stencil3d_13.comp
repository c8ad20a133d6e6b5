#version 450
// Blind set 4: a 3-D 13-point star stencil of order 4 (+-1 and +-2 along
// each axis) on a float grid; the two-cell border is copied unchanged;
// 64 x 2 x 2 lanes a workgroup.
layout(local_size_x = 64, local_size_y = 2, local_size_z = 2) in;
layout(set = 0, binding = 0) readonly buffer U { float u[]; };
layout(set = 0, binding = 1) writeonly buffer V { float v[]; };
layout(push_constant) uniform P { uint nx; uint ny; uint nz; };

void main() {
    uint x = gl_GlobalInvocationID.x, y = gl_GlobalInvocationID.y, z = gl_GlobalInvocationID.z;
    if (x >= nx || y >= ny || z >= nz)
        return;
    uint sy = nx, sz = nx * ny, i = z * sz + y * sy + x;
    if (x < 2u || y < 2u || z < 2u || x + 2u >= nx || y + 2u >= ny || z + 2u >= nz) {
        v[i] = u[i];
        return;
    }
    const float c0 = -7.5, c1 = 4.0 / 3.0, c2 = -1.0 / 12.0;
    float s1 = u[i - 1u] + u[i + 1u] + u[i - sy] + u[i + sy] + u[i - sz] + u[i + sz];
    float s2 = u[i - 2u] + u[i + 2u] + u[i - 2u * sy] + u[i + 2u * sy] + u[i - 2u * sz] + u[i + 2u * sz];
    v[i] = u[i] + 0.05 * (c0 * u[i] + c1 * s1 + c2 * s2);
}
