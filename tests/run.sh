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
# Under `make asan`, CW_SANITIZER_LOG is the sanitizers' log_path: a report
# from any process of a test (SANITIZER_LOG.PID with an ERROR or a runtime
# error) fails that test, even one whose exit status or stderr it hid.
sanitizer_clear() { [ -n "${CW_SANITIZER_LOG:-}" ] && rm -f "$CW_SANITIZER_LOG".*; return 0; }
sanitizer_reported() {
    [ -n "${CW_SANITIZER_LOG:-}" ] || return 1
    found=1
    for f in "$CW_SANITIZER_LOG".*; do
        [ -f "$f" ] || continue
        if grep -q "ERROR: \|runtime error:" "$f"; then
            echo "sanitizer report ($f):"; head -n 40 "$f"; found=0
        fi
    done
    return $found
}
# run_one KIND LOG CMD...: runs one test program with its output in LOG,
# counts it and prints its line (and the log's tail when it failed).
run_one() {
    kind=$1 log=$2; shift 2
    name=$(basename "$log" .log)
    sanitizer_clear
    if "$@" > "$log" 2>&1 && ! sanitizer_reported > /dev/null; then
        pass=$((pass + 1)); echo "PASS  $kind/$name"
    else
        fail=$((fail + 1)); failed="$failed $name"
        echo "FAIL  $kind/$name"
        # the failed checks by name (a long log's tail can miss them), then the tail
        grep -E '^(FAIL|not ok|\[  FAILED  \]|\[  ERROR   \])' "$log" | head -n 20 |
            sed 's/^/  failed check: /'
        tail -n 30 "$log"
        sanitizer_reported
    fi
}
for t in "$BUILD"/tests/test_*; do
    [ -x "$t" ] && run_one unit "$t.log" "$t"
done
mkdir -p "$BUILD/tests"
for t in tests/integration/*.sh; do
    [ -f "$t" ] && run_one integration "$BUILD/tests/$(basename "$t").log" sh "$t"
done
rm -rf "$XDG_CACHE_HOME" "$XDG_CONFIG_HOME"
[ -n "$failed" ] && echo "failed:$failed"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
