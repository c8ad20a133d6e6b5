#!/bin/sh
# clockwork check on broken SPIR-V and on the static-check corpus: exit
# codes, finding ids in JSON and SARIF, and the other kernels still analysed.
. "$(dirname "$0")/../lib.sh"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT

glslc -g --target-env=vulkan1.1 examples/kernels/saxpy.comp -o "$T/good.spv" ||
    fail "glslc cannot compile saxpy"
size=$(wc -c < "$T/good.spv")
head -c $((size / 2 / 4 * 4)) "$T/good.spv" > "$T/truncated.spv"
# word count 0 in the first instruction after the 5-word header
cp "$T/good.spv" "$T/wc0.spv"
printf '\021\000\000\000' | dd of="$T/wc0.spv" bs=1 seek=20 conv=notrunc 2>/dev/null
# id >= bound: raise nothing, lower the bound to 2
cp "$T/good.spv" "$T/bound.spv"
printf '\002\000\000\000' | dd of="$T/bound.spv" bs=1 seek=12 conv=notrunc 2>/dev/null
printf 'not spir-v at all' > "$T/magic.spv"

cat > "$T/plan.json" <<'PLAN'
{"kernels": [
  {"name": "good", "shader": "good.spv", "workgroups": [4, 1, 1],
   "push": {"n": 1024, "alpha": 2.0},
   "buffers": [{"binding": 0, "elements": 1024}, {"binding": 1, "elements": 1024}]},
  {"name": "truncated", "shader": "truncated.spv", "workgroups": [4, 1, 1]},
  {"name": "wc0", "shader": "wc0.spv", "workgroups": [4, 1, 1]},
  {"name": "bound", "shader": "bound.spv", "workgroups": [4, 1, 1]},
  {"name": "magic", "shader": "magic.spv", "workgroups": [4, 1, 1]}
]}
PLAN
expect_rc 2 "$CW" check --format json -o "$T/r.json" "$T/plan.json"
n=$(grep -c '"id": "spirv-invalid"' "$T/r.json")
[ "$n" -eq 4 ] || fail "expected 4 spirv-invalid findings, got $n"
grep -q 'word count of 0' "$T/r.json" || fail "no word-count reason in the report"
grep -q 'out of range' "$T/r.json" || fail "no id-bound reason in the report"
# the good kernel was analysed: its local size was reflected
tr -d ' \n' < "$T/r.json" | grep -q '"name":"good".*"local_size":\[256,1,1\]' ||
    fail "good kernel not analysed"

# a .spv built with -g: static findings name the GLSL file and line
glslc -g --target-env=vulkan1.0 examples/kernels/reduce.comp -o "$T/reduce.spv" ||
    fail "glslc cannot compile reduce"
cat > "$T/spv.json" <<'PLAN'
{"kernels": [{"name": "reduce", "shader": "reduce.spv", "workgroups": [4, 1, 1],
  "push": {"n": 1024}, "buffers": [{"binding": 0, "elements": 1024}]}]}
PLAN
expect_rc 1 "$CW" check --format json -o "$T/spv.out" "$T/spv.json"
tr -d ' \n' < "$T/spv.out" |
    grep -q '"file":"[^"]*examples/kernels/reduce.comp","line":20' ||
    fail "binding-missing does not name reduce.comp:20: $(cat "$T/spv.out")"

# static checks through the CLI
expect_rc 1 "$CW" check tests/corpus/push_typo/plan.json
expect_out "did you mean 'alpha'" "$CW" check tests/corpus/push_typo/plan.json
"$CW" check --format json -o "$T/p.json" tests/corpus/binding_wrong_set/plan.json
grep -q '"id": "binding-missing"' "$T/p.json" || fail "binding-missing not in JSON"
"$CW" check --format sarif -o "$T/s.sarif" tests/corpus/shared_2d_tile/plan.json
grep -q '"ruleId": "shared-memory-limit"' "$T/s.sarif" || fail "SARIF lacks shared-memory-limit"
# every URI in the SARIF is real: no made-up host (informationUri is left out)
grep -q 'informationUri\|\.invalid' "$T/s.sarif" && fail "SARIF points at a made-up host"
python3 - "$T/s.sarif" <<'PY' || fail "SARIF URIs"
import json, sys, re
s = json.load(open(sys.argv[1]))
def walk(o):
    if isinstance(o, dict):
        for k, v in o.items():
            if k.lower().endswith("uri") and isinstance(v, str) and re.match(r"https?://", v):
                assert not re.search(r"\.(invalid|example|test)(/|$)", v), v
            walk(v)
    elif isinstance(o, list):
        for v in o:
            walk(v)
walk(s)
PY
expect_rc 2 "$CW" check tests/corpus/entry_missing/plan.json
expect_rc 0 "$CW" check tests/corpus/clean_examples/plan.json

# local-memory-array on the H200 profile: the softmax probe whose store loop
# indexes its register array by a kept counter (line 74), and none on the
# variants whose loops unroll (H200 run 15: 196.5 against 107.8 us)
"$CW" check --device h200 --format json -o "$T/softmax.json" bench/gpu/probes/softmax.json ||
    fail "check softmax probes exit $?"
python3 - "$T/softmax.json" <<'PY' || fail "local-memory-array"
import json, sys
r = json.load(open(sys.argv[1]))
got = {k["name"]: [f for f in k["findings"] if f["id"] == "local-memory-array"] for k in r["kernels"]}
f = got.pop("sm_orig")
assert len(f) == 1 and f[0]["line"] == 74 and f[0]["severity"] == "warning", f
assert f[0]["variable"] == "v" and f[0]["accesses_per_invocation"] == 32, f
assert all(not v for v in got.values()), got
PY
pass
