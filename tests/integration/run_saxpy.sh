#!/bin/sh
# clockwork run on the CPU device, end to end: SAXPY's output (read back
# with --dump) equals a CPU reference, including the elements past n that
# must keep their initial value; timestamps, invocations (= workgroups x
# local size) and counters are in the JSON report, hardware counters
# unavailable with a reason (never 0) where the machine has no PMU.
set -u
. "$(dirname "$0")/../lib.sh"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
saxpy_plan "$dir/plan.json" 1000
"$CW" run --samples 3 --warmup 2 --dump "$dir/dump" --format json \
    -o "$dir/report.json" "$dir/plan.json" > "$dir/out" 2>&1; rc=$?
cat "$dir/out"
# 0 or 3 (a divergence from the model is not this test's business)
[ $rc -eq 0 ] || [ $rc -eq 3 ] || fail "exit $rc"
[ -f "$dir/dump/saxpy/binding-0-1.bin" ] || fail "no dump of the written buffer"
[ -f "$dir/dump/saxpy/binding-0-0.bin" ] && fail "the read-only input was dumped"
python3 - "$dir/report.json" "$dir/dump/saxpy/binding-0-1.bin" <<'PY' || fail "report or output"
import json, os, struct, sys
r = json.load(open(sys.argv[1]))
m = r["kernels"][0]["measurement"]
assert m["samples"] >= 3, m["samples"]
assert len(m["sample_us"]) == m["samples"]
assert 0 < m["min_us"] <= m["median_us"] <= m["max_us"], m
assert m["cold_us"] > 0
assert m["invocations"] == 4 * 256, m["invocations"]
assert m["counters_scope"] == "kernel"
assert "clock" not in m, m.get("clock")  # --clock-check auto: GPUs only
c = m["counters"]
assert c["task-clock"]["available"] and c["task-clock"]["value"] > 0
for name in ("cycles", "instructions"):
    if not c[name]["available"]:
        assert c[name]["value"] is None and c[name]["reason"], c[name]
    if not os.path.exists("/sys/bus/event_source/devices/cpu"):
        assert "ENOENT" in c[name]["reason"], c[name]
# every run (warm-up 2, cold included, + samples) added alpha * x once
runs = 2 + m["samples"]
data = open(sys.argv[2], "rb").read()
y = struct.unpack("<1024f", data)
for i in range(1024):
    want = 0.5 + runs * 2.0 * i if i < 1000 else 0.5
    assert y[i] == want, (i, y[i], want)
PY

# --clock-check on: the clock probe runs on the CPU device too, and the
# report says what it read (collectors/vk_clock.h); a bad mode is a usage error
"$CW" run --samples 3 --clock-check on --format json -o "$dir/clock.json" \
    "$dir/plan.json" > /dev/null 2>&1; rc=$?
[ $rc -eq 0 ] || [ $rc -eq 3 ] || fail "--clock-check on: exit $rc"
python3 - "$dir/clock.json" <<'PY' || fail "--clock-check on: the clock reading"
import json, sys
k = json.load(open(sys.argv[1]))["kernels"][0]
c = k["measurement"]["clock"]
assert c["probes"] >= 1 and c["probe_us"] > 0 and c["expected_us"] > 0, c
assert c["first_probe_us"] > 0 and (c["probes"] > 1 or c["first_probe_us"] == c["probe_us"]), c
assert abs(c["ratio"] - c["expected_us"] / c["probe_us"]) < 1e-6 * c["ratio"], c
assert c["settled"] == (c["ratio"] >= 0.9), c
assert 0 <= c["extra_warmup_s"] < 3 + 1, c  # clock_max_s, then one step
if c["extra_warmup_s"] > 0 or not c["settled"]:
    assert "clock" in k["divergence"]["explanation"], k["divergence"]
PY
"$CW" run --clock-check off --samples 3 --format json -o "$dir/off.json" \
    "$dir/plan.json" > /dev/null 2>&1
python3 -c "import json,sys; assert 'clock' not in json.load(open(sys.argv[1]))['kernels'][0]['measurement']" \
    "$dir/off.json" || fail "--clock-check off: a clock reading"
expect_rc 2 "$CW" run --clock-check sometimes "$dir/plan.json"
expect_err "invalid --clock-check 'sometimes' (auto, on, off)" "$CW" run --clock-check sometimes "$dir/plan.json"
echo "run_saxpy: ok"
