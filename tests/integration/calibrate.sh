#!/bin/sh
# clockwork calibrate with a short budget on the CPU device: every ceiling
# measured, the profile stored in the XDG cache under the device UUID and
# driver version, and run picks it up as "calibrated".
set -u
fail() { echo "FAIL: $*"; exit 1; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
export XDG_CACHE_HOME="$dir/cache"
start=$(date +%s)
"$CW" calibrate --device llvmpipe --budget 0.05 --force -o "$dir/profile.json" \
    > "$dir/out" 2>&1; rc=$?
end=$(date +%s)
cat "$dir/out"
[ $rc -eq 0 ] || fail "calibrate exited $rc"
[ $((end - start)) -lt 60 ] || fail "calibrate took $((end - start)) s (limit: a minute)"
grep -Eq "dram copy|dram \(host\)" "$dir/out" || fail "no progress log"
ls "$XDG_CACHE_HOME"/clockwork/profiles/*.json > /dev/null 2>&1 || fail "no cached profile"
python3 - "$dir/profile.json" <<'PY' || fail "profile content"
import json, sys
p = json.load(open(sys.argv[1]))
assert p["source"] == "calibrated", p["source"]
assert p["key"] == "lavapipe", p["key"]
assert len(p["uuid"]) == 32 and p["driver"] and p["date"], p
assert "calibrate" in p["command"], p["command"]
c = p["ceilings"]
for k in ("dram_gbs", "dram_read_gbs", "dram_write_gbs", "l2_gbs",
          "shared_gbs", "fp32_gflops", "fp16_gflops", "fp64_gflops",
          "int32_gops", "sfu_gops", "atomic_gops", "launch_us",
          "timestamp_res_ns"):
    assert isinstance(c[k], (int, float)) and c[k] > 0, (k, c.get(k))
PY
# a latency measured once more at the end keeps the lower reading of the two
python3 - "$dir/out" "$dir/profile.json" <<'PY' || fail "latency kept is not the lower of its two readings"
import json, re, sys
log = open(sys.argv[1]).read()
p = json.load(open(sys.argv[2]))
reads = [float(v) for v in re.findall(r"^  dram latency +([0-9.e+]+) ns", log, re.M)]
kept = re.search(r"^  dram latency .*again at the end; kept the lower: ([0-9.e+]+)\)", log, re.M)
assert len(reads) == 3 and kept, reads
assert abs(float(kept.group(1)) - min(reads[:2])) <= 1e-3 * min(reads[:2]), (reads, kept.group(1))
got = p["shape"]["mem_latency_ns"]
assert abs(got - min(reads[:2])) <= 1e-3 * got, (got, reads)
PY
# run finds the cached profile
cat > "$dir/plan.json" <<JSON
{"kernels": [{"name": "saxpy", "shader": "$CW_TEST_ROOT/examples/kernels/saxpy.comp",
  "workgroups": [4, 1, 1], "push": {"n": 1024, "alpha": 2.0},
  "buffers": [{"binding": 0, "elements": 1024}, {"binding": 1, "elements": 1024}]}]}
JSON
"$CW" run --samples 3 --format json -o "$dir/report.json" "$dir/plan.json" \
    > "$dir/run" 2>&1; rc=$?
[ $rc -eq 0 ] || [ $rc -eq 3 ] || { cat "$dir/run"; fail "run exited $rc"; }
python3 - "$dir/report.json" <<'PY' || fail "run did not use the calibrated profile"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["device"]["profile"] == "calibrated", r["device"]
PY
echo "calibrate: ok ($((end - start)) s)"
