#!/bin/sh
# Registers per invocation on the CPU device: `run` asks the driver through
# VK_KHR_pipeline_executable_properties; lavapipe does not offer it, so the
# run still works and the prediction says registers were not reported, with
# the reason, and registers_per_invocation is null.  `check` opens no device
# and does not ask at all.
set -u
. "$(dirname "$0")/../lib.sh"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
saxpy_plan "$dir/plan.json" 1024
"$CW" run --samples 3 --warmup 1 --format json -o "$dir/run.json" \
    "$dir/plan.json" > "$dir/out" 2>&1; rc=$?
cat "$dir/out"
[ $rc -eq 0 ] || [ $rc -eq 3 ] || fail "run exit $rc"
"$CW" check --format json -o "$dir/check.json" "$dir/plan.json" \
    > "$dir/out" 2>&1; rc=$?
cat "$dir/out"
[ $rc -eq 0 ] || fail "check exit $rc"
python3 - "$dir/run.json" "$dir/check.json" <<'PY' || fail "report"
import json, sys
run = json.load(open(sys.argv[1]))["kernels"][0]
chk = json.load(open(sys.argv[2]))["kernels"][0]
assert run["measurement"]["samples"] >= 3, run["measurement"]
p = run["prediction"]
assert "registers_per_invocation" in p and p["registers_per_invocation"] is None, p
regs = [a for a in p["assumptions"] if "registers per invocation" in a]
assert len(regs) == 1, p["assumptions"]
assert "not reported" in regs[0] or "unknown" in regs[0], regs
assert "VK_KHR_pipeline_executable_properties" in regs[0], regs
q = chk["prediction"]
assert q["registers_per_invocation"] is None, q
# check did not ask a driver: no reason from one
assert not any("VK_KHR_pipeline_executable_properties" in a
               for a in q["assumptions"]), q["assumptions"]
# asking changed nothing else: same predicted time
assert abs(p["time_us"] - q["time_us"]) <= 1e-9 * q["time_us"], (p["time_us"], q["time_us"])
PY
echo "run_registers: ok"
