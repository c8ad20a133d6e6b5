#!/bin/sh
# Memory pressure (issue 17): under `ulimit -v` no limit may end clockwork
# with a signal (std::bad_alloc from libshaderc used to abort: 134).
#   - check of a GPU plan at 256 MiB: succeeds (the Vulkan driver is probed in
#     a child process, so its ~150 MiB of libraries never enter this one);
#   - at limits from 24 MiB up: exit 0 or 4, never a signal; exit 4 says
#     "out of memory" on stderr; a report that could be written is one JSON
#     document with the kernel's error;
#   - run at 256 MiB: exit 0, 3 or 4, never a signal.
set -u
. "$(dirname "$0")/../lib.sh"
if grep -q __asan_init "$CW"; then
    # ASan reserves terabytes of address space for its shadow memory: the
    # binary cannot start under any `ulimit -v` (`make test` covers this)
    echo "oom: skipped (sanitizer build)"
    exit 0
fi
test_tmpdir
saxpy_small_plan "$T/plan.json"

( ulimit -v 262144; timeout 120 "$CW" check --format json -o "$T/c.json" "$T/plan.json" ) \
    > /dev/null 2> "$T/err"; rc=$?
[ $rc -eq 0 ] || fail "check at 256 MiB: exit $rc, want 0: $(cat "$T/err")"
python3 -c "import json,sys; k=json.load(open(sys.argv[1]))['kernels'][0]; assert k['prediction']['time_us'] > 0" \
    "$T/c.json" || fail "check at 256 MiB: no prediction"
echo "ok: check at ulimit -v 256 MiB succeeds"

saw4=0
for kib in 24576 32768 40960 49152 57344 65536 98304 131072 196608 262144; do
    rm -f "$T/l.json"
    ( ulimit -v $kib; timeout 120 "$CW" check --format json -o "$T/l.json" "$T/plan.json" ) \
        > /dev/null 2> "$T/err"; rc=$?
    case $rc in
    0) ;;
    4) saw4=1
       grep -q "out of memory" "$T/err" || fail "ulimit -v $kib: exit 4 without 'out of memory': $(cat "$T/err")"
       if [ -f "$T/l.json" ]; then
           python3 -c "import json,sys; k=json.load(open(sys.argv[1]))['kernels'][0]; assert 'out of memory' in k['measurement']['error']" \
               "$T/l.json" || fail "ulimit -v $kib: report lacks the error"
       fi ;;
    *) fail "ulimit -v $kib: exit $rc (want 0 or 4): $(tail -3 "$T/err")" ;;
    esac
done
[ $saw4 -eq 1 ] || fail "no limit was tight enough to test the out-of-memory path"
echo "ok: check under ulimit -v 24..256 MiB: exit 0 or 4 with 'out of memory', never a signal"

( ulimit -v 262144; timeout 120 "$CW" run --samples 2 --warmup 1 --format json -o "$T/r.json" \
    "$T/plan.json" ) > /dev/null 2> "$T/err"; rc=$?
case $rc in 0|3|4) ;; *) fail "run at 256 MiB: exit $rc: $(tail -3 "$T/err")" ;; esac
echo "ok: run at ulimit -v 256 MiB: exit $rc, no signal"

# reading a large report or plan when memory runs out: jansson fails with
# no reason; that is exit 4 "out of memory reading ...", not exit 2 with
# "not a valid report: " (an input error with an empty reason, before)
python3 - "$T/c.json" "$T/big.report.json" "$T/plan.json" "$T/big.plan.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
r["kernels"][0]["measurement"] = {"samples": 2000000, "median_us": 1.0, "sample_us": [1.0] * 2000000}
json.dump(r, open(sys.argv[2], "w"))
p = json.load(open(sys.argv[3]))
p["kernels"] = [dict(p["kernels"][0], name="k%d" % i) for i in range(150000)]
json.dump(p, open(sys.argv[4], "w"))
PY
( ulimit -v 65536; timeout 120 "$CW" diff "$T/c.json" "$T/big.report.json" ) > /dev/null 2> "$T/err"; rc=$?
[ $rc -eq 4 ] || fail "diff of a 10 MB report at 64 MiB: exit $rc, want 4: $(cat "$T/err")"
grep -q "big.report.json: out of memory reading the report" "$T/err" || fail "diff: message: $(cat "$T/err")"
for cmd in "check" "tui --snapshot main"; do
    # shellcheck disable=SC2086
    ( ulimit -v 98304; timeout 120 "$CW" $cmd "$T/big.plan.json" ) > /dev/null 2> "$T/err"; rc=$?
    [ $rc -eq 4 ] || fail "$cmd of a large plan at 96 MiB: exit $rc, want 4: $(cat "$T/err")"
    grep -q "big.plan.json: out of memory reading the plan" "$T/err" || fail "$cmd: message: $(cat "$T/err")"
done
echo "ok: a report or plan too large for the memory left: exit 4 'out of memory reading', not 2"
