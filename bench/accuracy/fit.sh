#!/bin/sh
# Refit lavapipe's cost constants from the accuracy suite's measurements
# (docs/model.md, "lavapipe calibration").  Development tool.
#   sh bench/accuracy/fit.sh [BUILD]
# Uses the CSV reports that `make accuracy` left in BUILD/accuracy (run it
# first, with ACCURACY_RUNS=5 on a quiet machine), builds bench/accuracy/fit.c
# against the layers' archives (bench/lib.sh) and prints the constants fitted on the
# training half of the corpus (bench/accuracy/split.json).  Since issue 12
# `clockwork calibrate` measures these constants with microbenchmarks; the
# fit is kept to compare with them.
set -eu
BUILD=${1:-build}
ls "$BUILD"/accuracy/accuracy-*.csv > /dev/null 2>&1 || {
    echo "fit: no $BUILD/accuracy/accuracy-*.csv: run make accuracy first" >&2
    exit 2
}
. "$(dirname "$0")/../lib.sh" # LIBS, ARCHIVES, LAYER_INC
# shellcheck disable=SC2086
${CC:-cc} -std=c11 -O2 -D_GNU_SOURCE $LAYER_INC \
    -o "$BUILD/accuracy/fit" bench/accuracy/fit.c $ARCHIVES $LIBS
# fit on the training half only (bench/accuracy/split.json)
FIT_TRAIN=$(python3 -c 'import json; print(",".join(json.load(open("bench/accuracy/split.json"))["train"]))')
export FIT_TRAIN
"$BUILD/accuracy/fit" bench/accuracy/plan.json "$BUILD"/accuracy/accuracy-*.csv
