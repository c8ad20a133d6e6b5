#!/usr/bin/env python3
"""Writes rows.json: the probes of per-lane row walks, one-sector reads and
one-workgroup-per-row reductions (issue 12, the memory side after H200
run 7), and the softmax-like kernels they use (kernels/rows_*_k*.comp);
`--cpu` writes a small copy for a dry run on lavapipe (rows-cpu.json).
Every H200 probe moves >= 200 MB (>= 50 us at ~4 TB/s).

  rw_c<C>          rows of C floats, one per invocation (lanes 4 C bytes
                   apart), 128 Mi floats (512 MB) in all, workgroups of 128:
                   how long a row a lane can walk from L1 (its line kept
                   for the next iterations) at full occupancy.
  rw_c1000_g<G>    rows of 1000 floats, G workgroups of 128 (G / 132 per
                   unit, 2..20): the L1 the workgroups of one unit share
                   (16 KiB of lines being walked per workgroup); with 2 a
                   unit each invocation walks two rows one after the other.
  rw_c1024_g1056   as rw_c1000_g1056 with rows a whole number of lines.
  rd_c1000_g<G>    y = A x by row (rw_c1000_g<G> plus a broadcast vector).
  sr_s<S>          one 4-byte read per S bytes over 1.5 GiB, a read a
                   lane: every sector (32), every other (64), one a line
                   (128), one every second line (256).
  sr_s128_p<P>     as sr_s128 with P reads a lane
                   grid-strided (P = 4: b_sector_read8's shape).
  sm_reg_k<K>      softmax of rows of 256 K floats, one workgroup of 256 a
                   row, K values a lane loaded (unrolled: in flight
                   together) before two tree reductions, 64 Mi floats in
                   and out.
  sm_norm_k8       one reduction (RMS norm), K = 8.
  sm_stream_k8     no reduction: K = 8 loads, one barrier, the stores.
  sm_loop_w<W>     softmax with a kept loop (run-time width W), the row
                   read three times (the corpus softmax_row's shape).
"""
import probeplan

cpu = probeplan.CPU
scale = 64 if cpu else 1

HEAD = """#version 450
// Probe (rows), written by gen_rows.py: %s
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer I { float src[]; };
layout(set = 0, binding = 1) writeonly buffer O { float dst[]; };
shared float red[256];
"""

REDUCE = """
float reduce_%(op)s(float v, uint l) {
    red[l] = v;
    barrier();
    for (uint s = 128u; s > 0u; s >>= 1) {
        if (l < s)
            red[l] = %(expr)s;
        barrier();
    }
    float r = red[0];
    barrier();
    return r;
}
"""

LOAD = """
void main() {
    uint l = gl_LocalInvocationID.x;
    uint base = gl_WorkGroupID.x * %(w)du;
    float v[%(k)d];
    for (uint k = 0u; k < %(k)du; k++)
        v[k] = src[base + k * 256u + l];
"""

BODIES = {
    "softmax": ("rows of 256 K floats, one workgroup a row, K = %(k)d values "
                "a lane loaded\n// before a max and a sum tree reduction.",
                ["max", "sum"], """    float m = -3.0e38;
    for (uint k = 0u; k < %(k)du; k++)
        m = max(m, v[k]);
    m = reduce_max(m, l);
    float s = 0.0;
    for (uint k = 0u; k < %(k)du; k++) {
        v[k] = exp(v[k] - m);
        s += v[k];
    }
    float inv = 1.0 / reduce_sum(s, l);
    for (uint k = 0u; k < %(k)du; k++)
        dst[base + k * 256u + l] = v[k] * inv;
}
"""),
    "norm": ("RMS norm of rows of 256 K floats, K = %(k)d values a lane, "
             "one sum tree reduction.", ["sum"], """    float s = 0.0;
    for (uint k = 0u; k < %(k)du; k++)
        s += v[k] * v[k];
    float inv = inversesqrt(reduce_sum(s, l) / %(w)d.0 + 1e-6);
    for (uint k = 0u; k < %(k)du; k++)
        dst[base + k * 256u + l] = v[k] * inv;
}
"""),
    "stream": ("K = %(k)d values a lane loaded, one barrier, stored "
               "scaled: the\n// loads in flight without a reduction's path.",
               [], """    barrier();
    for (uint k = 0u; k < %(k)du; k++)
        dst[base + k * 256u + l] = v[k] * 0.5;
}
"""),
}

