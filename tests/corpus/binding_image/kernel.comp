#version 450
// Reads a storage image at binding 0; a plan can only give buffers.
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0, r32f) uniform readonly image2D img;
layout(set = 0, binding = 1) writeonly buffer Out { float o[]; };

void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    o[p.y * 64 + p.x] = imageLoad(img, p).x;
}
