#version 450
// Pitched 2-D copy: a w x h image whose rows are `spitch` floats apart in
// the source and `dpitch` apart in the destination (padded rows, as image
// and tensor libraries lay them out).
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer I { float src[]; };
layout(set = 0, binding = 1) writeonly buffer O { float dst[]; };
layout(push_constant) uniform P { uint w; uint h; uint spitch; uint dpitch; };

void main() {
    uint x = gl_GlobalInvocationID.x, y = gl_WorkGroupID.y;
    if (x < w && y < h)
        dst[y * dpitch + x] = src[y * spitch + x];
}
