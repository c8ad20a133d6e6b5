#!/bin/sh
# One measurement session on a GPU machine: devices, calibration, the
# accuracy suite, the examples and the timing floor, everything written to
# $OUT (default build/gpu-run).  Builds nothing: run it with a build/clockwork
# made elsewhere.  Usage: sh bench/gpu/h200.sh [extra clockwork run args]
set -u
OUT=${OUT:-build/gpu-run}
CW=${CW:-build/clockwork}
mkdir -p "$OUT"
log() { echo "== $*" | tee -a "$OUT/session.log"; }
step() { # step NAME SECONDS CMD...: run with a time limit, keep its output
    name=$1; limit=$2; shift 2
    log "$name: $*"
    start=$(date +%s)
    timeout "$limit" "$@" > "$OUT/$name.out" 2> "$OUT/$name.err"
    rc=$?
    log "$name: exit $rc after $(( $(date +%s) - start )) s"
    tail -n 40 "$OUT/$name.out"; tail -n 15 "$OUT/$name.err"
    return 0
}
{
    date -u '+%Y-%m-%d %H:%M UTC'
    uname -a
    nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,power.limit --format=csv 2>/dev/null
} > "$OUT/machine.txt" 2>&1
cat "$OUT/machine.txt"
step devices 60 "$CW" devices
step devices-json 60 "$CW" devices --format json
step calibrate 240 "$CW" calibrate --device 0 --no-save -o "$OUT/h200-calibrated.json"
PROFILE="$OUT/h200-calibrated.json"
[ -s "$PROFILE" ] || PROFILE=h200
# The accuracy table: the suite at GPU sizes, predicted with the built-in
# h200 profile (what `check --device h200` uses anywhere) and with this
# session's calibration, against fresh measurements.
step accuracy 300 env ACCURACY_PLAN=bench/accuracy/plan-gpu.json ACCURACY_MAX_MEDIAN=1000 \
    ACCURACY_RUNS=2 ACCURACY_OUT="$OUT/acc-builtin" sh bench/accuracy.sh "$(dirname "$CW")" \
    --device 0 --profile h200 --samples 20
step accuracy-calibrated 300 env ACCURACY_PLAN=bench/accuracy/plan-gpu.json \
    ACCURACY_MAX_MEDIAN=1000 ACCURACY_RUNS=1 ACCURACY_OUT="$OUT/acc-calibrated" \
    sh bench/accuracy.sh "$(dirname "$CW")" --device 0 --profile "$PROFILE" --samples 20
step accuracy-json 200 "$CW" run --device 0 --profile h200 --samples 20 --format json \
    -o "$OUT/accuracy-h200.json" bench/accuracy/plan-gpu.json
step examples 120 "$CW" run --device 0 --profile "$PROFILE" --format json \
    -o "$OUT/examples-h200.json" examples/plan.json
step floor 120 "$CW" run --device 0 --profile "$PROFILE" --samples 50 --format json \
    -o "$OUT/floor-h200.json" bench/gpu/floor-plan.json
step probe 120 "$CW" run --device 0 --profile "$PROFILE" --samples 10 --format json \
    -o "$OUT/probe-h200.json" bench/gpu/probe-plan.json
log done
