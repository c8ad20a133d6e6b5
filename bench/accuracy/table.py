#!/usr/bin/env python3
"""The accuracy table: predicted vs measured per kernel, with the corpus
split into its named halves (split.json), and median / 90th percentile /
worst error and the count off by more than 2x for each half and overall.

    table.py [--split FILE] [--pred CHECK.csv] [--stat median|min]
             [--max-median PCT] [--only train|test] RUN.csv...

RUN.csv: `clockwork run --format csv` (or json) reports (measurement and
prediction);
a kernel measured in several keeps its lowest measured time.  --pred takes
the predictions from a `clockwork check --format csv` (or json) report instead (to
predict offline against saved measurements).  Error = (predicted -
measured) / measured.  Exit 1 when the overall median |error| is above
--max-median, 2 on bad input.
"""
import argparse
import csv
import json
import math
import os
import signal
import sys


def pct(sorted_vals, q):
    """Linear interpolation between closest ranks (as numpy's default)."""
    if not sorted_vals:
        return float("nan")
    r = q * (len(sorted_vals) - 1)
    lo = int(math.floor(r))
    hi = min(lo + 1, len(sorted_vals) - 1)
    return sorted_vals[lo] + (r - lo) * (sorted_vals[hi] - sorted_vals[lo])


def read_report(path):
    """Rows of a clockwork CSV report, or the same columns from a JSON one."""
    try:
        with open(path, newline="") as f:
            text = f.read()
    except OSError as e:
        sys.exit("table.py: %s: %s" % (path, e.strerror))
    if not text.lstrip().startswith("{"):
        return list(csv.DictReader(text.splitlines()))
    try:
        rep = json.loads(text)
    except ValueError as e:
        sys.exit("table.py: %s: %s" % (path, e))
    rows = []
    for k in rep.get("kernels", []):
        p = k.get("prediction") or {}
        m = k.get("measurement") or {}
        rows.append({"kernel": k.get("name"), "bound": p.get("bound", ""),
                     "predicted_us": p.get("time_us"), "ideal_us": p.get("ideal_time_us"),
                     "confidence": p.get("confidence", ""),
                     "measured_median_us": m.get("median_us"), "min_us": m.get("min_us")})
    return rows


def num(s):
    try:
        v = float(s)
        return v if math.isfinite(v) else None
    except (TypeError, ValueError):
        return None


def summary(label, errs):
    a = sorted(abs(e) for e in errs)
    if not a:
        return "%-6s no kernel with both a prediction and a measurement" % label
    over2 = sum(1 for e in errs if e >= 1.0 or e <= -0.5)
    return ("%-6s %2d kernels: median %5.1f%%, p90 %5.1f%%, worst %6.1f%%, "
            "%d off by more than 2x" % (label, len(a), pct(a, 0.5) * 100,
                                        pct(a, 0.9) * 100, a[-1] * 100, over2))


def main():
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `| head` is not an error
    ap = argparse.ArgumentParser()
    ap.add_argument("runs", nargs="+")
    ap.add_argument("--split", default=os.path.join(os.path.dirname(__file__), "split.json"))
    ap.add_argument("--pred")
    ap.add_argument("--stat", default="median", choices=["median", "min"])
    ap.add_argument("--max-median", type=float, default=1e9)
    ap.add_argument("--only", choices=["train", "test"])
    ap.add_argument("--markdown", action="store_true",
                    help="per-kernel rows as a Markdown table")
    a = ap.parse_args()
    col = "measured_median_us" if a.stat == "median" else "min_us"

    half = {}
    if a.split and os.path.exists(a.split):
        s = json.load(open(a.split))
        for h in ("train", "test", "validation", "blind", "blind2", "blind3", "blind4"):
            for k in s.get(h, []):
                half[k] = h if h != "validation" else "valid"
    order, rows = [], {}
    for path in a.runs:
        for r in read_report(path):
            k = r.get("kernel")
            if k is None:
                sys.exit("table.py: %s: not a clockwork CSV report" % path)
            if k not in rows:
                order.append(k)
                rows[k] = {"bound": r.get("bound", ""), "pred": num(r.get("predicted_us")),
                           "ideal": num(r.get("ideal_us")), "conf": r.get("confidence", ""),
                           "meas": None}
            m = num(r.get(col))
            if m is not None and m > 0 and (rows[k]["meas"] is None or m < rows[k]["meas"]):
                rows[k]["meas"] = m
    if a.pred:
        for r in read_report(a.pred):
            k = r.get("kernel")
            if k in rows:
                rows[k].update(bound=r.get("bound", ""), pred=num(r.get("predicted_us")),
                               ideal=num(r.get("ideal_us")), conf=r.get("confidence", ""))
    if a.markdown:
        print("| kernel | half | bound | confidence | predicted µs | measured µs | error |")
        print("| --- | --- | --- | --- | ---: | ---: | ---: |")
    else:
        print("%-18s %-5s %-9s %-9s %12s %12s %8s" % ("kernel", "half", "bound", "conf",
                                                     "predicted_us", "measured_us", "error"))
    errs = {"train": [], "test": [], "valid": [], "blind": [], "blind2": [], "blind3": [],
            "blind4": [], "all": []}
    missing = 0
    for k in order:
        r, h = rows[k], half.get(k, "-")
        if a.only and h != a.only:
            continue
        p, m = r["pred"], r["meas"]
        if p is None or m is None:
            missing += 1
            print("%-18s %-5s %-9s %-9s %12s %12s %8s" % (k, h, r["bound"], r["conf"],
                                                         p if p is not None else "",
                                                         m if m is not None else "", "n/a"))
            continue
        e = (p - m) / m
        flag = "  >2x" if (e >= 1.0 or e <= -0.5) else ""
        if a.markdown:
            print("| `%s` | %s | %s | %s | %.1f | %.1f | %+.1f%%%s |" % (
                k, h, r["bound"], r["conf"], p, m, e * 100, " (>2×)" if flag else ""))
        else:
                print("%-18s %-5s %-9s %-9s %12.1f %12.1f %+7.1f%%%s" % (
                k, h, r["bound"], r["conf"], p, m, e * 100, flag))
        errs["all"].append(e)
        if h in errs:
            errs[h].append(e)
    print()
    for h in ("train", "test"):
        if h in half.values():
            print(summary(h, errs[h]))
    for h in ("valid", "blind", "blind2", "blind3", "blind4"):
        if h in half.values():
            print(summary(h, errs[h]))
    print(summary("all", errs["all"]))
    if missing:
        print("%d kernel(s) without a prediction or a measurement" % missing)
    if not errs["all"]:
        return 1
    med = pct(sorted(abs(e) for e in errs["all"]), 0.5) * 100
    if med > a.max_median:
        print("median error %.1f%% above %g%%" % (med, a.max_median))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
