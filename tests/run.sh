#!/bin/sh
# Run the whole suite: every cmocka unit test binary in BUILD/tests, then
# every integration script in tests/integration (each gets CW=BUILD/clockwork).
# Prints one line per test program and a closing "N passed, N failed".
BUILD=${1:-build}
CW="$(cd "$(dirname "$BUILD/clockwork")" && pwd)/clockwork"
export CW BUILD
export CW_TEST_ROOT="$(pwd)"
# Tests must not depend on the user's profile cache, colours or locale.
export XDG_CACHE_HOME="$(mktemp -d)"
export XDG_CONFIG_HOME="$(mktemp -d)"
pass=0; fail=0; failed=""
for t in "$BUILD"/tests/test_*; do
    [ -x "$t" ] || continue
    if "$t" > "$t.log" 2>&1; then
        pass=$((pass + 1)); echo "PASS  unit/$(basename "$t")"
    else
        fail=$((fail + 1)); failed="$failed $(basename "$t")"
        echo "FAIL  unit/$(basename "$t")"; tail -n 30 "$t.log"
    fi
done
for t in tests/integration/*.sh; do
    [ -f "$t" ] || continue
    log="$BUILD/tests/$(basename "$t").log"
    mkdir -p "$BUILD/tests"
    if sh "$t" > "$log" 2>&1; then
        pass=$((pass + 1)); echo "PASS  integration/$(basename "$t")"
    else
        fail=$((fail + 1)); failed="$failed $(basename "$t")"
        echo "FAIL  integration/$(basename "$t")"; tail -n 30 "$log"
    fi
done
rm -rf "$XDG_CACHE_HOME" "$XDG_CONFIG_HOME"
[ -n "$failed" ] && echo "failed:$failed"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
