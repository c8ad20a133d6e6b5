#!/usr/bin/env python3
"""The readings of the probe plans of gen_scanchain.py, gen_sharedconf.py, gen_issuemix.py,
gen_rowpages.py, gen_loadlat.py, gen_partial.py and gen_loopatomic.py from a device run's
reports (what each generator's docstring says the numbers mean):

    python3 bench/gpu/probes/read_probes.py [--profile FILE] RUN/probe-*.json

Each report names its plan (run from the repository root, or from the
prepared tree, the plan's path is the same), which gives the push
constants; --profile (default profiles/h200.json) gives the clock and the
unit count for cycles.  Measured medians only: no predicted time is
read; the registers the driver reported (a `run` report's assumption)
are printed last, since the readings assume R groups a unit."""
import argparse
import json
import os
import signal
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))


def load(path):
    with open(path) as f:
        return json.load(f)


def residency(report):
    """{kernel: what the registers allow a unit}, from the prediction's
    `registers:` assumption (the driver's count, in a `run` report)."""
    out = {}
    for k in report["kernels"]:
        for a in (k.get("prediction") or {}).get("assumptions", []):
            if a.startswith("registers:") and "-> " in a:
                out[k["name"]] = a.split(":", 1)[1].split("(")[0].strip() + " -> " + \
                    a.split("-> ", 1)[1]
    return out


def measured(report):
    """{kernel: (median us, plan entry)} of a run report."""
    out = {}
    plans = {}
    for k in report["kernels"]:
        m = k.get("measurement") or {}
        if m.get("median_us") is None:
            continue
        p = k.get("plan")
        if p not in plans:
            path = p if os.path.exists(p) else os.path.join(ROOT, p)
            plans[p] = load(path)["kernels"]
        out[k["name"]] = (m["median_us"], plans[p][k["plan_index"]])
    return out


def scanchain(t, clk, units):
    print("scanchain: t(R) us, t(R)/t(1), ns a level at R (reps x 20 levels a group)")
    for v in ("bar", "sgb", "pad", "flat"):
        one = t.get("sc_%s_r1" % v)
        for r in (1, 2, 4, 8):
            k = t.get("sc_%s_r%d" % (v, r))
            if not k:
                continue
            us, e = k
            levels = e["push"]["reps"] * 20
            print("  sc_%s_r%d  %9.1f  x%5.2f  %7.1f ns" % (v, r, us, us / one[0] if one else 0,
                                                           us * 1e3 / levels))
    if "sc_bar_g66" in t and "sc_bar_r1" in t:
        print("  sc_bar_g66 / sc_bar_r1 = %.2f (1.0: at R = 1 every group had a unit of its own)" %
              (t["sc_bar_g66"][0] / t["sc_bar_r1"][0]))
    if "sc_bar_r8_48k" in t and "sc_bar_r4" in t:
        print("  sc_bar_r8_48k / sc_bar_r4 = %.2f (2.0: 48 KiB groups 4 a unit, two waves)" %
              (t["sc_bar_r8_48k"][0] / t["sc_bar_r4"][0]))


def sharedconf(t, clk, units):
    print("sharedconf: us, cycles a bank pass a unit (K passes a warp access)")
    for k in (1, 2, 4, 8, 16, 32):
        row = []
        for op in ("st", "ld"):
            x = t.get("shc_%s_k%d" % (op, k))
            if not x:
                row.append("%22s" % "-")
                continue
            us, e = x
            warps = e["workgroups"][0] * 256 // 32
            passes = warps * 32 * e["push"]["reps"] * k
            row.append("%s %8.1f us %5.2f cyc" % (op, us, us * 1e-6 * clk * 1e9 * units / passes))
        print("  K=%-2d  %s   %s" % (k, row[0], row[1]))


