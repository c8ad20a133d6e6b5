#!/bin/sh
# Static analysis speed against a saved baseline (the commit before the
# speed-ups of 2026-12-01): the slowest SPIR-V fuzz regression inputs
# replayed through the fuzz target (release build: BUILD/fuzz/fuzz_spirv,
# tests/fuzz/replay.c), and `clockwork check --device h200` of the GPU
# corpus, the validation set and the blind set.  Each row: the saved
# number, now, and saved / now.  Times are CPU seconds (user + system) of
# the best of STATIC_RUNS runs (3): the machine is shared, and CPU time
# moves less with its load than wall time does.
#   STATIC_OLD=DIR  measure DIR/fuzz/fuzz_spirv and DIR/clockwork as the
#                   baseline instead of the saved numbers (for instance a
#                   build of 2746713 made with `make all fuzzers`).
BUILD=${1:-build}
RUNS=${STATIC_RUNS:-3}
[ -x "$BUILD/clockwork" ] || { echo "no $BUILD/clockwork: make first"; exit 1; }
make --no-print-directory BUILD="$BUILD" "$BUILD/fuzz/fuzz_spirv" > /dev/null || exit 1
REG=tests/fuzz/regressions/spirv

# The baseline: main 2746713, measured 2026-12-01 19:13 UTC on the team
# machine (AMD EPYC, 2 vCPUs shared with five other people's jobs, Debian
# 12, gcc 12 -O2), with STATIC_OLD= pointing at that commit's build.
saved() {
    case $1 in
    timeout-runs-normalize-quadratic) echo 2.02 ;;
    slow-unit-11s-under-libfuzzer) echo 1.49 ;;
    slow-unit-sem-localsize-2139095040) echo 1.46 ;;
    # not in 2746713: main aadaa48 (before the loop tracker kept only the
    # variables a loop names), 2026-12-01 22:05 UTC, same machine; peak
    # RSS then 1.5 GB, after 42 MB (bench/gen_many_loops.py 700)
    oom-700-constant-loops) echo 3.84 ;;
    corpus) echo 6.91 ;;
    validation) echo 2.09 ;;
    blind) echo 5.10 ;;
    esac
}

# cpu_best CMD...: the least CPU seconds (user + system) of RUNS runs
cpu_best() {
    python3 - "$RUNS" "$@" <<'PY'
import resource, subprocess, sys
runs, cmd = int(sys.argv[1]), sys.argv[2:]
best = None
for _ in range(runs):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    rc = subprocess.call(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if rc not in (0, 1):
        print("failed")
        sys.exit(0)
    best = t if best is None or t < best else best
print(f"{best:.2f}")
PY
}

row() { # row NAME OLD NOW
    awk -v n="$1" -v o="$2" -v w="$3" 'BEGIN {
        r = (o + 0 > 0 && w + 0 > 0) ? sprintf("%.1fx", o / w) : "-";
        printf "%-44s %8s %8s %7s\n", n, o, w, r }'
}

printf '%-44s %8s %8s %7s\n' "cpu seconds, best of $RUNS" saved now ratio
status=0
for s in timeout-runs-normalize-quadratic slow-unit-11s-under-libfuzzer \
         slow-unit-sem-localsize-2139095040 oom-700-constant-loops; do
    now=$(cpu_best "$BUILD/fuzz/fuzz_spirv" "$REG/$s.spv")
    old=$(saved "$s")
    [ -n "${STATIC_OLD:-}" ] && old=$(cpu_best "$STATIC_OLD/fuzz/fuzz_spirv" "$REG/$s.spv")
    [ "$now" = failed ] && status=1
    row "replay $s" "$old" "$now"
done
for p in corpus:bench/accuracy/plan-gpu.json validation:bench/gpu/validation/plan.json \
         blind:bench/gpu/blind/plan.json; do
    name=${p%%:*}
    plan=${p#*:}
    now=$(cpu_best "$BUILD/clockwork" check --device h200 --format csv -o /dev/null "$plan")
    old=$(saved "$name")
    [ -n "${STATIC_OLD:-}" ] && old=$(cpu_best "$STATIC_OLD/clockwork" check --device h200 --format csv -o /dev/null "$plan")
    [ "$now" = failed ] && status=1
    row "check --device h200 $name" "$old" "$now"
done
exit $status
