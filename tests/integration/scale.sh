#!/bin/sh
# Scale: `clockwork check` on a generated plan of 10,000 kernels finishes
# (a generous outer timeout turns a hang into a failure) with a row per
# kernel in the table and exit 0; on a tenth of it, every kernel is in the
# JSON report with a prediction.  Under the sanitizers (an ASan binary) 1,000 kernels, for time.
# Speed and memory are measured by bench/scale.bench.sh, not asserted here.
set -u
fail() { echo "FAIL: $*"; exit 1; }
: "${CW:?}"
ROOT=${CW_TEST_ROOT:-$(pwd)}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
if grep -q __asan_init "$CW"; then n=1000; else n=10000; fi
n=${CW_SCALE_KERNELS:-$n}
python3 "$ROOT/bench/gen_scale_plan.py" "$n" "$ROOT" > "$T/plan.json" || fail "generator"
# the JSON report on a tenth of the plan (the table run below covers all)
m=$((n / 10))
python3 "$ROOT/bench/gen_scale_plan.py" "$m" "$ROOT" > "$T/plan_m.json" || fail "generator"
timeout 900 "$CW" check --no-color -o "$T/report.json" --format json "$T/plan_m.json" \
    > "$T/out" 2> "$T/err"; rc=$?
[ $rc -eq 0 ] || fail "check on $m kernels exited $rc: $(tail -n 5 "$T/err")"
timeout 900 "$CW" check --no-color "$T/plan.json" > "$T/table" 2> "$T/err"; rc=$?
[ $rc -eq 0 ] || fail "check (table) exited $rc"
rows=$(grep -cE '^(saxpy|reduce|transpose|stencil)_[0-9]+ ' "$T/table")
[ "$rows" -eq "$n" ] || fail "table has $rows kernel rows, want $n"
python3 - "$T/report.json" "$m" <<'PY' || fail "report"
import json, sys
r = json.load(open(sys.argv[1]))
n = int(sys.argv[2])
ks = r["kernels"]
assert len(ks) == n, len(ks)
assert len({k["name"] for k in ks}) == n
for k in ks:
    p = k["prediction"]
    assert p["time_us"] > 0, k["name"]
    assert p["confidence"] in ("exact", "estimated"), (k["name"], p["confidence"])
PY
echo "scale: ok ($n kernels)"
