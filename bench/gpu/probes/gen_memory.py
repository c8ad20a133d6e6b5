#!/usr/bin/env python3
"""Writes memory.json: the memory-side probes (kernels/row_pitch.comp,
line_stride.comp, gather_size.comp) at H200 sizes; `--cpu` writes a small
copy for a dry run on lavapipe (memory-cpu.json).

  row_l2_p<P>   1 Mi lanes walk 64 floats of their own row, rows P floats
                apart, 4096 rows (<= 16 MiB, L2-resident): the L1's cost per
                request against the lanes' byte stride (4 P).
  row_dram_c<C> 512 Ki lanes walk dense rows of C floats (lanes 4 C bytes
                apart) streaming from DRAM, as v_row_max (C = 100) and
                row_walk (C = 64).
  row_l2_p<P>_jit  as row_l2_p<P>, each row starting 0..31 floats late
                (hashed): the lanes' offsets in their lines scattered.
  line_<st|ld>_s<S>  2 Mi whole 128-byte lines copied, the stored (st) or
                loaded (ld) side S lines apart (S = 1: a plain copy;
                S = 256: 32 KiB apart, a tiled transpose's row segments).
  gather_m<M>   8 Mi lanes x 4 hashed gathers from a table of M MiB (about
                the L2's size and either side of it).
"""
import probeplan

cpu = probeplan.CPU
scale = 16 if cpu else 1


def k(name, shader, groups, push, buffers):
    return {"name": name, "shader": "kernels/" + shader,
            "workgroups": [groups, 1, 1], "push": push, "buffers": buffers}


kernels = []
lanes = (1 << 20) // scale
rows = 4096 // (4 if cpu else 1)
strides = [(p, 0) for p in (1, 8, 32, 33, 36, 48, 64, 96, 100, 128, 129,
                            256, 260, 1024)] + [(p, 1) for p in (64, 96, 256)]
for p, jit in strides:
    kernels.append(k("row_l2_p%d%s" % (p, "_jit" if jit else ""),
                     "row_pitch.comp", lanes // 256,
                     {"lanes": lanes, "rows": rows, "pitch": p, "cols": 64,
                      "jitter": jit},
                     [{"binding": 0, "elements": rows * p + 64 + 32 * jit},
                      {"binding": 1, "elements": lanes, "init": "zero"}]))
dlanes = (1 << 19) // scale
for c in (64, 100, 256):
    kernels.append(k("row_dram_c%d" % c, "row_pitch.comp", dlanes // 256,
                     {"lanes": dlanes, "rows": dlanes, "pitch": c, "cols": c,
                      "jitter": 0},
                     [{"binding": 0, "elements": dlanes * c},
                      {"binding": 1, "elements": dlanes, "init": "zero"}]))
lines = (1 << 21) // scale
for side, flag in (("st", 1), ("ld", 0)):
    for s in (1, 16, 256, 2048):
        kernels.append(k("line_%s_s%d" % (side, s), "line_stride.comp",
                         lines * 32 // 256,
                         {"lines": lines, "stride": s, "strided_store": flag},
                         [{"binding": 0, "elements": lines * 32},
                          {"binding": 1, "elements": lines * 32,
                           "init": "zero"}]))
n = (1 << 23) // scale
for mib in (8, 16, 32, 48, 64, 96, 128, 512):
    ts = mib * (1 << 18) // (scale if cpu else 1)
    kernels.append(k("gather_m%d" % mib, "gather_size.comp", n // 256,
                     {"n": n, "tsize": ts},
                     [{"binding": 0, "elements": ts},
                      {"binding": 1, "elements": n, "init": "zero"}]))

probeplan.write("memory", "Memory-side probes (bench/gpu/probes/gen_memory.py): "
        "L1 cost per request against the lanes' row stride, full-line "
        "strided stores and loads (DRAM pages), hashed gathers against "
        "the table size (L2 capacity)", kernels)
