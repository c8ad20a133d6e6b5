#!/usr/bin/env python3
"""Writes issuemix.json: what an FP32 multiply-add costs in issue slots
when written a * b + c, and whether workgroup-memory loads overlap the
FMAs they feed (kernels/issue_mix.comp, issue_mix_precise.comp); `--cpu`:
issuemix-cpu.json, a small copy for lavapipe.

  im_fma         8 independent fma() chains a lane, 32 steps a trip
  im_muladd      the same written acc * a + 1.0 (contractible)
  im_precise     the same, `precise` (NoContraction: FMUL + FADD)
  im_lds_x<X>    a step: one conflict-free shared load feeding X FMAs
                 (X = 1, 2, 4, 8, 16)
4224 groups of 256 (7 resident a unit by workgroup memory where it is
used, ~4.6 waves). Per warp-step a unit spends (4 schedulers, one
warp-instruction a clock each; the shared pipe one warp-load a clock):
FMA kernels 8 / 4 = 2 cycles contracted, 16 / 4 = 4 uncontracted; the
load kernels max(1, (X + 1) / 4) when the load's address is base plus an
immediate offset and the pipes overlap, max(1, (X + 2) / 4) with an
address add a step, 1 + X / 4 if the load and the FMAs do not overlap.

Questions (the issue term: docs/model.md 4.5; blind set 3 b3_gemm_rb8x8
+15.5% issue-bound, b3_gauss5_tile_f16 -27.8%: both are tile loads
feeding multiply-adds written a * b + c, and counting FMUL and FADD as two
instructions is what puts them near; contracting them moves the first to
-32%, the second to -39%). Reading (cycles a warp-step a unit =
time x clock x units / (warps x steps)):
  - im_muladd = im_fma (2 cycles) and im_precise twice that: the driver
    contracts a * b + c, one issue slot (then what else the gemms pay is
    outside the FMAs); im_muladd = im_precise: it does not;
  - im_lds_x<X> against the three lines above: X = 4 at 1.25 cycles
    (immediate offset, overlapped), 1.5 (an add a step), 2 (not
    overlapped); X = 8, 16 the same at 2.25 / 2.5 / 3 and 4.25 / 4.5 / 5.
"""
import probeplan

cpu = probeplan.CPU
groups = 4 if cpu else 132 * 32
kernels = []


def kernel(name, shader, spec, reps, what):
    kernels.append({"name": name, "shader": shader, "workgroups": [groups, 1, 1],
                    "spec": spec, "push": {"reps": reps, "zero": 0, "a": 0.5},
                    "buffers": [{"binding": 0, "elements": groups * 256, "init": "zero"}],
                    "description": what})


fma_reps = 4 if cpu else 32
kernel("im_fma", "kernels/issue_mix.comp", {"X": 0, "MULADD": 0}, fma_reps,
       "8 independent fma() chains a lane")
kernel("im_muladd", "kernels/issue_mix.comp", {"X": 0, "MULADD": 1}, fma_reps,
       "8 independent chains written a * b + c")
kernel("im_precise", "kernels/issue_mix_precise.comp", {}, fma_reps,
       "8 independent precise a * b + c chains (no contraction)")
for x in (1, 2, 4, 8, 16):
    reps = max(1, (16 if cpu else 64) * 4 // max(4, x))
    kernel("im_lds_x%d" % x, "kernels/issue_mix.comp", {"X": x, "MULADD": 0}, reps,
           "a conflict-free shared load feeding %d FMAs a step" % x)
probeplan.write("issuemix", "Issue-mix probes (bench/gpu/probes/gen_issuemix.py): "
                "FP32 multiply-add contraction and shared loads feeding FMAs", kernels)
