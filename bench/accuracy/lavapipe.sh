#!/bin/sh
# The lavapipe accuracy numbers of docs/accuracy.md in one go: calibrate,
# then the corpus at lavapipe sizes measured ACCURACY_RUNS times (default 3;
# each kernel keeps its best sample: on a shared machine the closest to its
# own time), predicted with the built-in lavapipe profile and with the fresh
# calibration.  Measurements run at nice NICE (default -10: as root, ahead
# of builds on a shared machine); the load average is printed.
#   sh bench/accuracy/lavapipe.sh [BUILD]     (writes BUILD/lavapipe/)
BUILD=${1:-build}
OUT=$BUILD/lavapipe
CW=$BUILD/clockwork
NICE=${NICE:--10}
mkdir -p "$OUT"
run() { nice -n "$NICE" "$@"; }
lscpu | sed -n 's/^Model name: *//p' | head -1
echo "load before: $(cat /proc/loadavg)"
run "$CW" calibrate --no-save -o "$OUT/lavapipe-calibrated.json" 2> "$OUT/calibrate.txt"
ACCURACY_RUNS=${ACCURACY_RUNS:-3} ACCURACY_STAT=min ACCURACY_MAX_MEDIAN=1000 \
    ACCURACY_OUT="$OUT" run sh bench/accuracy.sh "$BUILD" --profile lavapipe \
    > "$OUT/builtin.txt"
"$CW" check --profile "$OUT/lavapipe-calibrated.json" --format csv \
    -o "$OUT/check-calibrated.csv" bench/accuracy/plan.json
echo "load after: $(cat /proc/loadavg)"
echo "== built-in lavapipe profile"
cat "$OUT/builtin.txt"
echo
echo "== after clockwork calibrate ($OUT/lavapipe-calibrated.json)"
python3 bench/accuracy/table.py --stat min --pred "$OUT/check-calibrated.csv" \
    "$OUT"/accuracy-*.csv
