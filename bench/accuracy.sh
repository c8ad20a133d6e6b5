#!/bin/sh
# Accuracy suite: run every kernel of bench/accuracy/plan.json with
# `clockwork run`, print predicted vs measured per kernel and the median and
# 90th-percentile error.  Usage: sh bench/accuracy.sh [BUILD] [extra args]
#   BUILD                   build folder holding clockwork (default build)
#   extra args              passed to clockwork run (e.g. --device 0)
#   ACCURACY_OUT            folder for the CSV report (default BUILD/accuracy)
#   ACCURACY_MAX_MEDIAN     exit 1 when the median error (%) is above this
#                           (default 30: the lavapipe milestone)
# Error of one kernel = |predicted - measured| / measured.
set -u
BUILD=${1:-build}
[ $# -gt 0 ] && shift
CW=$BUILD/clockwork
PLAN=bench/accuracy/plan.json
OUT=${ACCURACY_OUT:-$BUILD/accuracy}
MAX_MEDIAN=${ACCURACY_MAX_MEDIAN:-30}

if [ ! -x "$CW" ]; then
    echo "accuracy: $CW not found; run make first" >&2
    exit 2
fi
mkdir -p "$OUT" || exit 2
CSV=$OUT/accuracy.csv
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

echo "accuracy suite: $PLAN ($(date -u '+%Y-%m-%d %H:%M UTC'))"
awk -F, -v max_median="$MAX_MEDIAN" '
NR == 1 {
    for (i = 1; i <= NF; i++) col[$i] = i
    printf "%-18s %-8s %12s %12s %12s %8s\n", "kernel", "bound", "ideal_us",
        "predicted_us", "measured_us", "error"
    next
}
{
    name = $col["kernel"]; bound = $col["bound"]
    ideal = $col["ideal_us"]; pred = $col["predicted_us"]
    meas = $col["measured_median_us"]
    if (pred == "" || meas == "" || meas + 0 <= 0) {
        printf "%-18s %-8s %12s %12s %12s %8s\n", name, bound, ideal, pred,
            meas, "n/a"
        missing++
        next
    }
    e = (pred - meas) / meas
    ae = e < 0 ? -e : e
    err[n++] = ae * 100
    printf "%-18s %-8s %12.1f %12.1f %12.1f %+7.1f%%\n", name, bound, ideal,
        pred, meas, e * 100
}
END {
    if (n == 0) { print "no kernel has both a prediction and a measurement"; exit 1 }
    # insertion sort: n is small
    for (i = 1; i < n; i++) {
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
}' "$CSV"
