#!/bin/sh
# Blind set 3 (bench/gpu/blind3), the held-out stand-in: gen.py writes
# exactly the committed plans, split and permutation file; the two plans
# hold the same kernels, every one in the split's 'blind3' half; the
# prediction committed before the measurement
# (docs/h200/blind3-predicted-before.csv and .json) is of these kernels
# with these workgroups, so what is measured is what was predicted; the
# lavapipe plan checks without an error finding, and verify.py finds
# every kernel's results correct on lavapipe (~20 s).
set -u
fail() { echo "FAIL: $*"; exit 1; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$CW_TEST_ROOT" || fail "no CW_TEST_ROOT"
B=bench/gpu/blind3
mkdir -p "$dir/bench/gpu" "$dir/bench/accuracy"
cp -r "$B" "$dir/$B"
cp bench/gpu/heldout.py "$dir/bench/gpu/"
cp bench/accuracy/gen_plans.py "$dir/bench/accuracy/"
python3 -B "$dir/$B/gen.py" || fail "gen.py"
for f in plan.json plan-cpu.json split.json perm4096.bin; do
    cmp -s "$B/$f" "$dir/$B/$f" || fail "$B/$f differs from what gen.py writes"
done
python3 - "$B" <<'PY' || fail "plans, split and prediction disagree"
import csv, json, sys
b = sys.argv[1]
gpu = json.load(open(b + "/plan.json"))["kernels"]
cpu = json.load(open(b + "/plan-cpu.json"))["kernels"]
split = json.load(open(b + "/split.json"))
names = [k["name"] for k in gpu]
assert names == [k["name"] for k in cpu], "the two plans hold the same kernels"
assert sorted(split["blind3"]) == sorted(names), "every kernel in 'blind3'"
assert not split["train"] and not split["test"], "no train or test half"
assert sorted(split["what"]) == sorted(names), "a line on what each kernel is"
pred = json.load(open("docs/h200/blind3-predicted-before.json"))["kernels"]
assert [k["name"] for k in pred] == names, "the JSON prediction covers the plan"
for k, p in zip(gpu, pred):
    assert p["workgroups"] == k["workgroups"], (k["name"], p["workgroups"], k["workgroups"])
    assert p["plan"] == b + "/plan.json", p["plan"]
rows = {r["kernel"]: r for r in csv.DictReader(open("docs/h200/blind3-predicted-before.csv"))}
assert sorted(rows) == sorted(names), "the CSV prediction covers the plan"
for p in pred:
    t = float(rows[p["name"]]["predicted_us"])
    assert abs(t - p["prediction"]["time_us"]) <= 0.051 + 1e-3 * t, (p["name"], t)
PY
"$CW" check "$B/plan-cpu.json" > "$dir/check.out" 2>&1; rc=$?
[ $rc -eq 0 ] || { cat "$dir/check.out"; fail "check $B/plan-cpu.json exit $rc"; }
python3 -B "$B/verify.py" "$CW" > "$dir/verify.out" 2>&1; rc=$?
tail -1 "$dir/verify.out"
[ $rc -eq 0 ] || { cat "$dir/verify.out"; fail "verify.py exit $rc"; }
grep -q '^27 of 27 kernels agree with the reference$' "$dir/verify.out" || fail "verify.py's count"
echo "blind3_plan: ok"
