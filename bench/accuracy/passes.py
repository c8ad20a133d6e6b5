#!/usr/bin/env python3
"""Pass-to-pass agreement of two or more JSON reports of the same plan.

For each kernel measured in every report: the ratio of its largest to its
smallest median, and what the clock check (measurement.clock) did in each
pass.  Prints one line per kernel whose passes differ by more than
--show (default 1.05), then a summary: the worst ratio, how many kernels
differ by more than 20% and by more than 5%, and the clock checks that
warmed up more or gave up.  A pass that ran at a lowered GPU clock reads
1.5-3.9x slow for every sample (docs/measurement.md), which is what this
counts.

    python3 bench/accuracy/passes.py [--show R] A.json B.json [...]
"""
import argparse
import json
import sys


def medians(path):
    try:
        with open(path) as f:
            r = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit("passes.py: %s: %s" % (path, e))
    out = {}
    for k in r.get("kernels", []):
        m = k.get("measurement") or {}
        if m.get("median_us"):
            out[k["name"]] = (m["median_us"], m.get("clock"))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--show", type=float, default=1.05)
    ap.add_argument("reports", nargs="+")
    a = ap.parse_args()
    if len(a.reports) < 2:
        sys.exit("passes.py: give two reports or more")
    runs = [medians(p) for p in a.reports]
    names = [n for n in runs[0] if all(n in r for r in runs[1:])]
    if not names:
        sys.exit("passes.py: no kernel was measured in every report")
    worst, over20, over5, warmed, gave_up = (1.0, ""), 0, 0, 0, 0
    for n in names:
        meds = [r[n][0] for r in runs]
        ratio = max(meds) / min(meds)
        over20 += ratio > 1.2
        over5 += ratio > 1.05
        if ratio > worst[0]:
            worst = (ratio, n)
        for r in runs:
            c = r[n][1] or {}
            warmed += c.get("extra_warmup_s", 0) > 0
            gave_up += c.get("settled") is False
        if ratio > a.show:
            print("%-28s %s  ratio %.3f" % (n, " / ".join("%.1f" % m for m in meds), ratio))
    print("%d kernels, %d passes: worst ratio %.3f (%s), %d differ by > 20%%, %d by > 5%%; "
          "clock checks that warmed up more: %d, that gave up: %d"
          % (len(names), len(runs), worst[0], worst[1] or "-", over20, over5, warmed, gave_up))


if __name__ == "__main__":
    main()
