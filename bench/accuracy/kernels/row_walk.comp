#version 450
// A per-invocation row walk: invocation i sums its own row of a row-major
// matrix (lanes a row apart); each line a lane touches is used by its next
// iterations, from L1.
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) writeonly buffer S { float s[]; };
layout(push_constant) uniform P { uint rows; uint cols; };

void main() {
    uint r = gl_GlobalInvocationID.x;
    if (r >= rows)
        return;
    float acc = 0.0;
    for (uint c = 0u; c < cols; c++)
        acc += a[r * cols + c];
    s[r] = acc;
}
