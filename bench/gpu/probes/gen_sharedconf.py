#!/usr/bin/env python3
"""Writes sharedconf.json: workgroup-memory stores and loads with 1-, 2-,
4-, 8-, 16- and 32-way bank conflicts (kernels/shared_conflict.comp: every
warp-wide access puts its 32 lanes on 32 / K banks, K distinct words a
bank, each lane on words of its own); `--cpu`: sharedconf-cpu.json, a
small copy for lavapipe.

  shc_st_k<K>   32 K-way conflicted 4-byte stores a trip, 64 / K trips
  shc_ld_k<K>   the same addresses loaded (and summed) instead
Every kernel is 4224 groups of 256 (32 KiB of workgroup memory each: 7
resident a unit, 56 warps; ~4.6 waves) and issues the same number of
bank passes if a K-way access costs K passes: 4224 x 8 warps x 32 x 64 =
69 M passes, ~265 us at one pass a cycle a unit (1.98 GHz, 132 units).
(The model prices K = 1, 2 as issue-bound, ~920 / 470 us, counting each
step's address arithmetic; with SK a specialization constant and the 32
steps unrolled, the driver can fold it into the store's offset.)

Question: what does a conflicted shared store cost per pass, against a
load (gemm_regblock +44% and b2_gemm_rb4x4 +21% have 16-way tile stores,
b_gemm_rb8x4 8-way is -3%; the model prices a K-way store as K passes of
calibrate's shared bandwidth, like a load)? Reading:
  - time flat in K for the stores (all ~265 us) and for the loads: a pass
    costs the same at every K, the model's rule is right for both;
  - st_k16 / st_k32 above the flat line while ld_k16 / ld_k32 stay on it:
    conflicted stores cost more than K passes (e.g. 2K: a store pass takes
    two cycles once the lanes of a bank are >= some width): the store cost
    per pass is st_kK time / (69 M / (132 x 1.98 GHz)) cycles;
  - times falling with K: small K are bound by something else (issue,
    the lane address arithmetic): read off only K >= the knee;
  - st_k1 against ld_k1: the cost of a conflict-free store pass.
"""
import probeplan

cpu = probeplan.CPU
groups = 4 if cpu else 132 * 32
base_reps = 16 if cpu else 64
kernels = []
for op, load in (("st", 0), ("ld", 1)):
    for sk in range(6):
        k = 1 << sk
        kernels.append({"name": "shc_%s_k%d" % (op, k),
                        "shader": "kernels/shared_conflict.comp",
                        "workgroups": [groups, 1, 1],
                        "spec": {"SK": sk, "LOAD": load},
                        "push": {"reps": max(1, base_reps // k), "zero": 0},
                        "buffers": [{"binding": 0, "elements": groups * 256,
                                     "init": "zero"}],
                        "description": "%d-way conflicted workgroup-memory %s" %
                        (k, "loads" if load else "stores")})
probeplan.write("sharedconf", "Shared-conflict probes (bench/gpu/probes/gen_sharedconf.py): "
                "workgroup-memory stores and loads with 1- to 32-way bank conflicts, "
                "the same bank passes in each", kernels)
