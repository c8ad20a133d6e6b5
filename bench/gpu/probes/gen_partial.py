#!/usr/bin/env python3
"""Writes partial.json: partial-sector stores into a buffer far beyond L2,
every lane its own line (columns 1 KiB apart), the four sectors of a
line's first 128 bytes stored word by word (kernels/partial_writers.comp);
`--cpu`: partial-cpu.json, a small copy for lavapipe.

  pw_w8_t1   8 subgroups store one word each of every sector at once:
             sectors complete in one step (a naive transpose's stores)
  pw_w4_t2, pw_w2_t4   the same 8 words by 4 / 2 subgroups over 2 / 4 trips
  pw_w1_t8   one lane stores the 8 words of a sector over 8 trips (as
             calibrate's `l2 partial stream` row assembles its lines)
  pw_w1_t1   one word a sector, never completed (the DRAM must fill it)
  pw_w4_t1   four words a sector at once, never completed
Questions: does a sector that its group's other subgroups complete in the
same step cost the L2 as 8 partial stores (the model, at
l2_partial_stream_gops), as one whole-sector store, or in between (the
naive transposes run ~20% faster than the partial-stream rate predicts:
docs/accuracy.md)? And what does a never-completed sector cost?
"""
import probeplan

cpu = probeplan.CPU
groups = 512 if cpu else 16384
stride = 256                      # floats: columns 1 KiB apart
elements = groups * 32 * stride   # 512 MiB at H200 sizes
kernels = []
for writers, trips in ((8, 1), (4, 2), (2, 4), (1, 8), (1, 1), (4, 1)):
    kernels.append({"name": "pw_w%d_t%d" % (writers, trips),
                    "shader": "kernels/partial_writers.comp",
                    "workgroups": [groups, 1, 1],
                    "push": {"writers": writers, "trips": trips, "stride": stride,
                             "sectors": 4},
                    "buffers": [{"binding": 0, "elements": elements, "init": "zero"}]})
probeplan.write("partial", "Partial-sector store probes (bench/gpu/probes/gen_partial.py): "
                "sectors completed at once by a group's subgroups, over trips by one "
                "lane, or never", kernels)
