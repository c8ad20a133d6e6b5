#!/usr/bin/env python3
"""Writes softmax.json: blind set 4's b4_softmax_sg_rows (-38.9% on the
H200, DRAM-bound in the model: 120 us predicted, 196.6 measured) taken
apart (kernels/softmax_parts.comp); `--cpu`: softmax-cpu.json, a small
copy for lavapipe.

  sm_orig        the blind kernel as it is (REDUCE 1, UNROLLED 0)
  sm_unrolled    the store loop to the constant 32 with a guard
  sm_noreduce    no subgroup reductions, barriers or workgroup memory
  sm_readonly    reads the rows, writes one value a row
  sm_copy        no reductions, no exp(): a row copy through registers
49152 rows of 1024 floats (201 MB in, 201 MB out), 12288 groups of 32 x 4.

Questions: which part costs the 77 us the model does not see?
  - sm_unrolled << sm_orig: the dynamically indexed v[] of the store loop
    lives in local memory (a register array the compiler cannot keep);
  - sm_noreduce << sm_unrolled: the reduction phase (barriers between the
    loads and the stores) keeps the DRAM idle in each group;
  - sm_copy near the corpus's copy rate, sm_readonly near the read rate:
    the access pattern itself streams.
"""
import probeplan

cpu = probeplan.CPU
rows = 64 if cpu else 49152
cols = 1024
kernels = []


def kernel(name, reduce_, unrolled, write, exp_, what):
    kernels.append({"name": name, "shader": "kernels/softmax_parts.comp",
                    "workgroups": [rows // 4, 1, 1],
                    "spec": {"REDUCE": reduce_, "UNROLLED": unrolled, "WRITE": write,
                             "EXP": exp_},
                    "push": {"rows": rows, "cols": cols},
                    "buffers": [{"binding": 0, "elements": rows * cols},
                                {"binding": 1, "elements": rows * cols, "init": "zero"}],
                    "description": what})


kernel("sm_orig", 1, 0, 1, 1, "b4_softmax_sg_rows as it is")
kernel("sm_unrolled", 1, 1, 1, 1, "the store loop to the constant 32, guarded")
kernel("sm_noreduce", 0, 1, 1, 1, "no reductions: each lane's own max and sum")
kernel("sm_readonly", 1, 1, 0, 1, "the rows read, one value a row written")
kernel("sm_copy", 0, 1, 1, 0, "no reductions, no exp(): a row copy through registers")
probeplan.write("softmax", "Softmax probes (bench/gpu/probes/gen_softmax.py): "
                "b4_softmax_sg_rows taken apart", kernels)
