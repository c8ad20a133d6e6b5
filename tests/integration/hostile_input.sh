#!/bin/sh
# Hostile input that must neither block, nor pollute stdout, nor drive the
# terminal (issue 17):
#   - a plan, theme, shader or profile that is a FIFO with no writer, a
#     directory or a device: exit 2 at once, saying what it is; a report
#     that is a directory says so; `diff <(...) <(...)` still reads pipes;
#   - an empty GLSL file, or one without #version: exit 2 with a message,
#     and `--format json -o -` puts exactly one JSON document on stdout
#     (glslang used to print ~4,550 lines of built-ins there);
#   - ESC, OSC, BEL, CR, C1 in a kernel name: escaped in the table, CSV,
#     stderr and diff output (JSON keeps them as \u escapes).
set -u
. "$(dirname "$0")/../lib.sh"
test_tmpdir
saxpy_small_plan "$T/plan.json"
mkfifo "$T/fifo" || fail "mkfifo"
# expect_refusal WHAT OUTPUT-PATTERN COMMAND...: exit 2 within the alarm
expect_refusal() {
    what=$1; pat=$2; shift 2
    timeout 20 "$@" > /dev/null 2> "$T/err"; rc=$?
    [ $rc -eq 2 ] || fail "$what: exit $rc, want 2 (124 = it blocked): $(cat "$T/err")"
    grep -q "$pat" "$T/err" || fail "$what: message: $(cat "$T/err")"
}
expect_refusal "FIFO plan" "the plan is a FIFO (named pipe), not a regular file" "$CW" check "$T/fifo"
expect_refusal "directory plan" "the plan is a directory" "$CW" check "$T"
expect_refusal "device plan" "the plan is a character device" "$CW" check /dev/null
expect_refusal "FIFO theme" "the theme file is a FIFO" "$CW" tui --theme "$T/fifo" "$T/plan.json"
expect_refusal "FIFO profile" "FIFO" "$CW" check --profile "$T/fifo" "$T/plan.json"
sed "s|$ROOT/examples/kernels/saxpy.comp|$T/fifo|" "$T/plan.json" > "$T/fifo_shader.json"
expect_refusal "FIFO shader" "is not a regular file" "$CW" check "$T/fifo_shader.json"
"$CW" check --format json -o "$T/a.json" "$T/plan.json" > /dev/null 2>&1 || fail "check of the plan"
expect_refusal "directory report" "the report is a directory" "$CW" diff "$T" "$T/a.json"
expect_refusal "FIFO report, no writer" "the report is empty" "$CW" diff "$T/fifo" "$T/a.json"
# a pipe with a writer (what `diff <(...) <(...)` gives) is read as a stream
cat "$T/a.json" | timeout 20 "$CW" diff /dev/stdin "$T/a.json" > "$T/out" 2>&1; rc=$?
[ $rc -eq 0 ] || fail "a pipe as a report: exit $rc: $(cat "$T/out")"
echo "ok: FIFOs, directories and devices as plan/theme/shader/profile/report never block (exit 2)"

# a UTF-8 byte order mark before a plan, a report or a profile (some editors
# write one) is skipped: the same result as without it, the report still
# recognised as a report by `tui`
printf '\357\273\277' > "$T/bom.json"; cat "$T/plan.json" >> "$T/bom.json"
"$CW" check --format json -o "$T/b.json" "$T/bom.json" > /dev/null 2> "$T/err" \
    || fail "a plan with a byte order mark: $(cat "$T/err")"
printf '\357\273\277' > "$T/bom_report.json"; cat "$T/a.json" >> "$T/bom_report.json"
"$CW" diff "$T/bom_report.json" "$T/a.json" > "$T/out" 2>&1 \
    || fail "a report with a byte order mark against itself without: $(cat "$T/out")"
printf '\357\273\277' > "$T/bom_profile.json"; cat "$ROOT/profiles/lavapipe.json" >> "$T/bom_profile.json"
"$CW" check --profile "$T/bom_profile.json" "$T/plan.json" > /dev/null 2> "$T/err"
[ $? -le 1 ] || fail "a profile with a byte order mark: $(cat "$T/err")"
echo "ok: a byte order mark before a plan, report or profile is skipped"

for src in empty noversion oldversion; do
    case $src in
    empty) : > "$T/s.comp" ;;
    noversion) printf 'layout(local_size_x = 1) in;\nvoid main() {}\n' > "$T/s.comp" ;;
    oldversion) printf '#version 110\nlayout(local_size_x = 1) in;\nvoid main() {}\n' > "$T/s.comp" ;;
    esac
    printf '{"kernels": [{"name": "k", "shader": "s.comp", "workgroups": [1, 1, 1]}]}\n' > "$T/s.json"
    timeout 60 "$CW" check --format json -o - "$T/s.json" > "$T/stdout" 2> "$T/err"; rc=$?
    [ $rc -eq 2 ] || fail "$src GLSL: exit $rc, want 2"
    python3 - "$T/stdout" "$src" <<'PY' || fail "$src GLSL: stdout is not one JSON document: $(head -c 300 "$T/stdout")"
import json, sys
r = json.load(open(sys.argv[1]))          # raises on anything but one document
m = r["kernels"][0]["findings"][0]["message"]
assert ("empty" in m) if sys.argv[2] == "empty" else ("#version" in m), m
PY
done
# on a terminal too (the TUI's case, where stdout is not muted): glslang
# printed ~4,550 lines of built-ins for #version 110 before failing
if command -v script > /dev/null; then
    script -q -e -c "$CW check --format json -o $T/old.json $T/s.json" "$T/ts" > /dev/null 2>&1
    grep -q "Unable to parse built-ins" "$T/ts" && fail "#version 110: glslang's built-ins reached the terminal"
    [ "$(wc -l < "$T/ts")" -lt 20 ] || fail "#version 110: $(wc -l < "$T/ts") lines on the terminal"
