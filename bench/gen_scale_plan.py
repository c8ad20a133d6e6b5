#!/usr/bin/env python3
"""Write a plan with N kernels (default 10,000) to stdout, for the scale
benchmark and test: the example kernels in turn, each with its own name,
dispatch size and buffer sizes, so that every kernel is analysed on its own.
Usage: gen_scale_plan.py [N] [ROOT]  (ROOT: the repository, for shader paths)
"""
import json
import os
import sys

n = int(sys.argv[1]) if len(sys.argv) > 1 else 10000
root = os.path.abspath(sys.argv[2] if len(sys.argv) > 2 else ".")
k = lambda p: os.path.join(root, "examples", "kernels", p)

kernels = []
for i in range(n):
    s = 1 + i % 64                      # vary the sizes
    t = i % 4
    if t == 0:
        e = 1024 * s
        kernels.append({"name": f"saxpy_{i}", "shader": k("saxpy.comp"),
                        "workgroups": [(e + 255) // 256, 1, 1],
                        "push": {"n": e, "alpha": 2.0},
                        "buffers": [{"binding": 0, "elements": e},
                                    {"binding": 1, "elements": e}]})
    elif t == 1:
        e = 256 * 16 * s
        kernels.append({"name": f"reduce_{i}", "shader": k("reduce.comp"),
                        "workgroups": [16 * s, 1, 1], "push": {"n": e},
                        "buffers": [{"binding": 0, "elements": e},
                                    {"binding": 1, "elements": 16 * s}]})
    elif t == 2:
        d = 32 * (1 + i % 8)            # n x n, a 32 x 32 tile a group (32 x 8 invocations)
        kernels.append({"name": f"transpose_{i}", "shader": k("transpose.comp"),
                        "workgroups": [d // 32, d // 32, 1], "push": {"n": d},
                        "buffers": [{"binding": 0, "elements": d * d},
                                    {"binding": 1, "elements": d * d}]})
    else:
        d = 16 * (1 + i % 8)            # w x h, 16 x 16 a group
        kernels.append({"name": f"stencil_{i}", "shader": k("stencil.comp"),
                        "workgroups": [d // 16, d // 16, 1],
                        "push": {"w": d, "h": d},
                        "buffers": [{"binding": 0, "elements": d * d},
                                    {"binding": 1, "elements": d * d}]})
json.dump({"kernels": kernels}, sys.stdout, indent=1)
sys.stdout.write("\n")
