#!/bin/sh
# Fleet view through the real binary: reports from four devices (two
# hosts), one device 1.4x slower on every kernel.  merge flags that device
# and no other (table, JSON `fleet`, device-outlier findings on its kernels
# only); the TUI opens the reports without a device, grouped by host/device,
# and shows the same.
. "$(dirname "$0")/../lib.sh"
ROOT=${CW_TEST_ROOT:-$(pwd)}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cd "$ROOT" || fail "cd"
"$CW" check -o "$T/base.json" tests/corpus/clean_examples/plan.json > /dev/null 2>&1
python3 - "$T" << 'PY' || fail "generator"
import copy, json, sys
T = sys.argv[1]
base = json.load(open(T + "/base.json"))
for d in range(4):
    r = copy.deepcopy(base)
    r["device"]["uuid"] = "%032x" % (0xabc0 + d)
    r["device"]["name"] = "NVIDIA H200"
    r["provenance"]["host"] = "gpu%d" % (d // 2)
    r["provenance"]["node"] = None
    for i, k in enumerate(r["kernels"]):
        assert k["prediction"], k["name"]
        # siblings within 3% of each other and of the model; device 2 at 1.4x
        us = k["prediction"]["time_us"] * (1.01 + 0.01 * ((i + d) % 3)) * (1.4 if d == 2 else 1)
        k["measurement"] = {"samples": 10, "median_us": us, "mad_us": us * 0.005, "min_us": us,
                            "max_us": us, "p90_us": us, "sample_us": [us] * 10, "counters": {}}
    json.dump(r, open("%s/d%d.json" % (T, d), "w"))
PY
"$CW" merge "$T"/d*.json > "$T/table" 2> "$T/err"
rc=$?
[ $rc -eq 0 ] || fail "merge exited $rc: $(cat "$T/err")"
n=$(grep -c "^device .*OUTLIER" "$T/table")
[ "$n" -eq 1 ] || fail "$n outlier devices in the table, expected 1: $(cat "$T/table")"
grep -q "^device gpu1/0000000000000000000000000000abc2 *OUTLIER: off on 6 of 6 kernels" "$T/table" ||
    fail "the slow device is not the one flagged: $(grep '^device' "$T/table")"
"$CW" merge -o "$T/merged.json" "$T"/d*.json 2> "$T/err" || fail "merge -o: $(cat "$T/err")"
python3 - "$T/merged.json" << 'PY' || fail "merged JSON"
import json, sys
m = json.load(open(sys.argv[1]))
f = m["fleet"]
assert [d["outlier"] for d in f["devices"]] == [False, False, True, False], f["devices"]
assert all(k["devices"] == 4 and 1.35 < k["spread"] < 1.5 for k in f["kernels"]), f["kernels"]
slow = [i for i, s in enumerate(m["sources"]) if s["device"]["uuid"].endswith("abc2")]
for k in m["kernels"]:
    ids = [x["id"] for x in k["findings"]]
    assert ids.count("device-outlier") == (1 if k["source"] in slow else 0), (k["name"], k["source"], ids)
PY
# the TUI: no device, grouped by host/device, the outlier's findings counted
"$CW" tui --snapshot main --size 130x30 "$T"/d*.json > "$T/tui" 2> "$T/err"
rc=$?
[ $rc -eq 0 ] || fail "tui exited $rc: $(cat "$T/err")"
for g in "gpu0/0: saxpy" "gpu0/1: saxpy" "gpu1/0: saxpy" "gpu1/1: saxpy"; do
    grep -q " $g " "$T/tui" || fail "tui lacks the group row '$g': $(cat "$T/tui")"
done
grep -q "4 reports, 4 devices, outlier gpu1/0 (read-only)" "$T/tui" || fail "tui header: $(head -n 2 "$T/tui")"
[ "$(grep -c '^ gpu1/0: .* 2W ' "$T/tui")" -eq 6 ] || fail "the outlier's rows lack the finding: $(cat "$T/tui")"
[ "$(grep -c '^ gpu0/0: .* 1W ' "$T/tui")" -eq 6 ] || fail "a sibling got a finding: $(cat "$T/tui")"
"$CW" tui --snapshot main --size 110x30 "$T/merged.json" > "$T/tui2" 2> "$T/err" || fail "tui of a merged report: $(cat "$T/err")"
grep -q " gpu1/0: saxpy " "$T/tui2" || fail "merged report not grouped: $(cat "$T/tui2")"
# an incomplete set is refused as merge refuses it
"$CW" tui --snapshot main "$T/d0.json" "$T/d0.json" > /dev/null 2> "$T/err"
[ $? -eq 2 ] && grep -q "duplicated" "$T/err" || fail "tui of a doubled report: $(cat "$T/err")"
pass
