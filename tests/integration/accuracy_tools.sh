#!/bin/sh
# The accuracy tools: bench/accuracy/table.py computes per-kernel errors,
# keeps a kernel's lowest measurement over several reports, splits the
# summary by the named halves and exits 1 above --max-median (numbers
# checked against hand-computed ones); the corpus plans the generator writes
# are the committed ones and every kernel is in exactly one half; the timing
# floor against the bare harness (bench/gpu/floor.sh) runs on the CPU device
# and prints both medians for each kernel.
set -u
fail() { echo "FAIL: $*"; exit 1; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$CW_TEST_ROOT" || fail "no CW_TEST_ROOT"
T=bench/accuracy/table.py
H="kernel,kind,bound,ideal_us,predicted_us,flops,bytes,confidence,measured_median_us,mad_us,min_us,max_us,samples,invocations,ratio,status,errors,warnings,notes"
{
    echo "$H"
    echo "a,gpu,dram,1,110,0,0,exact,100,,90,,,,,ok,0,0,0"
    echo "b,gpu,dram,1,50,0,0,exact,100,,95,,,,,ok,0,0,0"
    echo "c,gpu,dram,1,300,0,0,exact,100,,99,,,,,ok,0,0,0"
    echo "d,gpu,dram,1,100,0,0,exact,,,,,,,,unknown,0,0,0"
} > "$dir/r1.csv"
{
    echo "$H"
    echo "a,gpu,dram,1,110,0,0,exact,200,,190,,,,,ok,0,0,0"
    echo "b,gpu,dram,1,50,0,0,exact,80,,70,,,,,ok,0,0,0"
} > "$dir/r2.csv"
echo '{"train": ["a", "b"], "test": ["c"]}' > "$dir/split.json"
python3 $T --split "$dir/split.json" "$dir/r1.csv" "$dir/r2.csv" > "$dir/out"; rc=$?
cat "$dir/out"
[ $rc -eq 0 ] || fail "table.py exit $rc"
# a: 110 vs 100 = +10%; b: 50 vs min(100, 80) = -37.5%; c: +200% (> 2x)
grep -q '^a .* +10.0%$' "$dir/out" || fail "kernel a's error"
grep -q '^b .* -37.5%$' "$dir/out" || fail "kernel b keeps its lowest median"
grep -q '^c .* +200.0%  >2x$' "$dir/out" || fail "kernel c flagged > 2x"
grep -q '^d .*n/a$' "$dir/out" || fail "a kernel without a measurement"
grep -q '^train   2 kernels: median  23.8%' "$dir/out" || fail "train median (10, 37.5)"
grep -q '^test    1 kernels: median 200.0%, p90 200.0%, worst  200.0%, 1 off' "$dir/out" ||
    fail "test half"
grep -q '^all     3 kernels: median  37.5%, p90 167.5%' "$dir/out" || fail "overall (p90 interpolated)"
python3 $T --split "$dir/split.json" --max-median 30 "$dir/r1.csv" > /dev/null
[ $? -eq 1 ] || fail "--max-median 30 with a 37.5% median must exit 1"
python3 $T --stat min --split "$dir/split.json" "$dir/r1.csv" | grep -q '^a .* +22.2%$' ||
    fail "--stat min compares with the best sample (110 vs 90)"
python3 $T "$dir/nonexistent.csv" > /dev/null 2>&1
[ $? -ne 0 ] || fail "a missing report is an error"

# the committed plans are what the generator writes; the halves partition them
cp bench/accuracy/plan.json bench/accuracy/plan-gpu.json bench/accuracy/split.json "$dir/"
python3 bench/accuracy/gen_plans.py || fail "gen_plans.py"
for f in plan.json plan-gpu.json split.json; do
    cmp -s "bench/accuracy/$f" "$dir/$f" || { cp "$dir/$f" bench/accuracy/; fail "$f differs from gen_plans.py's"; }
done
python3 - <<'PY' || fail "halves"
import json
s = json.load(open("bench/accuracy/split.json"))
names = [k["name"] for k in json.load(open("bench/accuracy/plan-gpu.json"))["kernels"]]
cpu = [k["name"] for k in json.load(open("bench/accuracy/plan.json"))["kernels"]]
assert names == cpu, "the two plans hold the same kernels"
assert len(names) >= 40, len(names)
assert sorted(s["train"] + s["test"]) == sorted(names), "every kernel in one half"
assert not set(s["train"]) & set(s["test"])
PY

# the floor against the bare harness, on the CPU device (not judged there)
if command -v glslc > /dev/null && command -v cc > /dev/null; then
    FLOOR_OUT="$dir/floor" FLOOR_SAMPLES=20 sh bench/gpu/floor.sh "$BUILD" > "$dir/floor.txt" 2>&1
    rc=$?
    cat "$dir/floor.txt"
    [ $rc -eq 0 ] || fail "floor.sh exit $rc"
    for k in empty_1x64 copy_1x256 copy_8192x256; do
        grep -Eq "^$k +[0-9.]+ +[0-9.]+ " "$dir/floor.txt" || fail "floor row $k"
    done
fi

# bench/accuracy/passes.py: pass-to-pass agreement, by hand: a 100 / 250
# (2.5x), b 100 / 104 (1.04x), c in one report only (not counted); one
# clock check warmed up more, one gave up
cat > "$dir/p1.json" <<'JSON'
{"kernels": [{"name": "a", "measurement": {"median_us": 100, "clock": {"extra_warmup_s": 0.3, "settled": true}}},
 {"name": "b", "measurement": {"median_us": 100}}, {"name": "c", "measurement": {"median_us": 5}}]}
JSON
cat > "$dir/p2.json" <<'JSON'
{"kernels": [{"name": "a", "measurement": {"median_us": 250, "clock": {"extra_warmup_s": 3.1, "settled": false}}},
 {"name": "b", "measurement": {"median_us": 104}}]}
JSON
out=$(python3 bench/accuracy/passes.py "$dir/p1.json" "$dir/p2.json") || fail "passes.py exit $?"
echo "$out"
echo "$out" | grep -q "^a .*100.0 / 250.0  ratio 2.500" || fail "passes.py: row a"
echo "$out" | grep -q "^b " && fail "passes.py: b (1.04x) shown under --show 1.05"
echo "$out" | grep -q "2 kernels, 2 passes: worst ratio 2.500 (a), 1 differ by > 20%, 1 by > 5%; clock checks that warmed up more: 2, that gave up: 1" ||
    fail "passes.py: summary"
python3 bench/accuracy/passes.py "$dir/p1.json" > /dev/null 2>&1 && fail "passes.py: one report accepted"
echo "accuracy_tools: ok"
