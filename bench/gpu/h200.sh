#!/bin/sh
# One measurement session on a GPU machine, in one command (<= GPU_SECONDS,
# default 540 s), everything written to a work folder and packed into
# $OUT/gpu-run.tar.gz (default OUT build/gpu-run; the tables and the step
# log are also copied to $OUT; bench/gpu/save_run.sh unpacks the archive):
#   1. machine and devices;
#   2. `clockwork calibrate` (its output becomes profiles/h200.json);
#   3. with BLIND=1, the blind set (bench/gpu/blind/plan.json), two passes,
#      before anything else is measured; with BLIND2=1, blind set 2
#      (bench/gpu/blind2/plan.json) the same way, after it; with BLIND3=1,
#      blind set 3 (bench/gpu/blind3/plan.json) the same way, after those;
#      with BLIND4=1, blind set 4 (bench/gpu/blind4/plan.json) the same
#      way, after those;
#   4. every probe plan in bench/gpu/probes/*.json (GPU_PROBES=0: none),
#      within GPU_PROBE_SECONDS (default 90) all together;
#   5. the validation set (bench/gpu/validation/plan.json) and the accuracy
#      corpus (bench/accuracy/plan-gpu.json) measured with `clockwork run`,
#      predicted with this session's calibration;
#   6. the timing floor against the bare timestamp harness (floor.sh);
#   7. a second pass of the corpus and of the validation set, and a second
#      calibration, while time is left;
#   8. the tables: predicted with this session's calibration and with the
#      built-in h200 profile, all / train / test halves, validation, the
#      blind set and the probes.
# Builds nothing: run it from a tree holding build/clockwork,
# build/bench/tsbare and build/bench/*.spv made elsewhere
# (sh bench/gpu/prepare.sh makes them; bench/gpu/device.sh sets up the
# runtime on a bare GPU machine and calls this script).
#   GPU_SEL      device selector (default H200)
#   GPU_DRY=1    a dry run on this machine's device: no nvidia-smi, the
#                plans default to the lavapipe sizes (a probe P.json is run
#                as P-cpu.json where that exists; P-cpu.json files are
#                skipped on the GPU)
#   CORPUS_PLAN, VAL_PLAN, BLIND_PLAN, BLIND2_PLAN, BLIND3_PLAN, BLIND4_PLAN
#                the plans
#                (defaults above)
#   BLIND=1      measure the blind set (default 0: not measured)
#   BLIND2=1     measure blind set 2 (default 0: not measured)
#   BLIND3=1     measure blind set 3 (default 0: not measured)
#   BLIND4=1     measure blind set 4 (default 0: not measured)
#   GPU_PROBES=0 skip bench/gpu/probes (default 1: every plan there; or
#                the names of the plans to run, "memory2 unroll");
#                GPU_PROBE_SECONDS their time all together (default 90)
#   GPU_SETS=0   skip steps 5-7 (validation, corpus, floor, second passes,
#                second calibration) and their tables: calibrate, the blind
#                sets asked for and the probes only (default 1)
#   GPU_SECONDS  the whole session's budget in seconds (default 540)
set -u
OUT=${OUT:-build/gpu-run}
CW=${CW:-build/clockwork}
export CW
SEL=${GPU_SEL:-H200}
DRY=${GPU_DRY:-0}
BUDGET=${GPU_SECONDS:-540}
BLIND=${BLIND:-0}
BLIND2=${BLIND2:-0}
BLIND3=${BLIND3:-0}
BLIND4=${BLIND4:-0}
PROBES=${GPU_PROBES:-1}
PROBE_BUDGET=${GPU_PROBE_SECONDS:-90}
SETS=${GPU_SETS:-1}
if [ "$DRY" = 1 ]; then
    CPLAN=${CORPUS_PLAN:-bench/accuracy/plan.json}
    VPLAN=${VAL_PLAN:-bench/gpu/validation/plan-cpu.json}
    BPLAN=${BLIND_PLAN:-bench/gpu/blind/plan-cpu.json}
    B2PLAN=${BLIND2_PLAN:-bench/gpu/blind2/plan-cpu.json}
    B3PLAN=${BLIND3_PLAN:-bench/gpu/blind3/plan-cpu.json}
    B4PLAN=${BLIND4_PLAN:-bench/gpu/blind4/plan-cpu.json}
