#!/bin/sh
# The CLI under valgrind memcheck: check on the examples (GLSL compiled,
# every kernel evaluated and modelled), check on a plan with an error, on a
# SPIR-V file that is not SPIR-V, diff of two reports, and devices (the
# Vulkan loader and lavapipe).  Any memcheck error or definite leak fails
# (--error-exitcode=9).  tests/valgrind.supp suppresses frames inside
# system libraries only.  Skipped for sanitizer builds (valgrind cannot run
# an ASan binary); `make asan` covers those.
set -u
fail() { echo "FAIL: $*"; exit 1; }
: "${CW:?}"
ROOT=${CW_TEST_ROOT:-$(pwd)}
if grep -q __asan_init "$CW"; then
    echo "valgrind: skipped (sanitizer build)"
    exit 0
fi
command -v valgrind > /dev/null || fail "valgrind missing (make deps)"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
VG="valgrind -q --error-exitcode=9 --leak-check=full --errors-for-leak-kinds=definite
    --suppressions=$ROOT/tests/valgrind.supp"
# check needs no device: leave the ICD out where it is not the point
NOICD="env VK_DRIVER_FILES=/nonexistent VK_ICD_FILENAMES=/nonexistent"

# vg WANT NAME CMD...: run under valgrind, expect exit WANT (never 9)
vg() {
    want=$1 name=$2
    shift 2
    "$@" > "$T/$name.out" 2> "$T/$name.err"; rc=$?
    if [ $rc -eq 9 ]; then
        cat "$T/$name.err"
        fail "$name: memcheck errors or definite leaks"
    fi
    [ $rc -eq "$want" ] || { tail -n 20 "$T/$name.err"; fail "$name: exit $rc, want $want"; }
    grep -q "==[0-9]*== " "$T/$name.err" && { cat "$T/$name.err"; fail "$name: valgrind reported"; }
    echo "ok: $name"
}

# the examples: saxpy_noguard has its deliberate out-of-bounds (exit 1)
(cd "$ROOT/examples" && $NOICD $VG "$CW" check --profile h200 plan.json) \
    > "$T/ex.out" 2> "$T/ex.err"; rc=$?
[ $rc -eq 9 ] && { cat "$T/ex.err"; fail "check examples: memcheck errors or definite leaks"; }
[ $rc -eq 1 ] || { tail -n 20 "$T/ex.err"; fail "check examples: exit $rc, want 1"; }
grep -q "out-of-bounds" "$T/ex.out" || fail "check examples: no finding"
echo "ok: check examples"

printf '{"kernels": [{"name": "a", "shader": "x.comp", "workgroups": [1, 1, 1],\n  "buffers": [}]}\n' \
    > "$T/bad.json"
vg 2 "plan error" $NOICD $VG "$CW" check "$T/bad.json"
grep -q "bad.json:2" "$T/plan error.err" || fail "plan error: no position: $(cat "$T/plan error.err")"

head -c 64 /dev/urandom > "$T/junk.spv"
printf '{"kernels": [{"name": "j", "shader": "junk.spv", "workgroups": [1, 1, 1]}]}\n' > "$T/junk.json"
vg 2 "not SPIR-V" $NOICD $VG "$CW" check "$T/junk.json"

cat > "$T/one.json" <<J
{"kernels": [{"name": "saxpy", "shader": "$ROOT/examples/kernels/saxpy.comp",
  "workgroups": [4, 1, 1], "push": {"n": 1024, "alpha": 2.0},
  "buffers": [{"binding": 0, "elements": 1024}, {"binding": 1, "elements": 1024}]}]}
J
$NOICD "$CW" check --profile h200 --format json -o "$T/a.json" "$T/one.json" > /dev/null 2>&1 ||
    fail "report a"
sed 's/"time_us": \([0-9.]*\)/"time_us": 9\1/' "$T/a.json" > "$T/b.json"
vg 3 "diff (regression)" $VG "$CW" diff "$T/a.json" "$T/b.json"
vg 0 "diff (same)" $VG "$CW" diff "$T/a.json" "$T/a.json"
vg 0 "devices" $VG "$CW" devices
echo "valgrind: ok"
