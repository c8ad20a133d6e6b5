#!/bin/sh
# Blind set 4 (bench/gpu/blind4), the held-out stand-in after blind set 3:
# the checks of tests/heldout/set_check.sh (gen.py writes exactly the
# committed plans and split; the plans, the split's 'blind4' half and,
# once it is committed before the measurement, the prediction
# docs/h200/blind4-predicted-before.* agree; H200 grids and buffers within
# the device's limits; plan-cpu.json checks clean; verify.py 25 of 25 on
# lavapipe, ~10 s).
set -u
cd "${CW_TEST_ROOT:?}" || exit 1
sh tests/heldout/set_check.sh bench/gpu/blind4 blind4 25 || exit 1
echo "blind4_plan: ok"
