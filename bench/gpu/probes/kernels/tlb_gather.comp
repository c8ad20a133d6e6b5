#version 450
// Probe (TLB): four hashed gathers an invocation, every lane its own line.
// A lane's line is base + (h % lines) * stride, in lines of 128 B, over a
// table of `tlines` lines: window 0 spreads `lines` lines (a fixed L2
// footprint) `stride` lines apart over the whole table, so only the pages
// the requests span grow with stride; window > 0 gives every workgroup its
// own run of `window` lines (workgroup w at line w * window, wrapping), so
// the dispatch spans the whole table while one workgroup spans a window:
// which span the translation reach is measured against.
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer T { float table[]; };
layout(set = 0, binding = 1) writeonly buffer O { float dst[]; };
layout(push_constant) uniform P { uint n; uint lines; uint stride; uint window; uint tlines; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= n)
        return;
    uint base = (gl_WorkGroupID.x * window) % tlines;
    uint h = i * 0x2c1b3c6du + 0x9e3779b9u;
    float acc = 0.0;
    for (uint k = 0u; k < 4u; k++) {
        h ^= h << 13;
        h ^= h >> 17;
        h ^= h << 5;
        acc += table[((base + (h % lines) * stride) % tlines) * 32u];
    }
    dst[i] = acc;
}
