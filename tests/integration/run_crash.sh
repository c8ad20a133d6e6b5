#!/bin/sh
# A run survives a crash inside the Vulkan driver (issue 17).  The crash is
# injected with tests/integration/vkfault/vkfault.c (LD_PRELOAD over the
# loader's entry points: SIGSEGV in vkCmdDispatch for one kernel, chosen by
# its workgroup count; in vkCreateDevice; in vkDestroyDevice):
#   - good, crashing, good: exit 4; both good kernels measured; the crashing
#     one named with the signal, its prediction kept; stdout holds the report;
#   - every kernel crashing: each one named, exit 4, the report written;
#   - a crash while opening the device: exit 4, every kernel's static part;
#   - a crash in teardown after the report is out: the run's own status;
#   - a deadlock in the driver (vkCmdDispatch never returns, no hang guard
#     can see it): the silent child is killed, that kernel reported as hung,
#     the next one measured (CW_SUPERVISE_SILENCE_S=5 instead of 60 s);
#   - an abort() in the device work (an allocator out of memory, an
#     assertion, std::terminate): exit 4 with the kernel named, the others
#     measured; unsupervised, clockwork's abort handler still makes it exit 4
#     (never SIGABRT, 134) with "out of memory or an internal error";
#   - CW_NO_SUPERVISE=1 shows the old behaviour (dies of the signal), so the
#     test is known to reach the crash.
set -u
. "$(dirname "$0")/../lib.sh"
test_tmpdir
cc -O1 -fPIC -shared -o "$T/libvkfault.so" "$ROOT/tests/integration/vkfault/vkfault.c" -ldl ||
    fail "cannot build vkfault.c"
SAXPY="$ROOT/examples/kernels/saxpy.comp"
k() { printf '{"name": "%s", "shader": "%s", "workgroups": [%s, 1, 1], "push": {"n": %s, "alpha": 2.0}, "buffers": [{"binding": 0, "elements": %s}, {"binding": 1, "elements": %s}]}' \
    "$1" "$SAXPY" "$2" $(($2 * 256)) $(($2 * 256)) $(($2 * 256)); }
printf '{"kernels": [%s,\n%s,\n%s]}\n' "$(k good1 4)" "$(k crasher 7)" "$(k good2 8)" > "$T/plan.json"
RUN="--samples 2 --warmup 1"
FAULT="env LD_PRELOAD=$T/libvkfault.so"
# The injected SIGSEGV is the point: an ASan binary's own SEGV handler
# would report it and abort (exit 4 by clockwork's abort handler) instead
# of letting the process die of the signal the supervisor is to name.
if grep -q __asan_init "$CW"; then
    FAULT="$FAULT ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}handle_segv=0"
fi

$FAULT VKFAULT_DISPATCH_X=7 CW_NO_SUPERVISE=1 timeout 120 "$CW" run $RUN "$T/plan.json" \
    > /dev/null 2>&1; rc=$?
[ $rc -eq 139 ] || fail "the injected crash was not reached unsupervised (exit $rc, want 139)"

$FAULT VKFAULT_DISPATCH_X=7 timeout 120 "$CW" run $RUN --format json -o - "$T/plan.json" \
    > "$T/out.json" 2> "$T/err"; rc=$?
[ $rc -eq 4 ] || fail "good/crash/good: exit $rc, want 4: $(cat "$T/err")"
grep -q "crasher: the Vulkan driver crashed (killed by SIGSEGV" "$T/err" ||
    fail "good/crash/good: the kernel is not named: $(cat "$T/err")"
python3 - "$T/out.json" <<'PY' || fail "good/crash/good: report"
import json, sys
r = json.load(open(sys.argv[1]))                  # one JSON document on stdout
k = {x["name"]: x for x in r["kernels"]}
assert [x["name"] for x in r["kernels"]] == ["good1", "crasher", "good2"]
for n in ("good1", "good2"):
    assert k[n]["measurement"].get("error") is None and k[n]["measurement"]["median_us"] > 0, k[n]
e = k["crasher"]["measurement"]["error"]
assert "the Vulkan driver crashed (killed by SIGSEGV" in e and "while running this kernel" in e, e
assert k["crasher"]["prediction"]["time_us"] > 0
assert r["device"]["name"] and "llvmpipe" in r["device"]["name"]
PY
echo "ok: a driver crash in one kernel: the kernels before and after are measured, it is named (exit 4)"

printf '{"kernels": [%s,\n%s]}\n' "$(k c1 7)" "$(k c2 7)" > "$T/all.json"
$FAULT VKFAULT_DISPATCH_X=7 timeout 120 "$CW" run $RUN --format json -o "$T/all.out.json" \
    "$T/all.json" > /dev/null 2> "$T/err"; rc=$?
[ $rc -eq 4 ] || fail "all crashing: exit $rc, want 4"
python3 - "$T/all.out.json" <<'PY' || fail "all crashing: report"
import json, sys
for x in json.load(open(sys.argv[1]))["kernels"]:
    assert "driver crashed" in x["measurement"]["error"], x
