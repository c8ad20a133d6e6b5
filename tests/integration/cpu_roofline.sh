#!/bin/sh
# Native CPU kernels next to their roofline (issue 8), through the CLI:
#  - `check` inspects the machine code without running it: the naive SGEMM
#    is scalar code (scalar-fp-code), the OpenBLAS wrapper is not;
#  - `run` of examples/cpu/plan.json flags the naive SGEMM
#    far-below-roofline and exits 3;
#  - the OpenBLAS SGEMM alone, judged like every kernel (measured against
#    the predicted time = its roofline, within the tolerance band; here
#    --tolerance 3, i.e. at least 25% of the roofline) is ok and exits 0;
#  - a kernel measured faster than its roofline (the plan claims 1000x
#    the work) is never `ok`: faster, ceiling-exceeded pointing at
#    calibrate, exit 3;
#  - a work expression that does not evaluate stops the kernel being run.
set -u
: "${CW:?CW must name the clockwork binary}"
ROOT=${CW_TEST_ROOT:-.}
EX="$(dirname "$CW")/examples/cpu"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }

for lib in sgemm_naive sgemm_blas; do
    [ -f "$EX/lib$lib.so" ] || fail "$EX/lib$lib.so is missing (make examples)"
done

# The example plan points at build/; rewrite it for this build folder.
sed "s|\.\./\.\./build/examples/cpu|$EX|" "$ROOT/examples/cpu/plan.json" > "$T/plan.json"

# 1. static: no kernel executed, scalar code found in the naive one only
"$CW" check --format json -o "$T/check.json" "$T/plan.json"
rc=$?
[ "$rc" -eq 0 ] || fail "check exited $rc, expected 0 (warnings only)"
grep -q '"scalar-fp-code"' "$T/check.json" || fail "check: no scalar-fp-code finding"
n=$(grep -o '"scalar-fp-code"' "$T/check.json" | wc -l)
[ "$n" -eq 1 ] || fail "check: $n scalar-fp-code findings, expected 1 (naive only)"
grep -q '"far-below-roofline"' "$T/check.json" && fail "check must not judge a run"

# 2. run both: the naive SGEMM is far below its roofline -> exit 3
"$CW" run --samples 3 --format json -o "$T/run.json" "$T/plan.json"
rc=$?
[ "$rc" -eq 3 ] || { cat "$T/run.json"; fail "run exited $rc, expected 3"; }
n=$(grep -o '"far-below-roofline"' "$T/run.json" | wc -l)
[ "$n" -eq 1 ] || { cat "$T/run.json"; fail "$n far-below-roofline findings, expected 1"; }
grep -q 'efficiency' "$T/run.json" || fail "no efficiency in the report"
grep -q 'GFLOP/s' "$T/run.json" || fail "no measured GFLOP/s in the report"

# 3. the OpenBLAS SGEMM alone: not flagged, ok within a +300% band, exit 0
cat > "$T/blas.json" <<JSON
{"kernels": [{"name": "sgemm_blas", "kind": "cpu",
  "library": "$EX/libsgemm_blas.so", "symbol": "sgemm", "args": {"n": 512},
  "buffers": [{"bytes": 1048576}, {"bytes": 1048576}, {"bytes": 1048576, "init": "zero"}],
  "work": {"flops": "2*n*n*n", "bytes": "3*4*n*n"},
  "expect": {"min_efficiency": 0.25}}]}
JSON
"$CW" run --samples 5 --tolerance 3 --format json -o "$T/blas_run.json" "$T/blas.json"
rc=$?
[ "$rc" -eq 0 ] || { cat "$T/blas_run.json"; fail "OpenBLAS run exited $rc, expected 0"; }
grep -q '"far-below-roofline"' "$T/blas_run.json" && fail "OpenBLAS SGEMM flagged"
grep -q '"status": "ok"' "$T/blas_run.json" || { cat "$T/blas_run.json"; fail "OpenBLAS SGEMM not ok"; }

# 4. a bad work expression is an input error naming the position
sed 's|"2\*n\*n\*n"|"2*n*"|' "$T/blas.json" > "$T/bad.json"
"$CW" check --format json -o "$T/bad_check.json" "$T/bad.json" 2> "$T/bad.err"
rc=$?
[ "$rc" -eq 2 ] || fail "bad work expression: exit $rc, expected 2"
grep -q 'position 5' "$T/bad_check.json" "$T/bad.err" || fail "bad work expression: no position"
# the same error stops `run` too: nothing is executed, exit 2
"$CW" run --format json -o "$T/bad_run.json" "$T/bad.json" 2> "$T/bad_run.err"
rc=$?
[ "$rc" -eq 2 ] || fail "run with a bad work expression: exit $rc, expected 2"
grep -q 'not run: the kernel has error findings' "$T/bad_run.json" || \
    { cat "$T/bad_run.json"; fail "a kernel with a bad work expression was run"; }
grep -q '"median_us"' "$T/bad_run.json" && fail "a kernel with a bad work expression was measured"

# 5. faster than the roofline allows: the ceiling is wrong, never ok
sed 's|"2\*n\*n\*n"|"2000*n*n*n"|; s|"3\*4\*n\*n"|"1"|' "$T/blas.json" > "$T/fast.json"
grep -q '2000\*n' "$T/fast.json" || fail "test plan not rewritten"
"$CW" run --samples 3 --format json -o "$T/fast_run.json" "$T/fast.json"
rc=$?
[ "$rc" -eq 3 ] || { cat "$T/fast_run.json"; fail "beating the roofline: exit $rc, expected 3"; }
grep -q '"status": "faster"' "$T/fast_run.json" || { cat "$T/fast_run.json"; fail "not faster"; }
grep -q '"ceiling-exceeded"' "$T/fast_run.json" || fail "no ceiling-exceeded finding"
grep -q 'clockwork calibrate --cpu' "$T/fast_run.json" || fail "ceiling-exceeded does not point at calibrate"
echo "ok"
