#version 450
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
// Blind set 3: 5 x 5 convolution of a half-float image through a
// workgroup-memory tile with a 2-pixel halo (12 x 36, rows padded to 37
// floats), borders clamped, 25 weights from a buffer the plan fills;
// 32 x 8 workgroups, half-float output.
layout(local_size_x = 32, local_size_y = 8) in;
layout(set = 0, binding = 0) readonly buffer I { float16_t src[]; };
layout(set = 0, binding = 1) writeonly buffer O { float16_t dst[]; };
layout(set = 0, binding = 2) readonly buffer K { float wt[]; };
layout(push_constant) uniform P { uint w; uint h; };
shared float tile[12][37];

void main() {
    int lx = int(gl_LocalInvocationID.x), ly = int(gl_LocalInvocationID.y);
    int x0 = int(gl_WorkGroupID.x) * 32 - 2, y0 = int(gl_WorkGroupID.y) * 8 - 2;
    for (int i = ly * 32 + lx; i < 12 * 36; i += 256) {
        int tx = i % 36, ty = i / 36;
        int sx = clamp(x0 + tx, 0, int(w) - 1), sy = clamp(y0 + ty, 0, int(h) - 1);
        tile[ty][tx] = float(src[uint(sy) * w + uint(sx)]);
    }
    barrier();
    uint gx = gl_GlobalInvocationID.x, gy = gl_GlobalInvocationID.y;
    if (gx >= w || gy >= h)
        return;
    float acc = 0.0;
    for (int dy = 0; dy < 5; dy++)
        for (int dx = 0; dx < 5; dx++)
            acc += wt[dy * 5 + dx] * tile[ly + dy][lx + dx];
    dst[gy * w + gx] = float16_t(acc);
}
