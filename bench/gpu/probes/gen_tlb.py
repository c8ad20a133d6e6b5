#!/usr/bin/env python3
"""Writes tlb.json: hashed gathers (kernels/tlb_gather.comp) whose lines
stay in L2 while the bytes they span grow, at H200 sizes; `--cpu`:
tlb-cpu.json, a small copy for a dry run on lavapipe.

  tlb_s<S>    8 Mi lanes x 4 gathers over 32768 lines (4 MiB of L2) spread
              over S MiB (S = 4 ... 256): the translation reach and the
              cost past it on a gather's own shape (calibrate's `tlb span`
              rows on 16 loads a lane)
  tlb_w<W>    the same gathers, every workgroup in its own window of W
              (64 KiB, 2 MiB) of a 256 MiB table: whether the reach counts
              a unit's windows (its resident groups) or the dispatch's span
"""
import probeplan

cpu = probeplan.CPU
scale = 16 if cpu else 1
n = (1 << 23) // scale
MIB_LINES = 8192  # lines of 128 B in a MiB
kernels = []


def add(name, lines, stride, window, mib):
    tlines = mib * MIB_LINES // scale
    kernels.append({"name": name, "shader": "kernels/tlb_gather.comp",
                    "workgroups": [n // 256, 1, 1],
                    "push": {"n": n, "lines": lines, "stride": stride,
                             "window": window, "tlines": tlines},
                    "buffers": [{"binding": 0, "elements": tlines * 32},
                                {"binding": 1, "elements": n, "init": "zero"}]})


lines = 32768 // scale
for mib in (4, 8, 12, 16, 24, 32, 64, 256):
    add("tlb_s%d" % mib, lines, mib // 4, 0, mib)
for name, wl in (("tlb_w64k", 512), ("tlb_w2m", 16384)):
    add(name, wl // scale, 1, wl // scale, 256)
probeplan.write("tlb", "TLB probes (bench/gpu/probes/gen_tlb.py): hashed "
        "gathers whose lines fit in L2 over growing spans, and per-workgroup "
        "windows of a large table", kernels)
