#!/bin/sh
# Blind set 3 (bench/gpu/blind3), the held-out stand-in: the checks of
# tests/heldout/set_check.sh (gen.py writes exactly the committed plans,
# split and permutation file; the two plans hold the same kernels, every
# one in the split's 'blind3' half; the prediction committed before the
# measurement (docs/h200/blind3-predicted-before.csv and .json), required
# here, is of these kernels with these workgroups, so what is measured is
# what was predicted; the lavapipe plan checks without an error finding,
# and verify.py finds every kernel's results correct on lavapipe, ~20 s).
set -u
cd "${CW_TEST_ROOT:?}" || exit 1
[ -s docs/h200/blind3-predicted-before.json ] && [ -s docs/h200/blind3-predicted-before.csv ] ||
    { echo "FAIL: no committed prediction docs/h200/blind3-predicted-before.*"; exit 1; }
sh tests/heldout/set_check.sh bench/gpu/blind3 blind3 27 perm4096.bin || exit 1
echo "blind3_plan: ok"
