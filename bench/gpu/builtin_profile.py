#!/usr/bin/env python3
"""Makes the built-in H200 profile (profiles/h200.json) from a calibrate
output: every measured field is the calibration's; the identity fields say
it is the built-in profile and which run it came from; the fields that
docs/h200/README.md names as kept from elsewhere keep the current built-in
value (KEEP below).  The shape fields are the datasheet ones calibrate
started from (it copies them through unchanged).

    python3 bench/gpu/builtin_profile.py CALIBRATED.json "COMMAND TEXT" > profiles/h200.json
"""
import json
import sys

HERE_PROFILE = "profiles/h200.json"
# (section, field): why the built-in keeps its own value
KEEP = {
    ("costs", "atomic_word_ns"): "run 2b's row 'atomic hashed words' (the model no longer uses it)",
    ("costs", "atomic_collide_ns"): "left unknown (null): no term is built on it",
}


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: builtin_profile.py CALIBRATED.json COMMAND")
    cal = json.load(open(sys.argv[1]))
    old = json.load(open(HERE_PROFILE))
    out = {}
    # the built-in's order, then what calibrate adds; a field calibrate does
    # not write keeps the built-in's value
    for sec in list(old) + [s for s in cal if s not in old]:
        o, c = old.get(sec), cal.get(sec)
        if isinstance(o, dict) or isinstance(c, dict):
            o, c = o or {}, c or {}
            out[sec] = {}
            for f in list(o) + [f for f in c if f not in o]:
                keep = (sec, f) in KEEP or f not in c
                out[sec][f] = o[f] if keep and f in o else c[f]
                if f not in o:
                    sys.stderr.write("builtin_profile: new field %s.%s = %r\n" % (sec, f, c[f]))
        else:
            out[sec] = c if sec in cal else o
    out["name"], out["key"], out["source"], out["uuid"] = old["name"], old["key"], "builtin", ""
    out["command"] = sys.argv[2][:255]
    json.dump(out, sys.stdout, indent=2)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
