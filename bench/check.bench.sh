#!/bin/sh
# Static analysis speed: reader + checks, SPIRV-Tools validation and the
# whole verifier per example kernel (target <= 10 ms, GLSL compilation
# excluded), and the whole analysis vs validation alone on generated
# modules of tens of thousands of instructions (target <= 1.5x).
. "$(dirname "$0")/lib.sh"
bench_build check_bench bench/check_bench.c
"$BUILD/bench/check_bench" "${CHECK_BENCH_PLAN:-examples/plan.json}"
