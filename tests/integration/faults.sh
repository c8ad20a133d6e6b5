#!/bin/sh
# Faults from the environment, each asserting the exit code, the message and
# that nothing was lost (the other kernels, the report, the previous report):
#   - a buffer larger than the device's memory heap (simulated with
#     CW_VK_HEAP_BYTES: lavapipe's heap is the host's RAM), and one beyond
#     maxStorageBufferRange;
#   - no Vulkan driver: check still works, run reports the static part and
#     exits 4;
#   - an event libpfm4 does not know: an input error (exit 2) naming it;
#     known events that cannot be opened: unavailable with the reason;
#   - an unwritable -o path and a full disk for run's report;
#   - run interrupted by SIGINT/SIGTERM/SIGHUP during a long kernel;
#   - a malformed calibrated profile in the cache: warned about, ignored,
#     rebuilt by calibrate.
# (Hangs: hang.sh.  Signals to the TUI: faults_tui.sh.)
set -u
. "$(dirname "$0")/../lib.sh"
test_tmpdir
SAXPY="$ROOT/examples/kernels/saxpy.comp"
RUN="--samples 2 --warmup 1"

# json_get FILE EXPR: print a Python expression over the report r
json_get() { python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print($2)" "$1"; }

# ---- a buffer larger than the device heap ----
cat > "$T/heap.json" <<J
{"kernels": [
 {"name": "saxpy_big", "shader": "$SAXPY", "workgroups": [32768, 1, 1],
  "push": {"n": 16777216, "alpha": 2.0},
  "buffers": [{"binding": 0, "elements": 16777216}, {"binding": 1, "elements": 16777216}]},
 {"name": "saxpy_small", "shader": "$SAXPY", "workgroups": [4, 1, 1],
  "push": {"n": 1024, "alpha": 2.0},
  "buffers": [{"binding": 0, "elements": 1024}, {"binding": 1, "elements": 1024}]}]}
J
CW_VK_HEAP_BYTES=16777216 "$CW" run $RUN --format json -o "$T/heap.out.json" "$T/heap.json" \
    > "$T/out" 2> "$T/err"; rc=$?
[ $rc -eq 4 ] || fail "heap: run exit $rc, want 4: $(cat "$T/err")"
grep -q "out of device memory" "$T/err" || fail "heap: no 'out of device memory': $(cat "$T/err")"
grep -q "binding 0 ('X') of kernel 'saxpy_big'" "$T/err" || fail "heap: buffer not named: $(cat "$T/err")"
grep -q "16777216 bytes" "$T/err" || fail "heap: heap size not stated"
python3 - "$T/heap.out.json" <<'PY' || fail "heap: report"
import json, sys
r = json.load(open(sys.argv[1]))
k = {x["name"]: x for x in r["kernels"]}
assert "out of device memory" in k["saxpy_big"]["measurement"]["error"]
assert k["saxpy_big"]["prediction"]["time_us"] > 0          # still predicted
assert k["saxpy_small"]["measurement"]["median_us"] > 0     # the other kernel still ran
PY
# check needs no memory: it predicts the same plan (exit 0, no error finding)
CW_VK_HEAP_BYTES=16777216 "$CW" check --format json -o "$T/heap.check.json" "$T/heap.json" \
    > /dev/null 2>&1; rc=$?
[ $rc -eq 0 ] || fail "heap: check exit $rc, want 0"
[ "$(json_get "$T/heap.check.json" 'r["kernels"][0]["prediction"]["time_us"] > 0')" = True ] ||
    fail "heap: check has no prediction"
echo "ok: buffer beyond the device heap (run exit 4 naming it, check predicts)"

# a buffer beyond maxStorageBufferRange: a static error (exit 1) naming the
# buffer; run does not run that kernel, the other one still runs
sed 's/"elements": 16777216}\]},/"elements": 400000000000}]},/' "$T/heap.json" > "$T/range.json"
grep -q 400000000000 "$T/range.json" || fail "range: plan not rewritten"
"$CW" check "$T/range.json" > "$T/out" 2>&1; rc=$?
[ $rc -eq 1 ] || fail "range: check exit $rc, want 1"
grep -q "buffer 'Y' (set 0 binding 1) is 1600000000000 bytes.*maxStorageBufferRange.*\[buffer-range-limit\]" \
    "$T/out" || fail "range: finding: $(cat "$T/out")"
"$CW" run $RUN --format json -o "$T/range.out.json" "$T/range.json" > /dev/null 2>&1; rc=$?
[ $rc -eq 1 ] || fail "range: run exit $rc, want 1"
python3 - "$T/range.out.json" <<'PY' || fail "range: report"
import json, sys
k = {x["name"]: x for x in json.load(open(sys.argv[1]))["kernels"]}
assert "not run" in k["saxpy_big"]["divergence"]["explanation"], k["saxpy_big"]["divergence"]
assert k["saxpy_small"]["measurement"]["median_us"] > 0
PY
echo "ok: buffer beyond maxStorageBufferRange (error finding, not run, exit 1)"

# ---- no Vulkan driver ----
cat > "$T/small.json" <<J
{"kernels": [{"name": "saxpy_small", "shader": "$SAXPY", "workgroups": [4, 1, 1],
  "push": {"n": 1024, "alpha": 2.0},
  "buffers": [{"binding": 0, "elements": 1024}, {"binding": 1, "elements": 1024}]}]}
J
NOICD="env VK_DRIVER_FILES=/nonexistent VK_ICD_FILENAMES=/nonexistent"
$NOICD "$CW" check --format json -o "$T/noicd.check.json" "$T/small.json" > /dev/null 2> "$T/err"; rc=$?
[ $rc -eq 0 ] || fail "no ICD: check exit $rc, want 0: $(cat "$T/err")"
[ "$(json_get "$T/noicd.check.json" 'r["kernels"][0]["prediction"]["time_us"] > 0')" = True ] ||
    fail "no ICD: check has no prediction"
$NOICD "$CW" run $RUN --format json -o "$T/noicd.run.json" "$T/small.json" > /dev/null 2> "$T/err"; rc=$?
[ $rc -eq 4 ] || fail "no ICD: run exit $rc, want 4"
grep -q "no usable Vulkan driver" "$T/err" || fail "no ICD: message: $(cat "$T/err")"
grep -q "mesa-vulkan-drivers" "$T/err" || fail "no ICD: no hint: $(cat "$T/err")"
python3 - "$T/noicd.run.json" <<'PY' || fail "no ICD: run's report"
import json, sys
k = json.load(open(sys.argv[1]))["kernels"][0]
assert k["prediction"]["time_us"] > 0, k["prediction"]
assert "no Vulkan device" in k["measurement"]["error"], k["measurement"]
assert k["divergence"]["status"] == "unknown", k["divergence"]
PY
echo "ok: no Vulkan driver (check 0, run 4 with the static report)"

# ---- events: unknown names are input errors; known ones that cannot be
# opened (no PMU in a VM, paranoid level) are unavailable with the reason ----
"$CW" run $RUN --events cycles,no_such_event_xyz --format json -o "$T/ev.json" "$T/small.json" \
    > /dev/null 2> "$T/err"; rc=$?
[ $rc -eq 2 ] || fail "events: unknown name: exit $rc, want 2"
grep -q "unknown event 'no_such_event_xyz'" "$T/err" || fail "events: message does not name it: $(cat "$T/err")"
[ ! -e "$T/ev.json" ] || fail "events: a report was written for an input error"
"$CW" run $RUN --events cycles:no_such_umask "$T/small.json" > /dev/null 2> "$T/err"; rc=$?
[ $rc -eq 2 ] || fail "events: unknown attribute: exit $rc, want 2"
"$CW" run $RUN --events cycles,instructions,perf::PERF_COUNT_SW_TASK_CLOCK --format json \
    -o "$T/ev.json" "$T/small.json" > /dev/null 2> "$T/err"; rc=$?
[ $rc -eq 0 ] || [ $rc -eq 3 ] || fail "events: run exit $rc: $(cat "$T/err")"
python3 - "$T/ev.json" <<'PY' || fail "events: report"
import json, sys
m = json.load(open(sys.argv[1]))["kernels"][0]["measurement"]
assert m["median_us"] > 0, m
assert set(m["counters"]) == {"cycles", "instructions", "perf::PERF_COUNT_SW_TASK_CLOCK"}, m["counters"]
for name, v in m["counters"].items():   # never a silent 0
    assert v["available"] or (v["value"] is None and v["reason"]), (name, v)
PY
"$CW" run $RUN --events 'cycles,,' "$T/small.json" > /dev/null 2> "$T/err"; rc=$?
[ $rc -eq 2 ] || fail "events: malformed list: exit $rc, want 2"
echo "ok: unknown events are input errors (exit 2 naming them); known ones unavailable with the reason"

# ---- unwritable -o and a full disk, for run ----
"$CW" run $RUN -o "$T/nodir/r.json" "$T/small.json" > /dev/null 2> "$T/err"; rc=$?
[ $rc -eq 2 ] || fail "-o in a missing folder: exit $rc, want 2"
grep -q "$T/nodir/r.json" "$T/err" || fail "-o: path not named: $(cat "$T/err")"
mkdir "$T/ro" && chmod 555 "$T/ro"
if [ "$(id -u)" != 0 ]; then   # root writes anywhere
    "$CW" run $RUN -o "$T/ro/r.json" "$T/small.json" > /dev/null 2> "$T/err"; rc=$?
    [ $rc -eq 2 ] || fail "-o read-only folder: exit $rc"
fi
"$CW" run $RUN -o /dev/full "$T/small.json" > /dev/null 2> "$T/err"; rc=$?
[ $rc -eq 2 ] || fail "-o /dev/full: exit $rc, want 2"
grep -q "No space left" "$T/err" || fail "/dev/full: message: $(cat "$T/err")"
"$CW" run $RUN --format json -o "$T/keep.json" "$T/small.json" > /dev/null 2>&1
cp "$T/keep.json" "$T/keep.before"
( trap '' XFSZ; ulimit -f 1; "$CW" run $RUN --format json -o "$T/keep.json" "$T/small.json" ) \
    > /dev/null 2> "$T/err"; rc=$?
[ $rc -eq 2 ] || fail "file size limit: exit $rc, want 2"
grep -q "cannot write the report" "$T/err" || fail "full disk: message: $(cat "$T/err")"
cmp -s "$T/keep.json" "$T/keep.before" || fail "full disk: the previous report was damaged"
ls -a "$T" | grep -q '\.tmp' && fail "full disk: temporary file left behind"
echo "ok: unwritable -o / full disk: exit 2, previous report intact"

# ---- run interrupted (SIGINT, SIGTERM, SIGHUP) while a kernel runs ----
# The kernel spins for far longer than the test (the hang guard is 60 s):
# the signal ends the process at once and the previous report stays whole.
spin_shader "$T/spin.comp"
cat > "$T/spin.json" <<'J'
{"kernels": [{"name": "spin", "shader": "spin.comp", "workgroups": [16384, 1, 1],
  "buffers": [{"binding": 0, "elements": 1025, "init": "zero"}]}]}
J
for sig in INT TERM HUP; do
    # a background job of a non-interactive shell ignores SIGINT (and nohup
    # SIGHUP): restore the defaults before exec, as a terminal would have them
    python3 -c 'import os, signal, sys
for s in (signal.SIGINT, signal.SIGHUP, signal.SIGTERM):
    signal.signal(s, signal.SIG_DFL)
os.execvp(sys.argv[1], sys.argv[1:])' "$CW" run --timeout 60 --format json \
        -o "$T/keep.json" "$T/spin.json" > /dev/null 2>&1 &
    pid=$!
    sleep 3
    kill -"$sig" "$pid"
    i=0
    while kill -0 "$pid" 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
    kill -0 "$pid" 2>/dev/null && { kill -KILL "$pid"; fail "SIG$sig: run still alive 10 s later"; }
    wait "$pid"; rc=$?
    case $sig in HUP) n=1 ;; INT) n=2 ;; *) n=15 ;; esac
    [ $rc -eq $((128 + n)) ] || fail "SIG$sig: exit $rc, want $((128 + n))"
    cmp -s "$T/keep.json" "$T/keep.before" || fail "SIG$sig: the previous report changed"
    ls -a "$T" | grep -q '\.tmp' && fail "SIG$sig: temporary file left behind"
