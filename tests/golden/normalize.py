#!/usr/bin/env python3
"""normalize.py RC REPORT.json -> stdout: the parts of a `clockwork check`
report that must not change unless behaviour changes on purpose.

Stripped or reduced, because they depend on the host or the build, not on
the code under test:
  - device.name, device.driver and device.uuid (the profile is pinned, but
    the Vulkan loader may add the host's device), device.profile_path (a
    temporary file);
  - provenance.host, node, job and rank (where the report was written);
  - measurement timings (check measures nothing; dropped if present);
  - native CPU kernels (kind "cpu"): their roofline is derived from the host
    CPU (cores, vector ISA, clock), so only name, kind, entry, the finding
    ids/severities/lines and whether a prediction exists are kept;
  - floating-point numbers are rounded to 6 significant digits, so a
    different compiler (make asan builds with clang) cannot flip the last
    digit.
"""
import json
import sys

TIMING_KEYS = {"samples", "median_us", "mad_us", "min_us", "max_us", "p90_us",
               "cold_us", "sample_us"}


def round_floats(v):
    if isinstance(v, float):
        return float("%.6g" % v)
    if isinstance(v, list):
        return [round_floats(x) for x in v]
    if isinstance(v, dict):
        return {k: round_floats(x) for k, x in v.items()}
    return v


def cpu_kernel(k):
    return {
        "name": k.get("name"),
        "kind": k.get("kind"),
        "entry": k.get("entry"),
        "findings": [{"id": f.get("id"), "severity": f.get("severity"),
                      "line": f.get("line")} for f in k.get("findings", [])],
        "has_prediction": k.get("prediction") is not None,
    }


def main():
    rc = int(sys.argv[1])
    with open(sys.argv[2], encoding="utf-8") as fh:
        text = fh.read()
    try:
        rep = json.loads(text)
    except ValueError:
        rep = {"unparsable_report": text[:200]}
    dev = rep.get("device")
    if isinstance(dev, dict):
        dev.pop("name", None)
        dev.pop("driver", None)
        dev.pop("profile_path", None)
        dev.pop("uuid", None)
    prov = rep.get("provenance")
    if isinstance(prov, dict):
        for key in ("host", "node", "job", "rank"):
            prov.pop(key, None)
    kernels = []
    for k in rep.get("kernels", []):
        if k.get("kind") == "cpu":
            kernels.append(cpu_kernel(k))
            continue
        m = k.get("measurement")
        if isinstance(m, dict):
            for key in TIMING_KEYS:
                m.pop(key, None)
        kernels.append(k)
    if "kernels" in rep:
        rep["kernels"] = kernels
    out = {"exit": rc, "report": round_floats(rep)}
    json.dump(out, sys.stdout, indent=1, sort_keys=True, ensure_ascii=False)
    sys.stdout.write("\n")


main()