def rowpages(t, clk, units):
    print("rowpages: us, GB/s, SM cycles a warp request, x the coalesced stream")
    coal = t.get("rp_v4_coal_r32")
    for name in sorted(t, key=lambda n: (n.split("_")[1], len(n), n)):
        if not name.startswith("rp_"):
            continue
        us, e = t[name]
        elem = 16 if "_v4" in e["shader"] else 4
        rows = e["workgroups"][0] * 64 * e["push"]["reps"]
        nbytes = rows * e["push"]["cols"] * elem
        requests = nbytes / (32 * elem)
        print("  %-16s %8.1f us %7.0f GB/s %6.1f cyc  x%.2f" %
              (name, us, nbytes / us / 1e3, us * 1e-6 * clk * 1e9 * units / requests,
               us / coal[0] if coal else 0))


def loadlat(t, clk, units):
    print("loadlat: W streamers a unit (20 = the bandwidth-delay product at the idle "
          "latency): chase ns a step, streams ns a trip, stream GB/s")
    for w in (0, 5, 10, 15, 20, 30):
        c = t.get("ll_chase_w%d" % w)
        s = t.get("ll_stream_w%d" % w)
        e = (c or s or (None, None))[1]
        if not e:
            continue
        steps = e["push"]["steps"]
        groups = e["workgroups"][0]
        line = "  W=%-2d (%3d%%)" % (w, w * 5)
        line += "  chase %7.1f us %6.1f ns" % (c[0], c[0] * 1e3 / steps) if c else "  chase -"
        if s:
            gbs = groups * w * 512.0 * steps / s[0] / 1e3
            line += "  | streams %7.1f us %6.1f ns %6.0f GB/s" % (s[0], s[0] * 1e3 / steps, gbs)
        print(line)


def partial(t, clk, units):
    print("partial: us, G partial stores/s (writers x trips x 32 lanes x sectors a group)")
    for name in sorted(n for n in t if n.startswith("pw_")):
        us, e = t[name]
        p = e["push"]
        stores = e["workgroups"][0] * 32 * p["writers"] * p["trips"] * p["sectors"]
        print("  %-10s %8.1f us %6.1f G/s" % (name, us, stores / us / 1e3))


def loopatomic(t, clk, units):
    print("loopatomic: us, x la_load (the loads alone)")
    base = t.get("la_load")
    for name in sorted(n for n in t if n.startswith("la_")):
        us = t[name][0]
        print("  %-14s %9.1f us  x%5.2f" % (name, us, us / base[0] if base else 0))


def issuemix(t, clk, units):
    print("issuemix: us, cycles a warp-step a unit (32 steps a trip; gen_issuemix.py: "
          "FMA 2 contracted / 4 not; lds_x<X> max(1, (X + 1) / 4) overlapped, 1 + X / 4 not)")
    for name in ("im_fma", "im_muladd", "im_precise") + tuple("im_lds_x%d" % x
                                                              for x in (1, 2, 4, 8, 16)):
        if name not in t:
            continue
        us, e = t[name]
        steps = e["workgroups"][0] * 256 // 32 * e["push"]["reps"] * 32
        print("  %-12s %9.1f us  %5.2f cyc" % (name, us, us * 1e-6 * clk * 1e9 * units / steps))


READERS = {"sc_": scanchain, "shc_": sharedconf, "rp_": rowpages, "ll_": loadlat,
           "pw_": partial, "la_": loopatomic, "im_": issuemix}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--profile", default=os.path.join(ROOT, "profiles", "h200.json"))
    ap.add_argument("reports", nargs="+")
    a = ap.parse_args()
    shape = load(a.profile)["shape"]
    clk, units = shape["clock_ghz"], shape["units"]
    t, regs = {}, {}
    for r in a.reports:
        rep = load(r)
        t.update(measured(rep))
        regs.update(residency(rep))
    for prefix, reader in READERS.items():
        if any(n.startswith(prefix) for n in t):
            reader(t, clk, units)
            print()
    print("residency the driver's registers allow (the readings assume R groups a unit):")
    for name in sorted(n for n in regs if n.split("_")[0] + "_" in READERS):
        print("  %-16s %s" % (name, regs[name][:110]))
    return 0


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # quiet under `| head`
    sys.exit(main())
