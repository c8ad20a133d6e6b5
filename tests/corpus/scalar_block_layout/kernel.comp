#version 450
// Packed vec3 array (scalar layout): valid SPIR-V given the device feature.
#extension GL_EXT_scalar_block_layout : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, scalar) buffer P { vec3 p[]; };
void main() { p[gl_GlobalInvocationID.x] *= 2.0; }
