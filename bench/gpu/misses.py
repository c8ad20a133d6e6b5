#!/usr/bin/env python3
"""The misses of a measured set: for every kernel whose prediction is off
by more than a threshold (default 25%), the binding term and the model's
other large terms, from a `clockwork check --format json` report (the
predictions) and `clockwork run` reports (the measurements; each kernel
keeps its lowest median).

    python3 bench/gpu/misses.py CHECK.json RUN.json... [--over 0.25] [--markdown]
"""
import argparse
import json


def kernels(path):
    with open(path) as f:
        return json.load(f)["kernels"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("check")
    ap.add_argument("runs", nargs="+")
    ap.add_argument("--over", type=float, default=0.25)
    ap.add_argument("--markdown", action="store_true")
    a = ap.parse_args()
    meas = {}
    for path in a.runs:
        for k in kernels(path):
            m = (k.get("measurement") or {}).get("median_us")
            if m and (k["name"] not in meas or m < meas[k["name"]]):
                meas[k["name"]] = m
    if a.markdown:
        print("| kernel | predicted µs | measured µs | error | binding term | the next terms (µs) |")
        print("| --- | ---: | ---: | ---: | --- | --- |")
    for k in kernels(a.check):
        p = k.get("prediction") or {}
        t, m = p.get("time_us"), meas.get(k["name"])
        if not t or not m or abs(t - m) / m <= a.over:
            continue
        terms = sorted(((v, n) for n, v in (p.get("terms_us") or {}).items() if v),
                       reverse=True)
        rest = ", ".join("%s %.1f" % (n, v) for v, n in terms[:4])
        e = (t - m) / m * 100
        if a.markdown:
            print("| `%s` | %.1f | %.1f | %+.1f%% | %s | %s |" % (k["name"], t, m, e,
                                                             p.get("bound", ""), rest))
        else:
            print("%-22s %9.1f %9.1f %+7.1f%%  %-8s %s" % (k["name"], t, m, e,
                                                          p.get("bound", ""), rest))


if __name__ == "__main__":
    main()
