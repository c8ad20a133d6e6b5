#!/bin/sh
# The accuracy tables: the corpus on this machine's Vulkan device (one run,
# lavapipe sizes, the profile clockwork run picks: a calibrated one from the
# cache when `clockwork calibrate` has run, else the built-in), then the
# H200 table predicted now against the measurements saved in docs/h200/
# (no GPU needed), the corpus and the validation set.  Each prints per-kernel errors and the median, 90th
# percentile and worst error of the training half, the test half and both.
BUILD=${1:-build}
echo "-- this machine ($(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -1))"
# each kernel's best sample: on a shared machine the closest to its own time
ACCURACY_RUNS=${ACCURACY_RUNS:-1} ACCURACY_MAX_MEDIAN=${ACCURACY_MAX_MEDIAN:-1000} \
    ACCURACY_STAT=${ACCURACY_STAT:-min} \
    sh bench/accuracy.sh "$BUILD" --samples 5 --budget 0.5 || exit 1
echo
echo "-- NVIDIA H200, predicted now, measured in docs/h200/"
sh bench/gpu/offline.sh "$BUILD" || exit 1
echo
echo "-- NVIDIA H200, validation set (never tuned on), predicted now, measured in docs/h200/"
OFFLINE_PLAN=bench/gpu/validation/plan.json \
    OFFLINE_MEAS="$(ls docs/h200/validation-*.json | tr '\n' ' ')" \
    sh bench/gpu/offline.sh "$BUILD" --split bench/gpu/validation/split.json
