#!/usr/bin/env python3
"""Writes scanchain.json: a barrier-separated chain of dependent
workgroup-memory steps (blind set 2's Blelloch scan: 512 uints in 256
lanes, 20 levels a pass, each reading what the level before wrote, strided,
few lanes active) at 1, 2, 4 and 8 resident groups a unit; `--cpu`:
scanchain-cpu.json, a small copy for lavapipe.

Every group runs the tree `reps` times over its own workgroup memory, so a
group lives reps x 20 levels, and the dispatch is one wave of 132 R groups
(R = 1, 2, 4, 8: 256 .. 2048 lanes a unit; the groups are spread one a
unit before a second, so R is the residency).  What each variant isolates:

  sc_bar_r<R>     the tree with a barrier before every level (b2_scan_blelloch)
  sc_sgb_r<R>     the same accesses with the barriers left out where legal:
                  the 12 levels whose lanes and previous writers are all in
                  the first subgroup are ordered by subgroupBarrier() (8
                  workgroup barriers a pass instead of 20)
  sc_pad_r<R>     the tree indexed conflict-free (word i at i + i / 32):
                  the chain without most of its bank conflicts (R = 1, 8)
  sc_flat_r<R>    20 barriers a pass, the tree's active lanes each adding to
                  its own word: barriers + one shared round trip a level
                  (R = 1, 8)
  sc_bar_g66      sc_bar with 66 groups (half the units idle): equal to
                  sc_bar_r1 if the 132 groups of R = 1 got a unit each
  sc_bar_r8_48k   sc_bar at 132 x 8 groups holding 48 KiB of workgroup
                  memory each: 4 resident a unit (233472 B a unit), two
                  waves: residency set by shared memory instead of the dispatch

Question: does the chain of levels overlap across resident groups?
Reading, per variant, t(R) / t(1) (the same work per group at every R):
  - ~1 up to R = 8: the levels of co-resident groups overlap (a unit's
    groups wait on their own chains side by side): time = one group's chain
    (levels x (barrier + shared latency + the level's passes)); the shared
    and issue terms must be composed with the chain by max, as throughput.
  - ~R: the levels do not overlap (the shared pipe or the barrier unit
    serialises them): time = the sum over resident groups, what the
    measured b2_scan_blelloch (435 us = shared 269 + path 145) suggests.
  - in between (e.g. flat to R = 2, then linear): the R at which a unit's
    shared pipe saturates is where the passes start to add.
sc_bar against sc_pad at the same R gives the conflicts' share of a level;
sc_bar against sc_sgb the workgroup barriers' share (12 barriers a pass);
sc_flat the cost of a barrier-separated level without the tree's passes
(compare with calibrate's barrier_ns + shared_latency_ns, ~54 ns);
sc_bar_r8_48k ~= 2 x sc_bar_r4 says 48 KiB groups are 4 a unit (if ~=
sc_bar_r8, the driver packs more than the model's shared_per_unit allows).
"""
import os

import probeplan

cpu = probeplan.CPU
units = 132
reps = 2 if cpu else 96          # R = 1: 96 x 20 levels ~ 60-450 us on the H200
FILL_48K = (49152 - 528 * 4) // 4    # workgroup memory to 48 KiB a group
FILL_32K = (32768 - 528 * 4) // 4    # lavapipe's limit
HERE = os.path.dirname(os.path.abspath(__file__))


def write_48k():
    """kernels/scan_chain_48k.comp: scan_chain.comp holding 48 KiB of
    workgroup memory (the extra words written and read, so they stay)."""
    with open(os.path.join(HERE, "kernels", "scan_chain.comp")) as f:
        text = f.read()
    text = text.replace("// Probe (scan chain, gen_scanchain.py):",
                        "// Probe (scan chain, gen_scanchain.py, written from scan_chain.comp:\n"
                        "// 48 KiB of workgroup memory a group):", 1)
    text = text.replace("// FILL\n", "// (FILL words: 48 KiB in all; lavapipe's copy sets 32 KiB)\n"
                        "layout(constant_id = 0) const uint FILL = %du;\n"
                        "shared uint fill[FILL];\n" % FILL_48K)
    text = text.replace("    // FILL INIT\n",
                        "    for (uint i = l; i < FILL; i += 256u)\n"
                        "        fill[i] = i;\n")
    text = text.replace("    // FILL USE\n",
                        "    t[at(2u * l)] += fill[(l * 45u) % FILL];\n")
    with open(os.path.join(HERE, "kernels", "scan_chain_48k.comp"), "w") as f:
        f.write(text)


def kern(name, shader, groups, pad, what):
    return {"name": name, "shader": "kernels/%s.comp" % shader,
            "workgroups": [groups, 1, 1],
            "push": {"reps": reps, "pad": pad},
            "buffers": [{"binding": 0, "elements": groups * 512},
                        {"binding": 1, "elements": groups * 512, "init": "zero"}],
            "description": what}


def groups_of(r):
    # lavapipe: R groups in all (its threads, not 132 units)
    return r if cpu else units * r


write_48k()
kernels = []
for r in (1, 2, 4, 8):
    kernels.append(kern("sc_bar_r%d" % r, "scan_chain", groups_of(r), 0,
                        "Blelloch tree, barrier before every level, %d groups a unit" % r))
for r in (1, 2, 4, 8):
    kernels.append(kern("sc_sgb_r%d" % r, "scan_chain_sg", groups_of(r), 0,
                        "the tree, subgroup barriers where legal, %d groups a unit" % r))
for r in (1, 8):
    kernels.append(kern("sc_pad_r%d" % r, "scan_chain", groups_of(r), 0xFFFFFFFF,
                        "the tree indexed conflict-free, %d groups a unit" % r))
    kernels.append(kern("sc_flat_r%d" % r, "scan_barriers", groups_of(r), 0,
                        "20 barriers a pass, own-word adds, %d groups a unit" % r))
kernels.append(kern("sc_bar_g66", "scan_chain", 1 if cpu else units // 2, 0,
                    "the tree, 66 groups: half the units, one group each"))
k48 = kern("sc_bar_r8_48k", "scan_chain_48k", groups_of(8), 0,
           "the tree with 48 KiB a group: 4 resident a unit, 2 waves")
k48["spec"] = {"FILL": FILL_32K if cpu else FILL_48K}
kernels.append(k48)
probeplan.write("scanchain", "Scan-chain probes (bench/gpu/probes/gen_scanchain.py): "
                "a barrier-separated Blelloch tree in workgroup memory at 1-8 resident "
                "groups a unit, with fewer barriers, fewer conflicts, barriers alone", kernels)