done
echo "ok: run interrupted by SIGINT/SIGTERM/SIGHUP: gone at once, previous report intact"

# ---- a malformed calibrated profile in the cache ----
"$CW" calibrate --device llvmpipe --budget 0.05 --force -o "$T/prof.json" > /dev/null 2> "$T/err"; rc=$?
[ $rc -eq 0 ] || fail "calibrate exit $rc: $(cat "$T/err")"
P=$(ls "$XDG_CACHE_HOME"/clockwork/profiles/*.json 2>/dev/null | head -n 1)
[ -f "$P" ] || fail "no cached profile"
"$CW" check --format json -o "$T/p0.json" "$T/small.json" > /dev/null 2>&1
[ "$(json_get "$T/p0.json" 'r["device"]["profile"]')" = calibrated ] || fail "cache not used"
i=0
for bad in truncate garbage nul wrong-schema negative; do
    case $bad in
    truncate) head -c 200 "$T/prof.json" > "$P" ;;
    garbage) printf 'not json at all' > "$P" ;;
    nul) printf '\0\0\0\0' > "$P" ;;
    wrong-schema) printf '{"schema": 99}' > "$P" ;;
    negative) python3 - "$T/prof.json" "$P" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
p["ceilings"]["dram_gbs"] = -1
json.dump(p, open(sys.argv[2], "w"))
PY
    ;;
    esac
    i=$((i + 1))
    "$CW" check --format json -o "$T/p$i.json" "$T/small.json" > /dev/null 2> "$T/err"; rc=$?
    [ $rc -eq 0 ] || fail "cache $bad: check exit $rc: $(cat "$T/err")"
    grep -q "warning: ignoring the cached profile: $P" "$T/err" ||
        fail "cache $bad: no warning naming the file: $(cat "$T/err")"
    grep -q "clockwork calibrate" "$T/err" || fail "cache $bad: no hint to recalibrate"
    [ "$(json_get "$T/p$i.json" 'r["device"]["profile"]')" = builtin ] ||
        fail "cache $bad: the malformed profile was used"
done
"$CW" run $RUN --format json -o "$T/prun.json" "$T/small.json" > /dev/null 2> "$T/err"; rc=$?
[ $rc -eq 0 ] || [ $rc -eq 3 ] || fail "cache: run exit $rc with a malformed profile"
grep -q "ignoring the cached profile" "$T/err" || fail "cache: run did not warn"
"$CW" calibrate --device llvmpipe --budget 0.05 --force > /dev/null 2>&1 || fail "recalibrate"
"$CW" check --format json -o "$T/pz.json" "$T/small.json" > /dev/null 2> "$T/err"
grep -q "ignoring" "$T/err" && fail "cache: still warning after calibrate"
[ "$(json_get "$T/pz.json" 'r["device"]["profile"]')" = calibrated ] ||
    fail "cache: calibrate did not rebuild the profile"
echo "ok: malformed cached profile ignored with a warning, rebuilt by calibrate"
echo "faults: ok"
