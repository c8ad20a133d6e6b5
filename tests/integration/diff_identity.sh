#!/bin/sh
# diff through the real binary (issues 16, 17): two kernels of one name, the
# second 57x slower, is a regression naming that kernel (it was "0
# regressions", exit 0); a finding whose numbers changed is "changed";
# reports from two devices get a warning.
. "$(dirname "$0")/../lib.sh"
ROOT=${CW_TEST_ROOT:-$(pwd)}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
python3 - "$ROOT" "$T/dup.json" << 'PY'
import json, sys
k = {"shader": sys.argv[1] + "/examples/kernels/saxpy.comp", "workgroups": [8, 1, 1],
     "push": {"n": 2048, "alpha": 2.0},
     "buffers": [{"binding": 0, "elements": 2048}, {"binding": 1, "elements": 2048}]}
json.dump({"kernels": [dict(k, name="same"), dict(k, name="same")]}, open(sys.argv[2], "w"))
PY
"$CW" check -o "$T/base.json" "$T/dup.json" > /dev/null 2>&1
# measured: both 10 us in BASE; in NEW the second is 570 us, one finding's
# message changed, and the device is another one
python3 - "$T/base.json" "$T/new.json" << 'PY'
import json, sys
r = json.load(open(sys.argv[1]))
def measured(k, us):
    k["measurement"] = {"samples": 10, "median_us": us, "mad_us": 0.1, "min_us": us,
                        "max_us": us, "p90_us": us, "sample_us": [us] * 10, "counters": {}}
for k in r["kernels"]:
    measured(k, 10.0)
json.dump(r, open(sys.argv[1], "w"))
measured(r["kernels"][1], 570.0)
r["kernels"][0]["findings"][0]["message"] += " (numbers moved)"
r["device"]["name"] = "Another GPU"
r["device"]["uuid"] = "00112233445566778899aabbccddeeff"
json.dump(r, open(sys.argv[2], "w"))
PY
"$CW" diff "$T/base.json" "$T/new.json" > "$T/out" 2> "$T/err"
rc=$?
[ $rc -eq 3 ] || fail "diff exited $rc, expected 3: $(cat "$T/out")"
grep -q "^1 regression: same (2nd of that name) (measured +5600.0%)" "$T/out" || fail "regression not named: $(cat "$T/out")"
grep -q "REGRESSED: measured +5600.0%" "$T/out" || fail "row not marked: $(cat "$T/out")"
grep -q "~1" "$T/out" || fail "changed finding not shown: $(cat "$T/out")"
grep -q "warning: BASE comes from .*, NEW from Another GPU" "$T/err" || fail "no device warning: $(cat "$T/err")"
"$CW" diff --format json "$T/base.json" "$T/new.json" > "$T/out.json" 2> /dev/null
python3 - "$T/out.json" << 'PY' || fail "diff JSON"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["regressions"] == 1
assert d["regressed"] == [{"name": "same", "plan": d["kernels"][0]["plan"], "occurrence": 1,
                           "reason": "measured +5600.0%"}], d["regressed"]
assert d["kernels"][0]["findings_changed"] == 1 and d["kernels"][0]["findings_added"] == 0
assert d["kernels"][0]["findings_removed"] == 0
assert d["warnings"] and "Another GPU" in d["warnings"][0]
PY
"$CW" diff "$T/base.json" "$T/base.json" > "$T/out" 2> "$T/err"
[ $? -eq 0 ] && grep -q "^0 regressions" "$T/out" && [ ! -s "$T/err" ] || fail "same report: $(cat "$T/out" "$T/err")"
pass
