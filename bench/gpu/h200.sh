#!/bin/sh
# One measurement session on a GPU machine, everything written to a work
# folder and packed into $OUT/gpu-run.tar.gz (default OUT build/gpu-run;
# the accuracy table and the floor table are also copied to $OUT): devices, the
# timing floor against the bare timestamp harness (floor.sh), `clockwork
# calibrate`, the accuracy corpus (bench/accuracy/plan-gpu.json) measured
# and predicted with this session's calibration, and the accuracy table.
# Builds nothing: run it from a tree holding build/clockwork,
# build/bench/tsbare and build/bench/*.spv made elsewhere
# (sh bench/gpu/prepare.sh makes them).
#   GPU_SEL      device selector (default H200)
#   CORPUS_RUNS  runs of the corpus (default 2; the second is skipped when
#                less than GPU_SECONDS_LEFT seconds remain of GPU_SECONDS)
set -u
OUT=${OUT:-build/gpu-run}
CW=${CW:-build/clockwork}
SEL=${GPU_SEL:-H200}
RUNS=${CORPUS_RUNS:-2}
BUDGET=${GPU_SECONDS:-540}
T0=$(date +%s)
WORK=${GPU_WORK:-/tmp/gpu-run}
R=$WORK/r
mkdir -p "$OUT" "$R"
log() { echo "== $*" | tee -a "$R/session.log"; }
step() { # step NAME SECONDS CMD...: run with a time limit, keep its output
    name=$1; limit=$2; shift 2
    log "$name: $*"
    start=$(date +%s)
    timeout "$limit" "$@" > "$R/$name.out" 2> "$R/$name.err"
    rc=$?
    log "$name: exit $rc after $(( $(date +%s) - start )) s"
    return 0
}
{
    date -u '+%Y-%m-%d %H:%M UTC'
    uname -a
    nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,power.limit,temperature.gpu --format=csv 2>&1
    lscpu 2>/dev/null | grep -E 'Model name|^CPU\(s\)'
} > "$R/machine.txt" 2>&1
cat "$R/machine.txt"
step devices 60 "$CW" devices
step devices-json 60 "$CW" devices --format json
step floor 180 env FLOOR_OUT="$R" sh bench/gpu/floor.sh build --device "$SEL"
cat "$R/floor.out"
step calibrate 240 "$CW" calibrate --device "$SEL" --no-save -o "$R/h200-calibrated.json"
cat "$R/calibrate.err"
PROFILE="$R/h200-calibrated.json"
[ -s "$PROFILE" ] || PROFILE=h200
i=1
while [ "$i" -le "$RUNS" ]; do
    left=$(( BUDGET - ($(date +%s) - T0) ))
    if [ "$i" -gt 1 ] && [ "$left" -lt 200 ]; then
        log "corpus run $i skipped: $left s left"
        break
    fi
    step "corpus-$i" 300 "$CW" run --device "$SEL" --profile "$PROFILE" --samples 20 \
        --budget 1 --format json -o "$R/corpus-$i.json" bench/accuracy/plan-gpu.json
    i=$((i + 1))
done
step examples 120 "$CW" run --device "$SEL" --profile "$PROFILE" --format json \
    -o "$R/examples-h200.json" examples/plan.json
# predictions with the built-in profile too (no device work)
"$CW" check --device h200 --format csv -o "$R/check-builtin.csv" bench/accuracy/plan-gpu.json \
    2> "$R/check-builtin.err"
{
    echo "== predicted with this session's calibration ($PROFILE)"
    python3 bench/accuracy/table.py "$R"/corpus-*.json
    echo
    echo "== predicted with the built-in h200 profile"
    python3 bench/accuracy/table.py --pred "$R/check-builtin.csv" "$R"/corpus-*.json
} > "$R/accuracy-table.txt" 2>&1
log "done after $(( $(date +%s) - T0 )) s"
tar -C "$WORK" -czf "$OUT/gpu-run.tar.gz" r
cp "$R/accuracy-table.txt" "$R/floor.out" "$OUT/" 2>/dev/null
cat "$R/accuracy-table.txt"
