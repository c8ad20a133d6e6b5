#!/bin/sh
# The checks every held-out set (bench/gpu/blindN) passes, for its
# integration script tests/integration/blindN_plan.sh:
#   sh tests/heldout/set_check.sh SET_DIR HALF COUNT [GENERATED_FILE...]
# gen.py writes exactly the committed plan.json, plan-cpu.json, split.json
# (and the GENERATED_FILEs); the two plans hold the same kernels, every
# one in the split's HALF and nowhere else, with a line on what it is;
# no H200 grid dimension over 65,535 workgroups and no buffer of a known
# element type over 1 GiB; where the prediction committed before the
# measurement exists (docs/h200/HALF-predicted-before.csv and .json), it
# is of these kernels with these workgroups and the CSV and the JSON
# agree; plan-cpu.json checks without an error finding on this machine's
# device; verify.py finds all COUNT kernels' results correct.
# Needs CW (the binary) and CW_TEST_ROOT (the checkout); exit 1 on a failure.
set -u
fail() { echo "FAIL: $*"; exit 1; }
B=$1
HALF=$2
COUNT=$3
shift 3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$CW_TEST_ROOT" || fail "no CW_TEST_ROOT"
mkdir -p "$dir/bench/gpu" "$dir/bench/accuracy"
cp -r "$B" "$dir/$B"
cp bench/gpu/heldout.py "$dir/bench/gpu/"
cp bench/accuracy/gen_plans.py "$dir/bench/accuracy/"
python3 -B "$dir/$B/gen.py" || fail "gen.py"
for f in plan.json plan-cpu.json split.json "$@"; do
    cmp -s "$B/$f" "$dir/$B/$f" || fail "$B/$f differs from what gen.py writes"
done
python3 - "$B" "$HALF" <<'PY' || fail "plans, split and prediction disagree"
import csv, json, os, re, sys
b, half = sys.argv[1], sys.argv[2]
gpu = json.load(open(b + "/plan.json"))["kernels"]
cpu = json.load(open(b + "/plan-cpu.json"))["kernels"]
split = json.load(open(b + "/split.json"))
names = [k["name"] for k in gpu]
assert names == [k["name"] for k in cpu], "the two plans hold the same kernels"
assert sorted(split[half]) == sorted(names), "every kernel in '%s'" % half
assert not split["train"] and not split["test"], "no train or test half"
assert sorted(split["what"]) == sorted(names), "a line on what each kernel is"
SCALAR = {"double": 8, "float": 4, "int": 4, "uint": 4, "float16_t": 2, "int16_t": 2,
          "uint16_t": 2, "int8_t": 1, "uint8_t": 1}
VEC = {"dvec": 8, "vec": 4, "ivec": 4, "uvec": 4, "f16vec": 2, "i16vec": 2, "u16vec": 2,
       "i8vec": 1, "u8vec": 1}


def stride(t):
    """The std430 array stride of element type t, None for a struct."""
    if t in SCALAR:
        return SCALAR[t]
    m = re.fullmatch(r"([a-z0-9]*vec)([234])", t)
    if not m or m.group(1) not in VEC:
        return None
    return VEC[m.group(1)] * (4 if m.group(2) == "3" else int(m.group(2)))


for k in gpu:
    assert max(k["workgroups"]) <= 65535, (k["name"], k["workgroups"])
    src = open(os.path.join(b, k["shader"])).read()
    types = dict((int(m.group(1)), m.group(2)) for m in
                 re.finditer(r"binding = (\d+)\)[^{]*\{ (\w+) \w+\[\]", src))
    for buf in k["buffers"]:
        s = stride(types.get(buf["binding"], ""))
        if s is not None:
            assert buf["elements"] * s <= 1 << 30, (k["name"], buf["binding"])
pred = "docs/h200/%s-predicted-before" % half
if os.path.exists(pred + ".json"):
    kern = json.load(open(pred + ".json"))["kernels"]
    assert [k["name"] for k in kern] == names, "the JSON prediction covers the plan"
    for k, p in zip(gpu, kern):
        assert p["workgroups"] == k["workgroups"], (k["name"], p["workgroups"], k["workgroups"])
        assert p["plan"] == b + "/plan.json", p["plan"]
    rows = {r["kernel"]: r for r in csv.DictReader(open(pred + ".csv"))}
    assert sorted(rows) == sorted(names), "the CSV prediction covers the plan"
    for p in kern:
        t = float(rows[p["name"]]["predicted_us"])
        assert abs(t - p["prediction"]["time_us"]) <= 0.051 + 1e-3 * t, (p["name"], t)
else:
    print("%s: no committed prediction yet (%s.*)" % (half, pred))
PY
"$CW" check "$B/plan-cpu.json" > "$dir/check.out" 2>&1; rc=$?
[ $rc -eq 0 ] || { cat "$dir/check.out"; fail "check $B/plan-cpu.json exit $rc"; }
python3 -B "$B/verify.py" "$CW" > "$dir/verify.out" 2>&1; rc=$?
tail -1 "$dir/verify.out"
[ $rc -eq 0 ] || { cat "$dir/verify.out"; fail "verify.py exit $rc"; }
grep -q "^$COUNT of $COUNT kernels agree with the reference\$" "$dir/verify.out" ||
    fail "verify.py's count"
