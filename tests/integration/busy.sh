#!/bin/sh
# A busy machine: with a busy loop on every CPU while Clockwork measures,
#   - every measured kernel's report carries the machine's load (others'
#     CPUs, this run's share, the load average) and says busy;
#   - on the CPU device (lavapipe) a 'slower' the missing CPU time could
#     explain is 'unknown' ("too busy to judge"), never 'slower', and a
#     'slower' left stands beyond what the load explains;
#   - calibrate warns and does not store the profile, unless --force.
set -u
: "${CW:?CW must name the clockwork binary}"
ROOT=${CW_TEST_ROOT:-.}
T=$(mktemp -d)
pids=""
stop_loops() { for p in $pids; do kill "$p" 2>/dev/null; done; pids=""; }
trap 'stop_loops; rm -rf "$T"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
export XDG_CACHE_HOME="$T/cache"
unset CW_LOAD_IGNORE

start_loops() {
    n=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
    i=0
    while [ $i -lt "$n" ]; do
        sh -c 'while :; do :; done' &
        pids="$pids $!"
        i=$((i + 1))
    done
    sleep 1 # let the scheduler spread them
}

start_loops
"$CW" run --samples 5 --budget 0.5 --device llvmpipe --format json -o "$T/busy.json" \
    "$ROOT/tests/screen/plan.json" > /dev/null 2> "$T/err"
rc=$?
"$CW" calibrate --device llvmpipe --budget 0.05 -o "$T/prof.json" > "$T/cal.out" 2> "$T/cal.err"
crc=$?
stored=$(ls "$XDG_CACHE_HOME"/clockwork/profiles/ 2>/dev/null | wc -l)
"$CW" calibrate --device llvmpipe --budget 0.05 --force -o "$T/prof2.json" > /dev/null 2> "$T/cal2.err"
frc=$?
stop_loops

[ $rc -le 3 ] || fail "run under load exited $rc: $(cat "$T/err")"
python3 - "$T/busy.json" <<'PY' || fail "report under load"
import json, sys
r = json.load(open(sys.argv[1]))
measured = [k for k in r["kernels"] if k.get("measurement") and k["measurement"].get("median_us")]
assert measured, "nothing measured"
unknown = 0
for k in measured:
    m, d = k["measurement"], k["divergence"]
    ml = m.get("machine_load")
    assert ml, (k["name"], "no machine_load in the measurement")
    assert ml["busy"] is True, (k["name"], ml)
    assert ml["others_cpus"] >= 0.5 * ml["cpus"], (k["name"], ml)
    assert 0 <= ml["self_cpus"] <= ml["cpus"] + 0.5, ml
    avail = max(ml["cpus"] - ml["others_cpus"] - ml["steal_cpus"], 0.05 * ml["cpus"]) / ml["cpus"]
    band = 0.25 + 3 * m["mad_us"] / m["median_us"]
    ratio = m["median_us"] / k["prediction"]["time_us"]
    if d["status"] == "slower":
        # only a slowdown the load cannot explain stays 'slower'
        assert ratio > (1 + band) / avail * 0.999, (k["name"], ratio, band, avail)
        assert "allowing for the load" in d["explanation"], d
    if d["status"] == "unknown":
        assert "too busy to judge" in d["explanation"], d
        assert "other processes held" in d["explanation"], d
        unknown += 1
    if d["status"] in ("ok", "faster"):
        assert "busy machine" in d["explanation"], d
print("kernels measured under load:", len(measured), "unknown:", unknown)
PY
grep -q 'too busy to judge\|allowing for the load\|busy machine' "$T/busy.json" || fail "no kernel names the load"

[ $crc -eq 0 ] || fail "calibrate under load exited $crc: $(cat "$T/cal.err")"
grep -q "the machine was busy while calibrating" "$T/cal.err" || fail "calibrate: no warning: $(cat "$T/cal.err")"
grep -q "not saved" "$T/cal.err" || fail "calibrate: does not say it was not saved"
[ "$stored" -eq 0 ] || fail "calibrate under load stored a profile"
[ -s "$T/prof.json" ] || fail "calibrate: -o not written"
[ $frc -eq 0 ] || fail "calibrate --force exited $frc"
grep -q "saved anyway (--force)" "$T/cal2.err" || fail "calibrate --force: $(cat "$T/cal2.err")"
ls "$XDG_CACHE_HOME"/clockwork/profiles/*.json > /dev/null 2>&1 || fail "calibrate --force did not store the profile"
echo "ok"
