#version 450
// Blind set: each invocation takes the maximum (and its column) of its own
// row of `cols` floats (37: rows start anywhere in a line), 256 lanes.
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) writeonly buffer M { vec2 best[]; };
layout(push_constant) uniform P { uint rows; uint cols; };

void main() {
    uint r = gl_GlobalInvocationID.x;
    if (r >= rows)
        return;
    uint base = r * cols;
    float m = a[base];
    uint at = 0u;
    for (uint c = 1u; c < cols; c++) {
        float v = a[base + c];
        if (v > m) {
            m = v;
            at = c;
        }
    }
    best[r] = vec2(m, float(at));
}
