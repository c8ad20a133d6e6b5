#!/bin/sh
# A kernel that never finishes: `clockwork run --timeout 2` ends with exit 4
# and names the kernel, within the timeout (plus compile time), instead of
# hanging.  lavapipe caps each loop at 65535 iterations per invocation, so
# the loop runs over a million invocations: minutes of work, far past the
# guard.
set -u
. "$(dirname "$0")/../lib.sh"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
spin_shader "$dir/spin.comp"
cat > "$dir/plan.json" <<'JSON'
{
  "kernels": [
    {
      "name": "spin_forever",
      "shader": "spin.comp",
      "workgroups": [16384, 1, 1],
      "buffers": [{"binding": 0, "elements": 1025, "init": "zero"}]
    }
  ]
}
JSON
start=$(date +%s)
# the outer timeout only keeps a broken build from hanging the suite
timeout 120 "$CW" run --timeout 2 --format json -o "$dir/report.json" \
    "$dir/plan.json" > "$dir/out" 2>&1; rc=$?
end=$(date +%s)
cat "$dir/out"
[ $rc -eq 4 ] || fail "exit $rc, want 4"
grep -q "spin_forever" "$dir/out" || fail "message does not name the kernel"
grep -q "hang guard" "$dir/out" || fail "message does not say it was the hang guard"
[ $((end - start)) -lt 60 ] || fail "took $((end - start)) s"
# the report was still written, with the failure in the measurement
python3 - "$dir/report.json" <<'PY' || fail "report"
import json, sys
r = json.load(open(sys.argv[1]))
k = [k for k in r["kernels"] if k["name"] == "spin_forever"][0]
m = k.get("measurement") or {}
assert "hang guard" in json.dumps(m), m
PY
echo "hang: ok ($((end - start)) s)"
