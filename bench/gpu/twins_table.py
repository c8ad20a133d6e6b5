#!/usr/bin/env python3
"""Summarise the CUDA twins' Nsight Compute counters (bench/gpu/twins.sh):
per twin its time, the bytes moved at DRAM (read, write), L2 and L1, the hit
rates, instructions, occupancy and atomic sectors, next to the Vulkan
kernel's measured time from a corpus report when one is given.

    twins_table.py twins-ncu.csv twins-ncu2.csv [corpus.json]
"""
import collections
import csv
import io
import json
import sys


def load(path):
    lines = [l for l in open(path) if l.startswith('"')]
    out = collections.OrderedDict()
    for row in csv.DictReader(io.StringIO("".join(lines))):
        k = row["Kernel Name"].split("(")[0]
        if k.startswith("tw_"):
            k = k[3:]
        try:
            v = float(row["Metric Value"].replace(",", ""))
        except ValueError:
            continue
        out.setdefault(k, {})[row["Metric Name"]] = v
    return out


def main():
    a = load(sys.argv[1])
    b = load(sys.argv[2]) if len(sys.argv) > 2 else {}
    vk = {}
    if len(sys.argv) > 3:
        for k in json.load(open(sys.argv[3]))["kernels"]:
            m = k.get("measurement") or {}
            if m.get("median_us"):
                vk[k["name"]] = m["median_us"]
    mb = 1e-6
    print("%-17s %8s %8s %8s %8s %8s %8s %6s %6s %9s %5s %8s" % (
        "twin", "vk_us", "cuda_us", "dramR_MB", "dramW_MB", "l2_MB", "l1_MB",
        "l1hit", "l2hit", "inst_M", "occ%", "atomsec_M"))
    for k, m in a.items():
        n = b.get(k, {})
        at = n.get("lts__t_sectors_op_atom.sum", 0) + n.get("lts__t_sectors_op_red.sum", 0)
        print("%-17s %8s %8.1f %8.1f %8.1f %8.1f %8.1f %5.1f%% %5.1f%% %9.1f %5.1f %8.2f" % (
            k, "%.1f" % vk[k] if k in vk else "-", m.get("gpu__time_duration.sum", 0) / 1e3,
            m.get("dram__bytes_read.sum", 0) * mb, m.get("dram__bytes_write.sum", 0) * mb,
            m.get("lts__t_bytes.sum", 0) * mb, m.get("l1tex__t_bytes.sum", 0) * mb,
            m.get("l1tex__t_sector_hit_rate.pct", 0), m.get("lts__t_sector_hit_rate.pct", 0),
            n.get("smsp__inst_executed.sum", 0) / 1e6,
            n.get("sm__warps_active.avg.pct_of_peak_sustained_active", 0), at / 1e6))


if __name__ == "__main__":
    main()
