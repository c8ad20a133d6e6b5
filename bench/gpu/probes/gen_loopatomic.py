#!/usr/bin/env python3
"""Writes loopatomic.json: grid-stride loops that load a word a trip and
count it into 384 workgroup-memory bins (kernels/la_*.comp), at the size of
the blind set's shared histogram (8192 groups of 256, 32 trips a lane, a
256 MiB source); `--cpu`: loopatomic-cpu.json, a small copy for lavapipe.

  la_load        the loads alone (bandwidth)
  la_atom_idx    + a shared atomic a trip, its bin a hash of the index
  la_atom_val    + a shared atomic a trip, its bin a hash of the loaded word
  la_store_val   the same bins by a plain read-modify-write
  la_atom_noload hashed shared atomics alone (no global load)
  la_atom_val4   four loads, then their four atomics, a step
  la_flush       no trips: each group's 384 global atomics on the 384
                 hist words alone (the contended flush every one ends with)
Questions: does an atomic in a trip keep the next trip's load from being
issued early (one memory round trip a trip: la_atom_* against la_load and
la_atom_val4), and what does a hashed shared atomic cost (la_atom_noload)?
"""
import probeplan

cpu = probeplan.CPU
scale = 16 if cpu else 1
groups = 8192 // scale
per = 32
n = groups * 256 * per
names = ["la_load", "la_atom_idx", "la_atom_val", "la_store_val",
         "la_atom_noload", "la_atom_val4"]
kernels = [{"name": k, "shader": "kernels/%s.comp" % k,
            "workgroups": [groups, 1, 1], "push": {"n": n, "per": per},
            "buffers": [{"binding": 0, "elements": n},
                        {"binding": 1, "elements": 384, "init": "zero"}]}
           for k in names]
# the flush alone: no trips, every group's 384 global atomics on 384 words
kernels.append({"name": "la_flush", "shader": "kernels/la_load.comp",
                "workgroups": [groups, 1, 1], "push": {"n": n, "per": 0},
                "buffers": [{"binding": 0, "elements": n},
                            {"binding": 1, "elements": 384, "init": "zero"}]})
probeplan.write("loopatomic", "Loop-atomic probes (bench/gpu/probes/gen_loopatomic.py): "
        "a load and a workgroup-memory atomic a trip of a kept loop", kernels)
