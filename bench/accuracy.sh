#!/bin/sh
# Accuracy suite: run every kernel of bench/accuracy/plan.json with
# `clockwork run`, print predicted vs measured per kernel and the median,
# 90th-percentile and worst error of the training half, the test half and
# both (bench/accuracy/table.py, halves in bench/accuracy/split.json).
# Usage: sh bench/accuracy.sh [BUILD] [extra args]
#   BUILD                   build folder holding clockwork (default build)
#   extra args              passed to clockwork run (e.g. --device 0)
#   ACCURACY_PLAN           the plan (default bench/accuracy/plan.json, sized
#                           for lavapipe; bench/accuracy/plan-gpu.json has
#                           the same kernels sized for a large GPU)
#   ACCURACY_OUT            folder for the CSV reports (default BUILD/accuracy)
#   ACCURACY_RUNS           runs of the plan; each kernel keeps its lowest
#                           measured median (default 3)
#   ACCURACY_STAT           measured time compared: median (default) or min
#                           (the best sample: on a machine shared with other
#                           work it is the closest to the kernel's own time)
#   ACCURACY_MAX_MEDIAN     exit 1 when the median error (%) is above this
#                           (default 30: the lavapipe milestone)
#   ACCURACY_SPLIT          the named halves (default bench/accuracy/split.json)
# Error of one kernel = |predicted - measured| / measured.
set -u
BUILD=${1:-build}
[ $# -gt 0 ] && shift
CW=$BUILD/clockwork
PLAN=${ACCURACY_PLAN:-bench/accuracy/plan.json}
OUT=${ACCURACY_OUT:-$BUILD/accuracy}
MAX_MEDIAN=${ACCURACY_MAX_MEDIAN:-30}
RUNS=${ACCURACY_RUNS:-3}
STAT=${ACCURACY_STAT:-median}
case $STAT in
median | min) ;;
*)
    echo "accuracy: ACCURACY_STAT must be median or min, not '$STAT'" >&2
    exit 2
    ;;
esac

if [ ! -x "$CW" ]; then
    echo "accuracy: $CW not found; run make first" >&2
    exit 2
fi
mkdir -p "$OUT" || exit 2
# On a shared machine another process can take a core for a whole run and
# double every median: measure RUNS times and keep each kernel's lowest
# median (the run it had the machine to itself).
# Say when other processes share the CPU: lavapipe runs on it, so its times
# (not the predictions) grow with the machine's load.
ncpu=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
load_before=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo "?")
i=1
files=""
while [ "$i" -le "$RUNS" ]; do
    CSV=$OUT/accuracy-$i.csv
    "$CW" run --format csv -o "$CSV" "$@" "$PLAN"
    rc=$?
    # 0 clean, 1 error findings, 3 divergence: all still measured.
    case $rc in
    0 | 1 | 3) ;;
    *)
        echo "accuracy: clockwork run failed with exit code $rc" >&2
        exit "$rc"
        ;;
    esac
    files="$files $CSV"
    i=$((i + 1))
done

load_after=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo "?")
echo "accuracy suite: $PLAN, $RUNS run(s), measured = lowest $STAT ($(date -u '+%Y-%m-%d %H:%M UTC'))"
echo "load average $load_before before, $load_after after, on $ncpu CPU(s)"
if awk -v a="$load_before" -v b="$load_after" -v n="$ncpu" \
    'BEGIN { exit !((a + 0 > n * 0.75) || (b + 0 > n + 0.75)) }'; then
    echo "warning: the machine was busy; on a CPU device the measured times" \
        "include waiting for other processes"
fi
# shellcheck disable=SC2086
python3 bench/accuracy/table.py --stat "$STAT" --max-median "$MAX_MEDIAN" \
    --split "${ACCURACY_SPLIT:-bench/accuracy/split.json}" $files
