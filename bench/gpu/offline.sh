#!/bin/sh
# The H200 accuracy table without the GPU: predict the corpus with
# `clockwork check --device h200` (the built-in h200 profile) and compare
# with measurements saved from a device run (docs/h200/corpus-*.json).
#   sh bench/gpu/offline.sh [BUILD] [table.py options]
#   OFFLINE_PROFILE=FILE   predict with --profile FILE instead (e.g.
#                          docs/h200/h200-calibrated.json)
#   OFFLINE_MEAS="F..."    the measured reports (default docs/h200/corpus-*.json)
#   OFFLINE_PLAN=FILE      the plan (default bench/accuracy/plan-gpu.json)
BUILD=${1:-build}
[ $# -gt 0 ] && shift
CW=$BUILD/clockwork
PLAN=${OFFLINE_PLAN:-bench/accuracy/plan-gpu.json}
MEAS=${OFFLINE_MEAS:-$(ls docs/h200/corpus-*.json 2>/dev/null)}
[ -n "$MEAS" ] || { echo "offline: no saved measurements (docs/h200/corpus-*.json)" >&2; exit 2; }
mkdir -p "$BUILD"
if [ -n "${OFFLINE_PROFILE:-}" ]; then
    set -- --pred "$BUILD/offline-check.csv" "$@"
    "$CW" check --profile "$OFFLINE_PROFILE" --format csv -o "$BUILD/offline-check.csv" "$PLAN"
else
    set -- --pred "$BUILD/offline-check.csv" "$@"
    "$CW" check --device h200 --format csv -o "$BUILD/offline-check.csv" "$PLAN"
fi
rc=$?
[ $rc -le 1 ] || { echo "offline: clockwork check failed (exit $rc)" >&2; exit $rc; }
echo "predicted: ${OFFLINE_PROFILE:-built-in h200}; measured: $MEAS"
# shellcheck disable=SC2086
python3 bench/accuracy/table.py "$@" $MEAS
