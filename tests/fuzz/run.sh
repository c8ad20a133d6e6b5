#!/bin/sh
# make fuzz [FUZZ_SECONDS=N]: build every tests/fuzz/fuzz_*.c with libFuzzer,
# ASan and UBSan (clang), then run each for N seconds (default 60) on a copy
# of its seed corpus.  Crashes are left in build-fuzz/<harness>.crashes/;
# turn each into a regression input under tests/fuzz/regressions/<harness>/.
# FUZZ_ONLY="plan spirv_mut" runs only those harnesses (two shells can then
# share the cores); the table goes to stdout and build-fuzz/<harness>.log.
#
# On a machine with more cores (or one without clang):
#   FUZZ_JOBS=N      runs up to N harnesses at once, one core each; the
#                    table is printed when all have finished.
#   FUZZ_BUILD=no    uses the binaries already in build-fuzz/lib/fuzz/
#                    (built here with FUZZ_BUILD=only, then copied there
#                    with build-fuzz/ and tests/fuzz/).
# A corpus left in build-fuzz/<harness>.corpus from an earlier run is kept
# and grown, so a run can continue where another stopped.
set -u
SECONDS_EACH=${1:-60}
[ -n "$SECONDS_EACH" ] || SECONDS_EACH=60
JOBS=${FUZZ_JOBS:-1}
BUILD_MODE=${FUZZ_BUILD:-yes}
OUT=build-fuzz
mkdir -p "$OUT"
# Each harness links only the layers and libraries it tests: the link
# sets are the Makefile's FUZZ_LAYERS_* / FUZZ_LIBS_* (`make fuzzers`).
FUZZ_MAKE="BUILD=$OUT/lib CC=clang FUZZ_ENGINE=-fsanitize=fuzzer"
# UBSan without its alignment, null and pointer-overflow checks: the
# coverage instrumentation traces every comparison those checks add (a
# call into libFuzzer each), which was 70% of the SPIR-V harnesses' time
# (slow-unit-11s 28 s -> 6.8 s without them, 2026-12-01); ASan still
# catches a null or out-of-bounds access, and `make asan` (full UBSan)
# replays every regression input (test_fuzz_regressions).
FUZZ_CFLAGS="-O1 -g -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize=alignment,null,pointer-overflow -fno-omit-frame-pointer"
# make does not see a change of flags: objects built with others go
if [ "$BUILD_MODE" != no ] && [ "$(cat "$OUT/lib/.cflags" 2>/dev/null)" != "$FUZZ_CFLAGS" ]; then
    rm -rf "$OUT/lib"
    mkdir -p "$OUT/lib"
    printf '%s\n' "$FUZZ_CFLAGS" > "$OUT/lib/.cflags"
fi

selected() {
    [ -z "${FUZZ_ONLY:-}" ] && return 0
    case " $FUZZ_ONLY " in *" $1 "*) return 0 ;; esac
    return 1
}

build_one() {
    # shellcheck disable=SC2086
    make --no-print-directory $FUZZ_MAKE CFLAGS="$FUZZ_CFLAGS" \
        EXTRA_LDFLAGS="-fsanitize=address,undefined" "$OUT/lib/fuzz/fuzz_$1" >/dev/null
}

# run_one NAME: fuzzes one harness for SECONDS_EACH seconds and writes its
# table row to $OUT/fuzz_NAME.row (0 in $OUT/fuzz_NAME.rc when clean).
run_one() {
    name=fuzz_$1
    bin="$OUT/lib/fuzz/$name"
    corpus="$OUT/$name.corpus"
    mkdir -p "$corpus" "$OUT/$name.crashes"
    base=${1%_mut}   # the structure-aware SPIR-V harnesses share spirv's seeds
    base=${base%_sem}
    for extra in "tests/fuzz/seeds/$base" "tests/fuzz/regressions/$base"; do
        [ -d "$extra" ] && cp -r "$extra"/. "$corpus"/ 2>/dev/null
    done
    log="$OUT/$name.log"
    t0=$(date +%s)
    # earlier finds stay, uncounted; slow-unit-* files are reports, not crashes
    before=$(ls "$OUT/$name.crashes" | grep -vc '^slow-unit-')
    # Per-input timeout: the instrumentation slows the SPIR-V evaluator's
    # interpreter loop and the traffic simulation ~20x.  The slowest
    # inputs, three regression seeds, took 84-86 and 50 s here at 2746713
    # (1.5-2.0 s in the release build), over the 60 s limit; since the
    # evaluator's and cache simulator's speed-ups and the UBSan checks
    # above, 6.7-6.8 and 15 s (0.35-1.3 s release; docs/reliability.md,
    # "The slow SPIR-V inputs"): 60 s again, four times the slowest.  A
    # real hang still never finishes.
    case $name in fuzz_spirv*) tmo=60 ;; *) tmo=10 ;; esac
    ASAN_OPTIONS=detect_leaks=1 "$bin" "$corpus" -max_total_time="$SECONDS_EACH" \
        -artifact_prefix="$OUT/$name.crashes/" -rss_limit_mb=2048 -timeout="$tmo" -print_final_stats=1 \
        > "$log" 2>&1
    rc=$?
    took=$(( $(date +%s) - t0 ))   # less than asked when a crash stops it
    execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$')
    [ -n "$execs" ] || execs=$(grep -Eo '#[0-9]+' "$log" | tail -n 1 | tr -d '#')
    crashes=$(( $(ls "$OUT/$name.crashes" | grep -vc '^slow-unit-') - before ))
    printf '%-16s %10s %12s %8s\n' "$1" "$took" "${execs:-?}" "$crashes" > "$OUT/$name.row"
    if [ "$rc" -eq 0 ] && [ "$crashes" -eq 0 ]; then echo 0; else echo 1; fi > "$OUT/$name.rc"
}

names=""
for src in tests/fuzz/fuzz_*.c; do
    n=$(basename "$src" .c)
    n=${n#fuzz_}
    selected "$n" && names="$names $n"
done

status=0
built=""
for n in $names; do
    if [ "$BUILD_MODE" = no ]; then
        [ -x "$OUT/lib/fuzz/fuzz_$n" ] || { echo "run.sh: $OUT/lib/fuzz/fuzz_$n: not built" >&2; status=1; continue; }
    elif ! build_one "$n"; then
        echo "run.sh: fuzz_$n: build failed" >&2; status=1; continue
    fi
    built="$built $n"
done
[ "$BUILD_MODE" = only ] && exit $status

running=0
for n in $built; do
    rm -f "$OUT/fuzz_$n.row" "$OUT/fuzz_$n.rc"
    if [ "$JOBS" -le 1 ]; then
        run_one "$n"
        continue
    fi
    if [ "$running" -ge "$JOBS" ]; then wait; running=0; fi
    run_one "$n" &
    running=$((running + 1))
done
wait

printf '%-16s %10s %12s %8s\n' harness seconds executions crashes
for n in $built; do
    if [ -f "$OUT/fuzz_$n.row" ]; then cat "$OUT/fuzz_$n.row"; else printf '%-16s %10s\n' "$n" "no result"; fi
    [ "$(cat "$OUT/fuzz_$n.rc" 2>/dev/null)" = 0 ] || status=1
done
exit $status
