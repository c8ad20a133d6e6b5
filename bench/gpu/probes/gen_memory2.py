#!/usr/bin/env python3
"""Writes memory2.json: hashed gathers from tables that fit in L2
(kernels/gather_lines.comp) at H200 sizes; `--cpu`: memory2-cpu.json, a
small copy for a dry run on lavapipe.

  gl_m<M>_g<G>  8 Mi lanes x 4 gathers from a table of M MiB, G consecutive
                lanes on consecutive words (G = 1: a line a lane; 8: a
                sector per 8 lanes; 32: a line a subgroup).  M = 2 ... 24
                at G = 1 finds where L2-hit gathers slow down (run 6:
                258 us at 8 MiB, 491 at 16); G = 1, 4, 8, 32 at 4 MiB
                separates the cost per line from the cost per sector.
"""
import probeplan

cpu = probeplan.CPU
scale = 16 if cpu else 1
n = (1 << 23) // scale
kernels = []
cases = [(m, 1) for m in (2, 4, 8, 12, 16, 24)] + [(4, g) for g in (4, 8, 32)]
for mib, g in cases:
    ts = mib * (1 << 18) // scale
    kernels.append({"name": "gl_m%d_g%d" % (mib, g),
                    "shader": "kernels/gather_lines.comp",
                    "workgroups": [n // 256, 1, 1],
                    "push": {"n": n, "tsize": ts, "group": g},
                    "buffers": [{"binding": 0, "elements": ts},
                                {"binding": 1, "elements": n, "init": "zero"}]})
probeplan.write("memory2", "Memory-side probes 2 (bench/gpu/probes/gen_memory2.py): "
        "hashed gathers from tables that fit in L2, by table size and by "
        "lanes per line", kernels)
