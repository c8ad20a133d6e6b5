#!/bin/sh
# Output that must not hang, lie about its format, die of a signal or let
# a name forge lines (issue 17, second attack round):
#   - `-o FIFO` with no reader: exit 2 at once naming the FIFO (the open
#     blocked forever); with a reader the report goes through it;
#   - `tui FIFO`: exit 2 at once (sniffing it for a report blocked forever);
#   - `diff --format csv|sarif`: exit 2 (a table was written in their place);
#   - a reader that goes away (`| head`, `| true`): exit 2 "Broken pipe", never
#     SIGPIPE (141), for check, run, diff and merge;
#   - a newline in a kernel name, shader path or device name: written as
#     \x0a in the table, its findings, diff's table, merge's table and on
#     stderr, so no line of the output can be forged (CSV quotes it, JSON
#     and SARIF escape it).
set -u
. "$(dirname "$0")/../lib.sh"
test_tmpdir
saxpy_small_plan "$T/plan.json"
mkfifo "$T/fifo" || fail "mkfifo"

timeout 20 "$CW" check -o "$T/fifo" "$T/plan.json" > /dev/null 2> "$T/err"; rc=$?
[ $rc -eq 2 ] || fail "-o FIFO with no reader: exit $rc, want 2 (124: it blocked)"
grep -q "no process reads this FIFO" "$T/err" || fail "-o FIFO: message: $(cat "$T/err")"
timeout 20 cat "$T/fifo" > "$T/got" &
reader=$!
timeout 20 "$CW" check --format json -o "$T/fifo" "$T/plan.json" > /dev/null 2> "$T/err"; rc=$?
wait $reader
[ $rc -eq 0 ] || fail "-o FIFO with a reader: exit $rc: $(cat "$T/err")"
python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$T/got" || fail "-o FIFO: the reader got no report"
timeout 20 "$CW" tui --snapshot main "$T/fifo" > /dev/null 2> "$T/err"; rc=$?
[ $rc -eq 2 ] || fail "tui FIFO: exit $rc, want 2 (124: it blocked)"
grep -q "FIFO" "$T/err" || fail "tui FIFO: message: $(cat "$T/err")"
echo "ok: -o FIFO and tui FIFO never block"

"$CW" check --format json -o "$T/a.json" "$T/plan.json" > /dev/null 2>&1 || fail "check"
for f in csv sarif; do
    "$CW" diff --format $f "$T/a.json" "$T/a.json" > "$T/out" 2> "$T/err"; rc=$?
    [ $rc -eq 2 ] || fail "diff --format $f: exit $rc, want 2: $(head -c 200 "$T/out")"
    grep -q "diff writes --format table or json, not '$f'" "$T/err" || fail "diff --format $f: $(cat "$T/err")"
done
"$CW" diff --format json "$T/a.json" "$T/a.json" > "$T/out" || fail "diff --format json"
echo "ok: diff refuses the formats it does not write"

# more than a pipe's 64 KiB, so the writer meets the closed pipe
python3 - "$T/plan.json" "$T/big.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
p["kernels"] = [dict(p["kernels"][0], name="k%d" % i) for i in range(1000)]
json.dump(p, open(sys.argv[2], "w"))
PY
"$CW" check --format json -o "$T/big.out.json" "$T/big.json" > /dev/null 2>&1 || fail "check of the big plan"
# closed_reader WHAT CMD...: stdout into a pipe whose reader has gone (it
# exits at once; the report comes after the plan is compiled and run)
closed_reader() {
    what=$1; shift
    rc=$( { timeout 60 "$@" 2> "$T/err"; echo $? > "$T/rc"; } | true; cat "$T/rc")
    [ "$rc" -eq 2 ] || fail "$what into a closed pipe: exit $rc, want 2 (141: SIGPIPE)"
    grep -q "Broken pipe" "$T/err" || fail "$what into a closed pipe: $(cat "$T/err")"
}
closed_reader "check" "$CW" check --format json -o - "$T/big.json"
closed_reader "check table" "$CW" check "$T/big.json"
closed_reader "diff" "$CW" diff --format json "$T/big.out.json" "$T/big.out.json"
closed_reader "merge" "$CW" merge --format json "$T/big.out.json"
python3 -c "import json,sys; p=json.load(open(sys.argv[1])); p['kernels'] = p['kernels'][:8]; json.dump(p, open(sys.argv[2], 'w'))" \
    "$T/big.json" "$T/run8.json"