else
    CPLAN=${CORPUS_PLAN:-bench/accuracy/plan-gpu.json}
    VPLAN=${VAL_PLAN:-bench/gpu/validation/plan.json}
    BPLAN=${BLIND_PLAN:-bench/gpu/blind/plan.json}
    B2PLAN=${BLIND2_PLAN:-bench/gpu/blind2/plan.json}
    B3PLAN=${BLIND3_PLAN:-bench/gpu/blind3/plan.json}
    B4PLAN=${BLIND4_PLAN:-bench/gpu/blind4/plan.json}
fi
SAMPLES=${GPU_SAMPLES:-20}
T0=$(date +%s)
WORK=${GPU_WORK:-/tmp/gpu-run}
R=$WORK/r
rm -rf "$R"
mkdir -p "$OUT" "$R"
log() { echo "== $(date -u +%H:%M:%S) $*" | tee -a "$R/session.log"; }
left() { echo $(( BUDGET - ($(date +%s) - T0) )); }
step() { # step NAME SECONDS CMD...: run with a time limit (cut to what is left)
    name=$1; limit=$2; shift 2
    l=$(left)
    [ "$limit" -gt "$l" ] && limit=$l
    if [ "$limit" -lt 5 ]; then
        log "$name: skipped, $l s left"
        return 1
    fi
    log "$name (limit ${limit}s): $*"
    start=$(date +%s)
    timeout "$limit" "$@" > "$R/$name.out" 2> "$R/$name.err"
    rc=$?
    log "$name: exit $rc after $(( $(date +%s) - start )) s"
    return 0
}
{
    date -u '+%Y-%m-%d %H:%M UTC'
    uname -a
    if [ "$DRY" != 1 ]; then
        nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,power.limit,temperature.gpu --format=csv 2>&1
    fi
    lscpu 2>/dev/null | grep -E 'Model name|^CPU\(s\)'
    echo "load: $(cat /proc/loadavg)"
    # the prepared tree's COMMIT names the binary; git would name whatever
    # checkout the machine received
    echo "tree: $(head -1 COMMIT 2>/dev/null || git log -1 --format='%h %s' 2>/dev/null)"
} > "$R/machine.txt" 2>&1
cat "$R/machine.txt"
step devices 30 "$CW" devices
step devices-json 30 "$CW" devices --format json
cat "$R/devices.out"
# 2. calibrate first: the measurements below are predicted with it
step calibrate 120 "$CW" calibrate --device "$SEL" --no-save -o "$R/h200-calibrated.json"
cat "$R/calibrate.err"
PROFILE="$R/h200-calibrated.json"
[ -s "$PROFILE" ] || PROFILE=h200
run_plan() { # run_plan NAME LIMIT PLAN
    step "$1" "$2" "$CW" run --device "$SEL" --profile "$PROFILE" --samples "$SAMPLES" \
        --budget 1 --format json -o "$R/$1.json" "$3"
}
# 3. the blind sets first, while the machine is as calibrate left it: their
# predictions were committed before (docs/h200/blind-predicted-before.csv,
# docs/h200/blind2-predicted-before.csv, docs/h200/blind3-predicted-before.csv,
# docs/h200/blind4-predicted-before.csv)
blind_set() { # blind_set NAME PLAN: the built-in profile's predictions, two passes
    "$CW" check --device h200 --format csv -o "$R/check-builtin-$1.csv" "$2" \
        2> "$R/check-builtin-$1.err"
    run_plan "$1-1" 150 "$2"
    run_plan "$1-2" 120 "$2"
}
[ "$BLIND" = 1 ] && blind_set blind "$BPLAN"
[ "$BLIND2" = 1 ] && blind_set blind2 "$B2PLAN"
[ "$BLIND3" = 1 ] && blind_set blind3 "$B3PLAN"
[ "$BLIND4" = 1 ] && blind_set blind4 "$B4PLAN"
# 4. the probe plans (kernels that isolate one phenomenon), one report each
probe_plans() { # the probe plans for this device, one a line
    for p in bench/gpu/probes/*.json; do
        [ -e "$p" ] || continue
        case $p in *-cpu.json) continue ;; esac
        if [ "$PROBES" != 1 ]; then # a list of plan names
            case " $PROBES " in *" $(basename "$p" .json) "*) ;; *) continue ;; esac
        fi
        c=${p%.json}-cpu.json
        if [ "$DRY" = 1 ] && [ -e "$c" ]; then echo "$c"; else echo "$p"; fi
    done
}
if [ "$PROBES" != 0 ]; then
    P0=$(date +%s)
    for p in $(probe_plans); do
        pl=$(( PROBE_BUDGET - ($(date +%s) - P0) ))
        n=probe-$(basename "$p" .json)
        if [ "$pl" -lt 5 ]; then
            log "$n: skipped, the probes' $PROBE_BUDGET s are spent"
            continue
        fi
        run_plan "$n" "$pl" "$p"
    done
fi
sets() { # steps 5-7: the validation set, the corpus, the floor, second passes
    # 5. one pass of each set: the validation set first, then the corpus
    run_plan validation-1 150 "$VPLAN"
    run_plan corpus-1 280 "$CPLAN"
    # 6. the floor
    step floor 60 env FLOOR_OUT="$R" sh bench/gpu/floor.sh build --device "$SEL"
    cat "$R/floor.out"
    # 7. second passes while time is left (each kernel keeps its lower median)
    [ "$(left)" -gt 150 ] && run_plan corpus-2 200 "$CPLAN"
    [ "$(left)" -gt 70 ] && run_plan validation-2 100 "$VPLAN"
    [ "$(left)" -gt 40 ] && step calibrate-2 40 "$CW" calibrate --device "$SEL" --no-save \
        -o "$R/h200-calibrated-2.json"
    # 8. (no device work) the built-in profile's predictions of both sets
    "$CW" check --device h200 --format csv -o "$R/check-builtin.csv" "$CPLAN" \
        2> "$R/check-builtin.err"
    "$CW" check --device h200 --format csv -o "$R/check-builtin-val.csv" "$VPLAN" \
        2> "$R/check-builtin-val.err"
}
[ "$SETS" != 0 ] && sets
# 8. the tables
VSPLIT=$(dirname "$VPLAN")/split.json
blind_table() { # blind_table NAME PLAN TITLE: its tables, built-in profile then calibrated
    echo
    echo "== $3, predicted with the built-in h200 profile of this binary"
    python3 bench/accuracy/table.py --split "$(dirname "$2")/split.json" \
        --pred "$R/check-builtin-$1.csv" "$R/$1"-[0-9].json
    echo
    echo "== $3, predicted with this session's calibration"
    python3 bench/accuracy/table.py --split "$(dirname "$2")/split.json" "$R/$1"-[0-9].json
}
set_tables() { # the corpus and the validation set, both profiles
    echo "== corpus, predicted with this session's calibration ($PROFILE)"
    python3 bench/accuracy/table.py "$R"/corpus-*.json
    echo
    echo "== corpus, predicted with the built-in h200 profile"
    python3 bench/accuracy/table.py --pred "$R/check-builtin.csv" "$R"/corpus-*.json
    echo
    echo "== validation (unseen), predicted with this session's calibration"
    python3 bench/accuracy/table.py --split "$VSPLIT" "$R"/validation-*.json
    echo
    echo "== validation (unseen), predicted with the built-in h200 profile"
    python3 bench/accuracy/table.py --split "$VSPLIT" --pred "$R/check-builtin-val.csv" \
        "$R"/validation-*.json
}
{
    [ "$SETS" != 0 ] && set_tables
    [ "$BLIND" = 1 ] && blind_table blind "$BPLAN" "blind set"
    [ "$BLIND2" = 1 ] && blind_table blind2 "$B2PLAN" "blind set 2"
    [ "$BLIND3" = 1 ] && blind_table blind3 "$B3PLAN" "blind set 3"
    [ "$BLIND4" = 1 ] && blind_table blind4 "$B4PLAN" "blind set 4"
    for p in "$R"/probe-*.json; do
        [ -e "$p" ] || continue
        echo
        echo "== $(basename "$p" .json), predicted with this session's calibration"
        python3 bench/accuracy/table.py --split "" "$p"
    done
} > "$R/accuracy-table.txt" 2>&1
log "done after $(( $(date +%s) - T0 )) s"
tar -C "$WORK" -czf "$OUT/gpu-run.tar.gz" r
# a device call brings back only the first few files of $OUT (by name):
# the archive holds everything, the rest is for a quick look
cp "$R/accuracy-table.txt" "$R/session.log" "$OUT/" 2>/dev/null
cat "$R/accuracy-table.txt"
