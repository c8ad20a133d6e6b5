#!/bin/sh
# The command-line contract: help, version, exit codes, plan errors naming
# file:line:column, report writing that never loses the previous report.
. "$(dirname "$0")/../lib.sh"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT

expect_rc 0 "$CW" --version
expect_out "clockwork " "$CW" --version
for c in check run tui devices calibrate diff; do
    expect_rc 0 "$CW" $c --help
    expect_out "usage: clockwork $c" "$CW" $c --help
done
expect_rc 2 "$CW" --bogus
expect_err "unknown option '--bogus'" "$CW" check --bogus examples/plan.json
expect_rc 2 "$CW" chek examples/plan.json
expect_err "did you mean 'check'" "$CW" chek examples/plan.json
expect_rc 2 "$CW" check
expect_rc 2 "$CW" run --samples abc examples/plan.json
expect_rc 2 "$CW" check --format xml examples/plan.json

# Every plan error: exit 2 and a message naming the file and the problem.
while IFS='|' read -r name text needle; do
    [ -z "$name" ] && continue
    printf '%s' "$text" > "$T/$name.json"
    cp -r examples/kernels "$T/" 2>/dev/null
    expect_rc 2 "$CW" check "$T/$name.json"
    expect_err "$T/$name.json:" "$CW" check "$T/$name.json"
    expect_err "$needle" "$CW" check "$T/$name.json"
done <<'CASES'
syntax|{"kernels": [|invalid JSON
unknown_key|{"kernels": [{"name": "a", "shader": "kernels/saxpy.comp", "workgroup": [1]}]}|did you mean 'workgroups'
wrong_type|{"kernels": [{"name": "a", "shader": "kernels/saxpy.comp", "workgroups": "4"}]}|array of 1 to 3 integers
negative|{"kernels": [{"name": "a", "shader": "kernels/saxpy.comp", "workgroups": [1], "buffers": [{"binding": 0, "elements": -1}]}]}|must not be negative
missing_file|{"kernels": [{"name": "a", "shader": "kernels/none.comp", "workgroups": [1]}]}|not found
empty|{"kernels": []}|kernel list is empty
CASES

# A plan that loads but whose shader does not compile: exit 2, the other
# kernels still analysed, the JSON report lists spirv-invalid.
cp -r examples/kernels "$T/"
printf '#version 450\nlayout(local_size_x = 1) in;\nvoid main() { undeclared = 1; }\n' > "$T/kernels/bad.comp"
cat > "$T/two.json" <<'P'
{"kernels": [
  {"name": "bad", "shader": "kernels/bad.comp", "workgroups": [1]},
  {"name": "saxpy", "shader": "kernels/saxpy.comp", "workgroups": [4], "push": {"n": 1000, "alpha": 2},
   "buffers": [{"binding": 0, "elements": 1000}, {"binding": 1, "elements": 1000}]}
]}
P
expect_rc 2 "$CW" check --format json "$T/two.json"
"$CW" check --format json "$T/two.json" > "$T/two.out" 2>/dev/null
grep -q '"spirv-invalid"' "$T/two.out" || fail "no spirv-invalid finding"
grep -q 'bad.comp' "$T/two.out" || fail "finding does not name the shader"
grep -q '"name": "saxpy"' "$T/two.out" || fail "other kernel not analysed"

# Unknown entry point: an input error.
sed 's/"workgroups": \[1\]}/"workgroups": [1], "entry": "nope"}/' "$T/two.json" > "$T/entry.json"
cat > "$T/entry.json" <<'P'
{"kernels": [{"name": "saxpy", "shader": "kernels/saxpy.comp", "entry": "nope", "workgroups": [4],
  "push": {"n": 1000, "alpha": 2}, "buffers": [{"binding": 0, "elements": 1000}, {"binding": 1, "elements": 1000}]}]}
P
expect_rc 2 "$CW" check "$T/entry.json"
expect_out "entry-point-missing" "$CW" check "$T/entry.json"

# Reports: written atomically; a failed write keeps the previous report.

"$CW" check -o "$T/r.json" "$T/two.json" 2>/dev/null
[ -s "$T/r.json" ] || fail "no report written"
python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$T/r.json" || fail "report is not JSON"
cp "$T/r.json" "$T/r.before"
( trap '' XFSZ; ulimit -f 1; "$CW" check -o "$T/r.json" "$T/two.json" ) 2> "$T/err"
grep -q "cannot write the report" "$T/err" || fail "no clear error on a full disk: $(cat "$T/err")"
cmp -s "$T/r.json" "$T/r.before" || fail "previous report damaged"
ls "$T" | grep -q '\.tmp\.' && fail "temporary file left behind"
expect_rc 2 "$CW" check -o /proc/cw-no-such/r.json "$T/two.json"
expect_rc 2 "$CW" check -o /dev/full "$T/two.json"
expect_err "No space left" "$CW" check -o /dev/full "$T/two.json"
pass
