#!/bin/sh
# run --dump keeps every kernel's buffers, one folder per kernel (and per
# plan with several plans; a second kernel of the same name apart); the
# buffers hold what the kernels computed, push constants given by index
# for an optimised module without member names (glslc -O).  Progress
# (==PROF== lines) on stderr only when it is a terminal and -q is not
# given.
set -u
. "$(dirname "$0")/../lib.sh"
test_tmpdir
trap 'rm -rf "$T"; [ -n "${TM:-}" ] && $TM kill-server 2>/dev/null' EXIT INT TERM
command -v glslc >/dev/null || fail "glslc missing (make deps)"
export CW_LOAD_IGNORE=1

mkdir -p "$T/a" "$T/b"
cp "$ROOT/examples/kernels/saxpy.comp" "$T/a/"
glslc -O "$ROOT/examples/kernels/saxpy.comp" -o "$T/a/saxpy_O.spv" || fail "glslc -O"
# ---- optimised SPIR-V: names rejected with the way out, index and offset accepted ----
plan() { # plan FILE PUSH NAME2
    cat > "$1" <<JSON
{"kernels": [
  {"name": "saxpy", "shader": "saxpy_O.spv", "workgroups": [4], "push": $2,
   "buffers": [{"binding": 0, "elements": 1024, "init": "ramp"}, {"binding": 1, "elements": 1024, "init": "zero"}]},
  {"name": "saxpy", "shader": "saxpy.comp", "workgroups": [4], "push": {"n": 1024, "alpha": 3.0},
   "buffers": [{"binding": 0, "elements": 1024, "init": "ramp"}, {"binding": 1, "elements": 1024, "init": "zero"}]},
  {"name": "$3", "shader": "saxpy.comp", "workgroups": [4], "push": {"n": 1024, "alpha": 0.5},
   "buffers": [{"binding": 0, "elements": 1024, "init": "ramp"}, {"binding": 1, "elements": 1024, "init": "zero"}]}
]}
JSON
}
plan "$T/a/names.json" '{"n": 1024, "alpha": 2.0}' half
"$CW" check "$T/a/names.json" > "$T/names.out" 2>&1; rc=$?
[ $rc -eq 1 ] || fail "names on a stripped module: exit $rc, want 1 (error finding)"
grep -q "carries no member names" "$T/names.out" || fail "no 'carries no member names': $(cat "$T/names.out")"
grep -q '"0" or "@0" (uint), "1" or "@4" (float)' "$T/names.out" || fail "the hint does not say what to write"
grep -q "did you mean ''" "$T/names.out" && fail "an empty suggestion"
plan "$T/a/offset.json" '{"@0": 1024, "@4": 2.0}' half
"$CW" check "$T/a/offset.json" > "$T/off.out" 2>&1; rc=$?
[ $rc -eq 0 ] || fail "byte offsets: exit $rc: $(cat "$T/off.out")"
plan "$T/a/plan.json" '{"0": 1024, "1": 2.0}' half
cp "$T/a/plan.json" "$T/b/plan.json"; cp "$T/a/saxpy.comp" "$T/a/saxpy_O.spv" "$T/b/"
sed -i 's/"half"/"quarter"/; s/"alpha": 0.5/"alpha": 0.25/' "$T/b/plan.json"

# ---- --dump: one folder per kernel ----
"$CW" run -q --samples 2 --budget 0.1 --dump "$T/d1" "$T/a/plan.json" > /dev/null 2> "$T/err"; rc=$?
[ $rc -eq 0 ] || [ $rc -eq 3 ] || fail "run --dump exit $rc: $(cat "$T/err")"
for f in saxpy/binding-0-1.bin saxpy.2/binding-0-1.bin half/binding-0-1.bin; do
    [ -s "$T/d1/$f" ] || fail "--dump: $f missing ($(cd "$T/d1" && find . -type f | tr '\n' ' '))"
done
python3 - "$T/d1" <<'PY' || fail "dumped values"
import struct, sys
d = sys.argv[1]
for sub, alpha in (("saxpy", 2.0), ("saxpy.2", 3.0), ("half", 0.5)):
    y = struct.unpack("<1024f", open(f"{d}/{sub}/binding-0-1.bin", "rb").read())
    # y = alpha * x + y, with x = ramp and y = 0 before the first of the samples; every
    # sample adds again, so y[i] = k * alpha * i for the number k of dispatches
    k = y[1] / alpha
    assert k >= 1 and abs(k - round(k)) < 1e-3, (sub, y[:4])
    for i in (0, 5, 1023):
        assert abs(y[i] - k * alpha * i) <= 1e-3 * max(1, k * alpha * i), (sub, i, y[i])
print("dumped values ok")
PY
# two plans: a folder per plan, named apart
"$CW" run -q --samples 2 --budget 0.1 --dump "$T/d2" "$T/a/plan.json" "$T/b/plan.json" > /dev/null 2> "$T/err"
for f in a-plan/saxpy a-plan/saxpy.2 a-plan/half b-plan/saxpy b-plan/saxpy.2 b-plan/quarter; do
    [ -s "$T/d2/$f/binding-0-1.bin" ] || fail "--dump, two plans: $f missing ($(cd "$T/d2" && find . -type f | tr '\n' ' '))"
done
echo "ok: --dump keeps every kernel's buffers"

# ---- progress: not on a pipe or a file ----
"$CW" run --samples 2 --budget 0.1 "$T/a/plan.json" > /dev/null 2> "$T/err"
grep -q "==PROF==" "$T/err" && fail "progress written to a file"
# on a terminal (tmux): kernel i of N and samples; none with -q
command -v tmux >/dev/null || fail "tmux missing (make deps)"
TM="tmux -L cwdump-$$ -f /dev/null"
$TM new-session -d -s p -x 120 -y 20 "sh -c '\"$CW\" run --samples 3 --budget 0.2 \"$T/a/plan.json\" > \"$T/out1\"; echo EXIT-\$?; \"$CW\" run -q --samples 3 --budget 0.2 \"$T/a/plan.json\" > \"$T/out2\"; echo QUIET-\$?; sleep 60'"
i=0
while ! $TM capture-pane -p -t p | grep -q "QUIET-"; do
    sleep 0.2; i=$((i + 1)); [ $i -lt 600 ] || fail "progress: the runs did not finish"
done
screen=$($TM capture-pane -p -t p)
printf '%s\n' "$screen" | grep -Eq '^==PROF== \[1/3\] saxpy: [0-9]+ samples, median [0-9.]+ (µs|ms|s)' ||
    fail "progress: no line for kernel 1 of 3: $screen"
printf '%s\n' "$screen" | grep -Eq '^==PROF== \[3/3\] half: ' || fail "progress: no line for kernel 3 of 3"
n=$(printf '%s\n' "$screen" | grep -c '==PROF==')
[ "$n" -eq 3 ] || fail "progress: $n lines, want 3 (one per kernel; -q adds none): $screen"
grep -q "==PROF==" "$T/out1" && fail "progress on stdout"
echo "ok: progress on a terminal's stderr only"
echo "ok"
