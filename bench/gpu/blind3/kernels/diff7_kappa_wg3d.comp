#version 450
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
// Blind set 3: one explicit step of variable-coefficient diffusion in
// 3-D, u += dt * sum over the 6 faces of kf (u_n - u), kf the mean of the
// two cells' conductivities (a half-float field beside the float one);
// zero-flux borders by clamped indices; 8 x 8 x 4 workgroups.
layout(local_size_x = 8, local_size_y = 8, local_size_z = 4) in;
layout(set = 0, binding = 0) readonly buffer U { float u[]; };
layout(set = 0, binding = 1) readonly buffer K { float16_t kappa[]; };
layout(set = 0, binding = 2) writeonly buffer V { float v[]; };
layout(push_constant) uniform P { uint nx; uint ny; uint nz; float dt; };

uint at(ivec3 c) {
    c = clamp(c, ivec3(0), ivec3(nx, ny, nz) - 1);
    return (uint(c.z) * ny + uint(c.y)) * nx + uint(c.x);
}

void main() {
    ivec3 g = ivec3(gl_GlobalInvocationID);
    if (g.x >= int(nx) || g.y >= int(ny) || g.z >= int(nz))
        return;
    uint i = at(g);
    float uc = u[i], kc = float(kappa[i]), flux = 0.0;
    const ivec3 face[6] = ivec3[6](ivec3(-1, 0, 0), ivec3(1, 0, 0), ivec3(0, -1, 0),
                                   ivec3(0, 1, 0), ivec3(0, 0, -1), ivec3(0, 0, 1));
    for (int f = 0; f < 6; f++) {
        uint j = at(g + face[f]);
        flux += 0.5 * (kc + float(kappa[j])) * (u[j] - uc);
    }
    v[i] = uc + dt * flux;
}
