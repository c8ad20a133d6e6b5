#!/usr/bin/env python3
"""Writes rowpages.json: per-lane row walks from DRAM (each invocation its
own contiguous row, rows 1-2 KiB apart, b2_gemv_row_v4's shape without the
x vector: kernels/row_pages_v4.comp, row_pages_s1.comp) at 2, 4, 8, 16 and
32 resident groups of 64 a unit; `--cpu`: rowpages-cpu.json, a small copy
for lavapipe.

The dispatch is one wave of 132 R groups of 64 (R = 2..32: 128..2048 lanes
a unit), each lane walking 32 / R rows one after the other, so every
kernel reads the same 270336 rows (415 MB at 1536 B a row) from DRAM, far
beyond L2; only the number of rows walked at once changes (8448 R).

  rp_v4_r<R>     rows of 1536 B (96 vec4), R groups a unit
  rp_s1_r<R>     the same rows by 4-byte loads (384 a row), R = 2, 8, 32
  rp_v4_p1024_r32, rp_v4_p2048_r32   rows of 1024 / 2048 B at R = 32 (a row
                 inside one 2 KiB DRAM page, or exactly one)
  rp_v4_coal_r32 the same 415 MB with the lanes side by side: the stream
                 rate of this footprint (the floor of every rp_v4 kernel)
  rp_v4_l2_r<R>, rp_s1_l2_r32   the same walks over 8192 rows (12.6 MB,
                 held by L2): every lane still its own row in its unit,
                 the same L1 requests, no DRAM page to open

Question: do the other resident groups' rows re-open DRAM pages?
b2_gemv_row_v4 (4096 groups of 64, 31 a unit) spends 62 SM cycles a row
request where every other one-offset row walk spends 33-38. Per request
cycles = time x 1.98 GHz x 132 / (rows x 1536 B / 512 B a vec4 request).
Reading:
  - rp_v4_r32 ~ b2_gemv_row_v4 (188 us) and far above rp_v4_coal_r32,
    with rp_v4_r2..r8 near the coalesced rate once latency is covered: the
    more rows in flight, the fewer fetches find their page open: DRAM page
    re-opens by the other resident groups (the model's page window must
    scale with the rows walked at once, 8448 R, not the sample's 4 groups);
  - rp_v4_p2048_r32 (a page a row) against p1024 / p1536 at the same R:
    whether a row that spans two pages is what costs;
  - rp_v4_l2_r32 against rp_v4_r32: as fast as the L2-resident row walks
    (33-38 cycles a request) while the DRAM walk is at ~62 = DRAM (pages);
    as slow as the DRAM walk = the L1 / load path at 2048 lanes a unit (L1
    capacity, a sector miss every 2 trips), not DRAM;
  - rp_v4_rR ~ rp_s1_rR: the request width does not matter, pages do; if
    the vec4 walk alone is slow at R = 32 and the scalar one is not, it is
    the L1 (a sector miss every 2 trips) and not DRAM;
  - all rp_v4 on the coalesced rate: no page effect; the miss is elsewhere
    (L1 capacity at full occupancy: 64 subgroups x 32 lines a unit).
"""
import os

import probeplan

cpu = probeplan.CPU
units = 1 if cpu else 132
lanes_full = units * 64 * 32          # the rows every kernel walks
kernels = []


HERE = os.path.dirname(os.path.abspath(__file__))


def write_l2(width, l2_rows):
    """kernels/row_pages_l2_WIDTH.comp: row_pages_WIDTH.comp with its rows
    folded onto the first L2ROWS (a power of two; a specialization
    constant, set per plan)."""
    with open(os.path.join(HERE, "kernels", "row_pages_%s.comp" % width)) as f:
        text = f.read()
    text = text.replace("// Probe (row pages, gen_rowpages.py):",
                        "// Probe (row pages, gen_rowpages.py, written from row_pages_%s.comp:\n"
                        "// the rows folded onto the first L2ROWS, a matrix L2 holds):" % width, 1)
    text = text.replace("layout(push_constant)",
                        "layout(constant_id = 0) const uint L2ROWS = %du;\nlayout(push_constant)"
                        % l2_rows, 1)
    old = "(k * lanes + g) * cols + c]"
    assert old in text
    text = text.replace(old, "((k * lanes + g) & (L2ROWS - 1u)) * cols + c]")
    with open(os.path.join(HERE, "kernels", "row_pages_l2_%s.comp" % width), "w") as f:
        f.write(text)


def kern(name, shader, r, row_bytes, elem_bytes, coal, what, l2_rows=0):
    groups = units * r
    reps = 32 // r
    cols = row_bytes // elem_bytes
    rows = groups * 64 * reps
    assert rows == lanes_full
    e = {"name": name, "shader": "kernels/%s.comp" % shader,
         "workgroups": [groups, 1, 1]}
    if l2_rows:
        rows = l2_rows
        e["spec"] = {"L2ROWS": l2_rows}
    kernels.append(dict(e, **{
                    "push": {"cols": cols, "reps": reps, "coal": coal},
                    "buffers": [{"binding": 0, "elements": rows * cols},
                                {"binding": 1, "elements": groups * 64, "init": "zero"}],
                    "description": what}))


for r in (2, 4, 8, 16, 32):
    kern("rp_v4_r%d" % r, "row_pages_v4", r, 1536, 16, 0,
         "rows of 1536 B by vec4, %d groups of 64 a unit" % r)
for r in (2, 8, 32):
    kern("rp_s1_r%d" % r, "row_pages_s1", r, 1536, 4, 0,
         "rows of 1536 B by 4-byte loads, %d groups of 64 a unit" % r)
for p in (1024, 2048):
    kern("rp_v4_p%d_r32" % p, "row_pages_v4", 32, p, 16, 0,
         "rows of %d B by vec4, 32 groups of 64 a unit" % p)
kern("rp_v4_coal_r32", "row_pages_v4", 32, 1536, 16, 1,
     "the rows' 415 MB read coalesced, 32 groups of 64 a unit")
l2_rows = 256 if cpu else 8192                  # 12.6 MB on the H200: L2 holds it
write_l2("v4", 8192)
write_l2("s1", 8192)
for r in (2, 32):
    kern("rp_v4_l2_r%d" % r, "row_pages_l2_v4", r, 1536, 16, 0,
         "rows of 1536 B by vec4 over 8192 rows L2 holds, %d groups of 64 a unit" % r,
         l2_rows)
kern("rp_s1_l2_r32", "row_pages_l2_s1", 32, 1536, 4, 0,
     "rows of 1536 B by 4-byte loads over 8192 rows L2 holds, 32 groups of 64 a unit",
     l2_rows)
probeplan.write("rowpages", "Row-page probes (bench/gpu/probes/gen_rowpages.py): per-lane "
                "row walks from DRAM, rows 1-2 KiB apart, at 2-32 resident groups a unit",
                kernels)