EXPR = {"max": "max(red[l], red[l + s])", "sum": "red[l] + red[l + s]"}


def shader(kind, k):
    doc, reds, body = BODIES[kind]
    w = 256 * k
    text = HEAD % (doc % {"k": k})
    for op in reds:
        text += REDUCE % {"op": op, "expr": EXPR[op]}
    text += LOAD % {"w": w, "k": k} + body % {"k": k, "w": w}
    name = "rows_%s_k%d.comp" % (kind, k)
    if not cpu:
        with open("kernels/" + name, "w") as f:
            f.write(text)
    return name


def kern(name, shader_name, groups, push, buffers):
    return {"name": name, "shader": "kernels/" + shader_name,
            "workgroups": [groups, 1, 1], "push": push, "buffers": buffers}


def buf(b, n, init=None):
    d = {"binding": b, "elements": n}
    if init:
        d["init"] = init
    return d


kernels = []
units = 132
total = (128 << 20) // scale
for c in (37, 96, 100, 256, 500, 1000, 2000):
    rows = (total // c) // 128 * 128
    kernels.append(kern("rw_c%d" % c, "rows_sum128.comp", rows // 128,
                        {"rows": rows, "cols": c, "reps": 1},
                        [buf(0, rows * c), buf(1, rows, "zero")]))
per_unit = (2, 4, 8, 12, 16, 20) if not cpu else (2, 8)
for pu in per_unit:
    g = units * pu // (8 if cpu else 1)
    rows = g * 128
    reps = 2 if pu < 4 else 1
    kernels.append(kern("rw_c1000_g%d" % g, "rows_sum128.comp", g,
                        {"rows": rows, "cols": 1000, "reps": reps},
                        [buf(0, rows * 1000 * reps), buf(1, rows, "zero")]))
    if pu in (4, 8, 16):
        kernels.append(kern("rd_c1000_g%d" % g, "rows_dot128.comp", g,
                            {"rows": rows, "cols": 1000},
                            [buf(0, rows * 1000), buf(1, 1000),
                             buf(2, rows, "zero")]))
g = units * 8 // (8 if cpu else 1)
kernels.append(kern("rw_c1024_g%d" % g, "rows_sum128.comp", g,
                    {"rows": g * 128, "cols": 1024, "reps": 1},
                    [buf(0, g * 128 * 1024), buf(1, g * 128, "zero")]))

foot = 3 * (1 << 27) // scale      # 1.5 GiB of floats
for s in (32, 64, 128, 256):
    n = foot * 4 // s
    kernels.append(kern("sr_s%d" % s, "rows_sector.comp", n // 128,
                        {"n": n, "stride": s // 4, "per": 1},
                        [buf(0, n * s // 4), buf(1, n, "zero")]))
for p in (4, 16):
    n = foot // 32
    lanes = n // p
    kernels.append(kern("sr_s128_p%d" % p, "rows_sector.comp", lanes // 128,
                        {"n": n, "stride": 32, "per": p},
                        [buf(0, n * 32), buf(1, lanes, "zero")]))

floats = (64 << 20) // scale
for kind, ks in (("softmax", (1, 2, 4, 8, 16)), ("norm", (8,)),
                 ("stream", (8,))):
    for k in ks:
        name = shader(kind, k)
        rows = floats // (256 * k)
        label = {"softmax": "sm_reg_k%d", "norm": "sm_norm_k%d",
                 "stream": "sm_stream_k%d"}[kind] % k
        kernels.append(kern(label, name, rows, {},
                            [buf(0, floats, "random"),
                             buf(1, floats, "zero")]))
for w in (512, 2048, 8192):
    rows = floats // w
    kernels.append(kern("sm_loop_w%d" % w, "rows_softmax_loop.comp", rows,
                        {"cols": w},
                        [buf(0, floats, "random"), buf(1, floats, "zero")]))

probeplan.write("rows", "Row probes (bench/gpu/probes/gen_rows.py): per-lane "
        "row walks against row length and workgroups per unit (L1 capacity), "
        "one read per 32..512 bytes (DRAM access granularity), softmax/norm "
        "rows with K loads a lane in flight", kernels)
