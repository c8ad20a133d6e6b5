#!/bin/sh
# The backend table through the CLI: with a backend forced off
# (CW_BACKENDS_OFF) the null backend stands in and reports "unavailable"
# with the reason, never a number; the other kernels are still measured;
# static results come out; one exit-code rule (4 for the missing device).
. "$(dirname "$0")/../lib.sh"
ROOT=${CW_TEST_ROOT:-.}
EX="$(dirname "$CW")/examples/cpu"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
[ -f "$EX/libsgemm_blas.so" ] || fail "$EX/libsgemm_blas.so is missing (make examples)"
cat > "$T/mixed.json" <<JSON
{"kernels": [
  {"name": "saxpy", "shader": "$ROOT/examples/kernels/saxpy.comp", "workgroups": [4, 1, 1],
   "push": {"n": 1000, "alpha": 2.0},
   "buffers": [{"binding": 0, "elements": 1024}, {"binding": 1, "elements": 1024}]},
  {"name": "blas", "kind": "cpu", "library": "$EX/libsgemm_blas.so", "symbol": "sgemm",
   "args": {"n": 64}, "buffers": [{"bytes": 16384}, {"bytes": 16384}, {"bytes": 16384}],
   "work": {"flops": "2*n*n*n", "bytes": "3*4*n*n"}}
]}
JSON

# 1. Vulkan off: the GPU kernel is predicted but not measured (exit 4),
#    the CPU kernel is measured all the same
CW_BACKENDS_OFF=vulkan "$CW" run --samples 3 --format json -o "$T/off.json" "$T/mixed.json" \
    2> "$T/off.err"
rc=$?
[ "$rc" -eq 4 ] || { cat "$T/off.err"; fail "vulkan off: exit $rc, expected 4"; }
grep -q "CW_BACKENDS_OFF" "$T/off.err" || fail "vulkan off: stderr does not say why"
python3 - "$T/off.json" <<'PY' || fail "vulkan off: report"
import json, sys
r = json.load(open(sys.argv[1]))
k = {x["name"]: x for x in r["kernels"]}
g, c = k["saxpy"], k["blas"]
assert g["prediction"]["time_us"] > 0, g["prediction"]
err = g["measurement"]["error"]
assert err.startswith("unavailable: no Vulkan device is open"), err
assert "CW_BACKENDS_OFF" in err, err
assert g["measurement"].get("median_us") is None, g["measurement"]
assert g["divergence"]["status"] == "unknown", g["divergence"]
assert c["measurement"]["median_us"] > 0, c["measurement"]
assert c["divergence"]["status"] in ("ok", "slower", "faster", "unknown"), c["divergence"]
PY

# 2. the native backend off: the CPU kernel is checked, not run (no CPU
#    profile either: as if the backend were not there), the GPU one runs
CW_BACKENDS_OFF=cpu "$CW" run --samples 3 --format json -o "$T/cpu_off.json" "$T/mixed.json" \
    2> "$T/cpu_off.err"
rc=$?
[ "$rc" -eq 4 ] || fail "cpu off: exit $rc, expected 4"
python3 - "$T/cpu_off.json" <<'PY' || fail "cpu off: report"
import json, sys
r = json.load(open(sys.argv[1]))
k = {x["name"]: x for x in r["kernels"]}
err = k["blas"]["measurement"]["error"]
assert err.startswith("unavailable: native CPU kernels cannot be run"), err
assert k["blas"]["measurement"].get("median_us") is None
assert k["saxpy"]["measurement"]["median_us"] > 0, k["saxpy"]["measurement"]
PY

# 3. check needs no backend at all: exit 0, no measurement
CW_BACKENDS_OFF=vulkan,cpu,pfm "$CW" check --format json -o "$T/check.json" "$T/mixed.json" \
    || fail "check with every backend off: exit $?"
grep -q '"median_us"' "$T/check.json" && fail "check measured something"
pass