# the supervised child writes the report: its EPIPE is the run's exit 2
closed_reader "run" "$CW" run --samples 2 --warmup 1 --format json -o - "$T/run8.json"
echo "ok: a reader that goes away: exit 2 'Broken pipe', not SIGPIPE"

python3 - "$T/plan.json" "$T/nl.json" <<'PY'
import json, sys, shutil, os
p = json.load(open(sys.argv[1]))
k = p["kernels"][0]
nl = os.path.join(os.path.dirname(sys.argv[2]), "sha\nder.comp")
shutil.copy(k["shader"], nl)
k["shader"] = nl
k["name"] = "a\n  error   FORGED [spirv-invalid]\nb"
json.dump(p, open(sys.argv[2], "w"))
PY
forged() { grep -q "^  error   FORGED\|^der.comp" "$1"; }
"$CW" check "$T/nl.json" > "$T/out" 2> "$T/err" || fail "check of the newline plan"
forged "$T/out" && fail "a newline in a name forged a line of the table: $(cat "$T/out")"
grep -qF 'a\x0a  error   FORGED [spirv-invalid]\x0ab:' "$T/out" || fail "name not shown escaped: $(cat "$T/out")"
grep -qF 'sha\x0ader.comp:' "$T/out" || fail "shader path not shown escaped: $(cat "$T/out")"
"$CW" run --samples 2 --warmup 1 --format json -o "$T/nl.out.json" "$T/nl.json" > /dev/null 2> "$T/err"
forged "$T/err" && fail "a newline in a name forged a line on stderr"
python3 - "$T/nl.out.json" "$T/nldev.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert r["kernels"][0]["name"].startswith("a\n"), "JSON keeps the exact name"
r["device"]["name"] = "GPU\n  error   FORGED [spirv-invalid]"
json.dump(r, open(sys.argv[2], "w"))
PY
"$CW" diff "$T/nldev.json" "$T/nl.out.json" > "$T/out" 2> "$T/err"
forged "$T/out" && fail "diff: a newline forged a line: $(cat "$T/out")"
forged "$T/err" && fail "diff: a newline forged a line on stderr: $(cat "$T/err")"
"$CW" merge "$T/nldev.json" > "$T/out" 2> "$T/err"
forged "$T/out" && fail "merge: a newline forged a line: $(cat "$T/out")"
grep -qF 'device: GPU\x0a' "$T/out" || fail "merge: device name not escaped: $(cat "$T/out")"
echo "ok: a newline in a name, path or device name is written as \\x0a in every table and on stderr"

# negative amounts in a report read by diff (times were refused already):
# flops, bytes, samples, invocations, a counter, the machine load, the ratio
python3 - "$T/nl.out.json" "$T" <<'PY'
import json, sys, copy
r = json.load(open(sys.argv[1]))
k = r["kernels"][0]
assert k["measurement"].get("median_us"), "the run measured the kernel"
edits = {
    "flops": lambda k: k["prediction"].__setitem__("flops", -1),
    "bytes": lambda k: k["prediction"].__setitem__("bytes", -1),
    "samples": lambda k: k["measurement"].__setitem__("samples", -1),
    "invocations": lambda k: k["measurement"].__setitem__("invocations", -1),
    "value": lambda k: k["measurement"]["counters"].__setitem__("task-clock", {"value": -1, "available": True}),
    "others_cpus": lambda k: k["measurement"]["machine_load"].__setitem__("others_cpus", -1),
    "ratio": lambda k: k["divergence"].__setitem__("ratio", -1),
}
for key, edit in edits.items():
    x = copy.deepcopy(r)
    edit(x["kernels"][0])
    json.dump(x, open("%s/neg_%s.json" % (sys.argv[2], key), "w"))
PY
for key in flops bytes samples invocations value others_cpus ratio; do
    "$CW" diff "$T/nl.out.json" "$T/neg_$key.json" > /dev/null 2> "$T/err"; rc=$?
    [ $rc -eq 2 ] || fail "negative '$key' in a report: exit $rc, want 2"
    grep -q "'$key' is negative (-1): an amount cannot be negative" "$T/err" || fail "negative $key: $(cat "$T/err")"
done
"$CW" diff "$T/nl.out.json" "$T/nl.out.json" > /dev/null || fail "the unedited report no longer reads"
echo "ok: negative amounts in a report are input errors (exit 2), naming the key"
