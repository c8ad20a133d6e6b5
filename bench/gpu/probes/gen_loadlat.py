#!/usr/bin/env python3
"""Writes loadlat.json: the DRAM latency under load. A dependent pointer
chase in one subgroup a unit while the unit's other subgroups stream at
0-150% of the device's bandwidth (kernels/load_latency.comp: 132 groups of
1024 lanes, one a unit; every streaming subgroup keeps one coalesced
512-B request in flight, each trip waiting for the last, so the streamers
a unit set the bytes in flight and every chain takes `steps` latencies);
`--cpu`: loadlat-cpu.json, a small copy for lavapipe.

Load levels: the device moves ~4.16 TB/s (profile dram_gbs) at the idle
latency 333.8 ns when 4.16 TB/s x 333.8 ns = 1.39 MB are in flight, 10.5
KB a unit = ~20 requests of 512 B.  W streaming subgroups a unit put W
requests in flight: W = 5, 10, 15, 20, 30 are 25%, 50%, 75%, 100%, 150%
of that bandwidth-delay product (the offered load at the idle latency).

  ll_chase_w0      the chase alone, 132 chasers (the idle latency: ~333 ns
                   a step, as calibrate's `dram latency`)
  ll_chase_w<W>    the chase with W streamers a unit
  ll_stream_w<W>   the W streamers alone (no chase)
Each kernel is 512 steps: 171 us at the idle latency.

Question: what is the DRAM latency under load (the latency-bound kernels,
b2_spmv_seg32 -36%, scan_subgroup -16%, are under-predicted ~30%)?
Reading: the chase's latency at load W is ll_chase_w<W> time / 512 (when
ll_chase_w<W> > ll_stream_w<W>: the chase is the longest chain; else the
chase is at most that); the streamers' own loaded latency is
ll_stream_w<W> time / 512, and their bandwidth is
132 W x 512 B x 512 / ll_stream_w<W> time (the load actually reached).
  - latency flat (~334 ns) up to W = 15 and rising only at saturation:
    the idle latency is right for a kernel below the bandwidth; the ~30%
    misses are elsewhere (the dependent pair, the tree's barriers);
  - latency rising with the load already at 25-50% (e.g. ~430 ns at W =
    10): the path must use a loaded latency, lat(rho) from these points
    (a profile curve measured by a calibrate row of this shape), with rho
    the kernel's own DRAM load;
  - ll_stream_w<W> bandwidth: the requests-in-flight a unit the model's
    Little's-law DRAM term needs for the device's bandwidth.
"""
import probeplan

cpu = probeplan.CPU
groups = 2 if cpu else 132
steps = 8 if cpu else 512
lshift = 6 if cpu else 14            # lines of 128 B a page: 8 KiB / 2 MiB
pages = 4 if cpu else 128            # chase table: 32 KiB / 256 MiB
chase_words = pages << lshift << 5
stream_vec4 = (1 << 14) if cpu else (1 << 24)   # 256 KiB / 256 MiB


def kern(name, streamers, chase, what):
    push = {"steps": steps, "streamers": streamers, "chase": chase, "zero": 0,
            "pmask": pages - 1, "lshift": lshift, "smask": stream_vec4 - 1}
    return {"name": name, "shader": "kernels/load_latency.comp",
            "workgroups": [groups, 1, 1], "push": push,
            "buffers": [{"binding": 0, "elements": stream_vec4 if streamers else 64},
                        {"binding": 1, "elements": chase_words if chase else 64},
                        {"binding": 2, "elements": groups, "init": "zero"},
                        {"binding": 3, "elements": 1024, "init": "zero"}],
            "description": what}


levels = (5, 10, 15, 20, 30)
kernels = [kern("ll_chase_w0", 0, 1, "the chase alone, one a unit")]
for w in levels:
    kernels.append(kern("ll_chase_w%d" % w, w, 1,
                        "the chase with %d streaming subgroups a unit" % w))
for w in levels:
    kernels.append(kern("ll_stream_w%d" % w, w, 0,
                        "%d streaming subgroups a unit, no chase" % w))
probeplan.write("loadlat", "Loaded-latency probes (bench/gpu/probes/gen_loadlat.py): a "
                "dependent chase a unit while the unit's other subgroups keep 0-150% of "
                "the bandwidth-delay product in flight", kernels)