PY
echo "ok: every kernel crashing: each one named, the report written"

$FAULT VKFAULT_CREATE_DEVICE=1 timeout 120 "$CW" run $RUN --format json -o "$T/open.json" \
    "$T/plan.json" > /dev/null 2> "$T/err"; rc=$?
[ $rc -eq 4 ] || fail "crash opening the device: exit $rc, want 4"
grep -q "crashed (killed by SIGSEGV: .*) while opening the device" "$T/err" ||
    fail "crash opening the device: message: $(cat "$T/err")"
python3 -c "import json,sys; r=json.load(open(sys.argv[1])); assert all(x['prediction']['time_us'] > 0 for x in r['kernels'])" \
    "$T/open.json" || fail "crash opening the device: no static report"
echo "ok: a crash while opening the device: exit 4, the static part of every kernel reported"

$FAULT VKFAULT_DESTROY_DEVICE=1 timeout 120 "$CW" run $RUN --format json -o "$T/close.json" \
    "$T/plan.json" > /dev/null 2> "$T/err"; rc=$?
[ $rc -eq 0 ] || [ $rc -eq 3 ] || fail "crash in teardown: exit $rc: $(cat "$T/err")"
grep -q "while closing the device, after the report was written" "$T/err" || fail "teardown: no warning"
python3 -c "import json,sys; r=json.load(open(sys.argv[1])); assert all(x['measurement']['median_us'] > 0 for x in r['kernels'])" \
    "$T/close.json" || fail "crash in teardown: report"
echo "ok: a crash in teardown after the report: the run's own status, nothing lost"

$FAULT VKFAULT_HANG_X=7 CW_SUPERVISE_SILENCE_S=5 timeout 120 "$CW" run $RUN --format json \
    -o "$T/hang.json" "$T/plan.json" > /dev/null 2> "$T/err"; rc=$?
[ $rc -eq 4 ] || fail "driver deadlock: exit $rc, want 4: $(cat "$T/err")"
python3 - "$T/hang.json" <<'PY' || fail "driver deadlock: report"
import json, sys
k = {x["name"]: x for x in json.load(open(sys.argv[1]))["kernels"]}
assert "no progress for 5 s while running this kernel" in k["crasher"]["measurement"]["error"], k["crasher"]
for n in ("good1", "good2"):
    assert k[n]["measurement"]["median_us"] > 0, k[n]
PY
echo "ok: a deadlock inside the driver: the kernel is reported as hung, the others measured"

$FAULT VKFAULT_CREATE_DEVICE=hang CW_SUPERVISE_SILENCE_S=5 timeout 120 "$CW" run $RUN --format json \
    -o "$T/hangopen.json" "$T/plan.json" > /dev/null 2> "$T/err"; rc=$?
[ $rc -eq 4 ] || fail "driver deadlock opening the device: exit $rc, want 4: $(cat "$T/err")"
grep -q "no progress for 5 s while opening the device" "$T/err" || fail "deadlock opening: $(cat "$T/err")"
python3 -c "import json,sys; r=json.load(open(sys.argv[1])); assert all(x['prediction']['time_us'] > 0 for x in r['kernels'])" \
    "$T/hangopen.json" || fail "deadlock opening: no static report"
echo "ok: a deadlock while opening the device: exit 4, the static part reported"

$FAULT VKFAULT_ABORT_X=7 timeout 120 "$CW" run $RUN --format json -o "$T/abort.json" "$T/plan.json" \
    > /dev/null 2> "$T/err"; rc=$?
[ $rc -eq 4 ] || fail "abort in the device work: exit $rc, want 4: $(cat "$T/err")"
grep -q "crasher: the Vulkan driver crashed (killed by SIGABRT: Aborted, or memory ran out) while running this kernel" \
    "$T/err" || fail "abort: the kernel is not named: $(cat "$T/err")"
python3 - "$T/abort.json" <<'PY' || fail "abort: report"
import json, sys
k = {x["name"]: x for x in json.load(open(sys.argv[1]))["kernels"]}
assert "killed by SIGABRT" in k["crasher"]["measurement"]["error"], k["crasher"]["measurement"]
for n in ("good1", "good2"):
    assert k[n]["measurement"]["median_us"] > 0, k[n]
PY
$FAULT VKFAULT_ABORT_X=7 CW_NO_SUPERVISE=1 timeout 120 "$CW" run $RUN "$T/plan.json" \
    > /dev/null 2> "$T/err"; rc=$?
[ $rc -eq 4 ] || fail "abort unsupervised: exit $rc, want 4 (134 = died of SIGABRT)"
grep -q "stopped: out of memory or an internal error (abort); exit 4" "$T/err" ||
    fail "abort unsupervised: message: $(cat "$T/err")"
echo "ok: an abort in the device work: exit 4 naming the kernel (supervised), exit 4 unsupervised"