fi
echo "ok: empty GLSL / no #version / #version 110: exit 2, stdout is one JSON document"

python3 - "$T" <<'PY'
import json, sys
name = "evil\x1b]0;PWNED\x07\x1b[2J\rname\u009b31m"
json.dump({"kernels": [{"name": name, "kind": "cpu", "library": "libm.so.6", "symbol": "no_such",
           "args": {"n": 4}, "buffers": [{"bytes": 64}], "threads": 1}]},
          open(sys.argv[1] + "/evil.json", "w"))
PY
raw() { python3 -c "import sys; d=open(sys.argv[1],'rb').read(); sys.exit(1 if any(b in d for b in (b'\x1b', b'\x07', b'\r', b'\xc2\x9b')) else 0)" "$1"; }
for fmt in table csv; do
    "$CW" check --format $fmt "$T/evil.json" > "$T/out" 2> "$T/err"
    raw "$T/out" || fail "$fmt: a control character reached the output"
    raw "$T/err" || fail "$fmt: a control character reached stderr"
    grep -qF 'evil\x1b]0;PWNED\x07\x1b[2J\x0dname\u009b31m' "$T/out" || fail "$fmt: name not shown escaped: $(cat "$T/out")"
done
"$CW" run --format json -o "$T/evil.out.json" "$T/evil.json" > "$T/out" 2> "$T/err"
raw "$T/err" || fail "run: a control character reached stderr"
"$CW" diff "$T/evil.out.json" "$T/evil.out.json" > "$T/out" 2> "$T/err"
raw "$T/out" || fail "diff: a control character reached the output"
grep -qF 'evil\x1b' "$T/out" || fail "diff: name not shown escaped: $(cat "$T/out")"
python3 -c "import json,sys; assert json.load(open(sys.argv[1]))['kernels'][0]['name'].startswith('evil\x1b')" \
    "$T/evil.out.json" || fail "json: the name must be kept exactly"
echo "ok: control characters in names are escaped in table, CSV, stderr and diff; JSON keeps them"

# ---- messages that name the right thing ----
SAXPY="$ROOT/examples/kernels/saxpy.comp"
printf '{"kernels": [{"name": "k", "shader": "%s", "workgroups": [99999999999, 1, 1]}]}\n' "$SAXPY" > "$T/ws.json"
"$CW" check "$T/ws.json" > /dev/null 2> "$T/err"; rc=$?
[ $rc -eq 2 ] || fail "workgroups too large: exit $rc"
grep -q "'workgroups\[0\]' is too large: 99999999999" "$T/err" || fail "workgroups: $(cat "$T/err")"
printf '{"kernels": [{"name": "k", "shader": "%s", "workgroups": [4, 1, 1],\n "\\u0070ush": {"n": 1, "bogus\\u0041": 2}}]}\n' \
    "$SAXPY" > "$T/esc.json"
"$CW" check "$T/esc.json" > "$T/out" 2>&1
grep -q "esc.json:2: push constant 'bogusA' is not a member" "$T/out" ||
    fail "a key written with JSON escapes lost its line: $(grep bogus "$T/out")"
printf '{"kernels": [{"name": "k", "shader": "%s", "workgroups": [4, 1, 1], "push": {"n": 4, "alpha": 1.0},\n "buffers": [{"binding": 0, "elements": 4611686018427387904}, {"binding": 1, "elements": 4}]}]}\n' \
    "$SAXPY" > "$T/ov.json"
"$CW" check "$T/ov.json" > "$T/out" 2>&1; rc=$?
[ $rc -eq 2 ] || fail "elements x stride overflowing 64 bits: exit $rc, want 2: $(cat "$T/out")"
grep -q "4611686018427387904 elements of 4 bytes overflow 64 bits \[plan-invalid\]" "$T/out" ||
    fail "overflow: message: $(cat "$T/out")"
python3 - "$T/a.json" "$T/neg.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
r["kernels"][0]["prediction"]["time_us"] = -5
json.dump(r, open(sys.argv[2], "w"))
PY
"$CW" diff "$T/a.json" "$T/neg.json" > /dev/null 2> "$T/err"; rc=$?
[ $rc -eq 2 ] || fail "a negative time in a report: exit $rc, want 2"
grep -q "'time_us' is negative (-5): a time cannot be negative" "$T/err" || fail "negative time: $(cat "$T/err")"
echo "ok: workgroups[0] named, escaped keys keep their line, 64-bit size overflow and negative times are input errors (exit 2)"

# the ==PROF== progress lines (stderr on a terminal) escape the name too;
# script(1) records every byte the terminal got
if command -v script > /dev/null; then
    python3 - "$T" <<'PY'
import json, sys
json.dump({"kernels": [{"name": "evil\x1b]0;PWNED\x07\x1b[2J\rname", "kind": "cpu",
           "library": "libm.so.6", "symbol": "cos", "args": {"n": 4}, "buffers": [{"bytes": 64}],
           "threads": 1}]}, open(sys.argv[1] + "/evilrun.json", "w"))
PY
    script -q -e -c "$CW run --samples 3 --format json -o $T/evilrun.out $T/evilrun.json" \
        "$T/typescript" > /dev/null 2>&1
    grep -q '==PROF==' "$T/typescript" || fail "progress: no ==PROF== line on the terminal"
    python3 -c "import sys; d=open(sys.argv[1],'rb').read(); sys.exit(1 if (b'\x1b]0;PWNED' in d or b'\x07' in d) else 0)" \
        "$T/typescript" || fail "progress: a raw control sequence from the name reached the terminal"
    echo "ok: ==PROF== progress lines escape kernel names"
fi
