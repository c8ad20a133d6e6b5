#!/bin/sh
# clockwork devices: the CPU Vulkan device (llvmpipe) in table and JSON;
# no driver -> exit 4 with how to get the CPU device.
set -u
fail() { echo "FAIL: $*"; exit 1; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

"$CW" devices > "$out/table" 2> "$out/err"; rc=$?
[ $rc -eq 0 ] || fail "devices exited $rc: $(cat "$out/err")"
for want in llvmpipe "workgroup invocations max" "shared memory max" \
            "subgroup size" "storage buffer range max" "valid bits" \
            "pipeline statistics" "calibrated timestamps"; do
    grep -q "$want" "$out/table" || fail "table lacks '$want'"
done

"$CW" devices --format json > "$out/json" 2> "$out/err"; rc=$?
[ $rc -eq 0 ] || fail "devices --format json exited $rc"
python3 - "$out/json" <<'PY' || fail "JSON content"
import json, sys
d = json.load(open(sys.argv[1]))["devices"]
lvp = [x for x in d if "llvmpipe" in x["name"]]
assert lvp, "no llvmpipe"
x = lvp[0]
assert x["type"] == "cpu", x["type"]
lim = x["compute_limits"]
assert lim["max_workgroup_invocations"] >= 128
assert lim["max_shared_memory_bytes"] >= 16384
assert lim["subgroup_size"] >= 1
assert any(f["compute"] and f["timestamp_valid_bits"] > 0 for f in x["queue_families"])
assert x["pipeline_statistics"] is True
assert x["timestamp_period_ns"] > 0
assert len(x["uuid"]) == 32
PY

# No Vulkan driver: exit 4 and say how to get the CPU device.
VK_DRIVER_FILES=/nonexistent VK_ICD_FILENAMES=/nonexistent \
    "$CW" devices > "$out/none" 2>&1; rc=$?
[ $rc -eq 4 ] || fail "no driver: exit $rc, want 4: $(cat "$out/none")"
grep -q "mesa-vulkan-drivers" "$out/none" || fail "no driver: message lacks the hint: $(cat "$out/none")"
VK_DRIVER_FILES=/nonexistent VK_ICD_FILENAMES=/nonexistent \
    "$CW" devices --format json > "$out/none" 2>&1; rc=$?
[ $rc -eq 4 ] || fail "no driver (json): exit $rc, want 4"
echo "devices: ok"
