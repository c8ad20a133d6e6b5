#!/bin/sh
# make fuzz [FUZZ_SECONDS=N]: build every tests/fuzz/fuzz_*.c with libFuzzer,
# ASan and UBSan (clang), then run each for N seconds (default 60) on a copy
# of its seed corpus.  Crashes are left in build-fuzz/<harness>/crash-*;
# turn each into a regression input under tests/fuzz/regressions/<harness>/.
# FUZZ_ONLY="plan spirv_mut" runs only those harnesses (two shells can then
# share the cores); the table goes to stdout and build-fuzz/<harness>.log.
set -u
SECONDS_EACH=${1:-60}
[ -n "$SECONDS_EACH" ] || SECONDS_EACH=60
OUT=build-fuzz
mkdir -p "$OUT"
# Each harness links only the layers and libraries it tests: the link
# sets are the Makefile's FUZZ_LAYERS_* / FUZZ_LIBS_* (`make fuzzers`).
FUZZ_MAKE="BUILD=$OUT/lib CC=clang FUZZ_ENGINE=-fsanitize=fuzzer"
FUZZ_CFLAGS="-O1 -g -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer"
status=0
printf '%-16s %10s %12s %8s\n' harness seconds executions crashes
for src in tests/fuzz/fuzz_*.c; do
    name=$(basename "$src" .c)
    if [ -n "${FUZZ_ONLY:-}" ]; then
        case " $FUZZ_ONLY " in *" ${name#fuzz_} "*) ;; *) continue ;; esac
    fi
    bin="$OUT/lib/fuzz/$name"
    # shellcheck disable=SC2086
    make --no-print-directory $FUZZ_MAKE CFLAGS="$FUZZ_CFLAGS" \
        EXTRA_LDFLAGS="-fsanitize=address,undefined" "$bin" >/dev/null || { status=1; continue; }
    corpus="$OUT/$name.corpus"
    mkdir -p "$corpus" "$OUT/$name.crashes"
    base=${name#fuzz_}
    base=${base%_mut}   # the structure-aware SPIR-V harnesses share spirv's seeds
    base=${base%_sem}
    seeds="tests/fuzz/seeds/$base"
    [ -d "$seeds" ] && cp -r "$seeds"/. "$corpus"/ 2>/dev/null
    regress="tests/fuzz/regressions/$base"
    [ -d "$regress" ] && cp -r "$regress"/. "$corpus"/ 2>/dev/null
    log="$OUT/$name.log"
    t0=$(date +%s)
    # earlier finds stay, uncounted; slow-unit-* files are reports, not crashes
    before=$(ls "$OUT/$name.crashes" | grep -vc '^slow-unit-')
    # Per-input timeout: the coverage instrumentation slows the SPIR-V
    # evaluator's interpreter loop ~40x (0.7 s in the release build = 27 s
    # here), so those harnesses get 60 s; a real hang still never finishes.
    case $name in fuzz_spirv*) tmo=60 ;; *) tmo=10 ;; esac
    ASAN_OPTIONS=detect_leaks=1 "$bin" "$corpus" -max_total_time="$SECONDS_EACH" \
        -artifact_prefix="$OUT/$name.crashes/" -rss_limit_mb=2048 -timeout="$tmo" -print_final_stats=1 \
        > "$log" 2>&1
    rc=$?
    took=$(( $(date +%s) - t0 ))   # less than asked when a crash stops it
    execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$')
    [ -n "$execs" ] || execs=$(grep -Eo '#[0-9]+' "$log" | tail -n 1 | tr -d '#')
    crashes=$(( $(ls "$OUT/$name.crashes" | grep -vc '^slow-unit-') - before ))
    printf '%-16s %10s %12s %8s\n' "${name#fuzz_}" "$took" "${execs:-?}" "$crashes"
    [ "$rc" -eq 0 ] && [ "$crashes" -eq 0 ] || status=1
done
exit $status
