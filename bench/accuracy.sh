#!/bin/sh
# Accuracy suite: run every kernel of bench/accuracy/plan.json with
# `clockwork run`, print predicted vs measured per kernel and the median and
# 90th-percentile error.  Usage: sh bench/accuracy.sh [BUILD] [extra args]
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
median) STATCOL=measured_median_us ;;
min) STATCOL=min_us ;;
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
awk -F, -v max_median="$MAX_MEDIAN" -v statcol="$STATCOL" '
FNR == 1 {
    for (i = 1; i <= NF; i++) col[$i] = i
    next
}
{
    name = $col["kernel"]
    if (!(name in seen)) {
        seen[name] = 1; order[nk++] = name
        bound[name] = $col["bound"]; ideal[name] = $col["ideal_us"]
        pred[name] = $col["predicted_us"]; meas[name] = ""
    }
    m = $col[statcol]
    if (m != "" && m + 0 > 0 && (meas[name] == "" || m + 0 < meas[name] + 0))
        meas[name] = m
}
END {
    printf "%-18s %-8s %12s %12s %12s %8s\n", "kernel", "bound", "ideal_us",
        "predicted_us", "measured_us", "error"
    for (q = 0; q < nk; q++) {
        name = order[q]; p = pred[name]; mm = meas[name]
        if (p == "" || mm == "") {
            printf "%-18s %-8s %12s %12s %12s %8s\n", name, bound[name],
                ideal[name], p, mm, "n/a"
            missing++
            continue
        }
        e = (p - mm) / mm
        ae = e < 0 ? -e : e
        err[n++] = ae * 100
        printf "%-18s %-8s %12.1f %12.1f %12.1f %+7.1f%%\n", name, bound[name],
            ideal[name], p, mm, e * 100
    }
    if (n == 0) { print "no kernel has both a prediction and a measurement"; exit 1 }
    for (i = 1; i < n; i++) {        # insertion sort: n is small
        v = err[i]
        for (j = i - 1; j >= 0 && err[j] > v; j--) err[j + 1] = err[j]
        err[j + 1] = v
    }
    median = n % 2 ? err[(n - 1) / 2] : (err[n / 2 - 1] + err[n / 2]) / 2
    r = 0.9 * (n - 1); lo = int(r)
    p90 = err[lo] + (lo + 1 < n ? (r - lo) * (err[lo + 1] - err[lo]) : 0)
    printf "\n%d kernels measured%s: median error %.1f%%, 90th percentile %.1f%%\n",
        n, missing ? " (" missing " without a result)" : "", median, p90
    if (median > max_median) {
        printf "median error above %s%%\n", max_median
        exit 1
    }
}' $files
