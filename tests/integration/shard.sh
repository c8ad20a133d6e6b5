#!/bin/sh
# --shard and -o placeholders through the real binary, without a cluster:
# the Kubernetes Indexed Job path (JOB_COMPLETION_INDEX with an explicit
# count), shards with no kernels writing an empty, mergeable report, bad
# --shard values and launcher variables as exit 2 naming them, unknown
# placeholders, and duplicate kernel names warned by check.
. "$(dirname "$0")/../lib.sh"
ROOT=${CW_TEST_ROOT:-$(pwd)}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cd "$ROOT" || fail "cd"
P=tests/corpus/clean_examples/plan.json
"$CW" check -o "$T/single.json" $P > /dev/null 2>&1
single_rc=$?

# Kubernetes: JOB_COMPLETION_INDEX has no count; 7 shards for a few kernels
# leave some empty
for i in 0 1 2 3 4 5 6; do
    env -u SLURM_PROCID -u OMPI_COMM_WORLD_RANK -u PMIX_RANK JOB_COMPLETION_INDEX=$i \
        "$CW" check --shard auto/7 -o "$T/k-%r-of-%n.json" $P > /dev/null 2>&1
    rc=$?
    [ $rc -eq 0 ] || [ $rc -eq $single_rc ] || fail "shard $i/7 exited $rc"
done
[ "$(ls "$T"/k-*-of-7.json | wc -l)" -eq 7 ] || fail "not every shard wrote a report: $(ls "$T")"
empty=0
for f in "$T"/k-*.json; do
    python3 -c 'import json,sys; sys.exit(0 if json.load(open(sys.argv[1]))["kernels"] == [] else 1)' "$f" &&
        empty=$((empty + 1))
done
[ $empty -ge 1 ] || fail "expected an empty shard among 7 for $(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["kernels"]))' "$T/single.json") kernels"
"$CW" merge -o "$T/merged.json" "$T"/k-*.json 2> "$T/err"
rc=$?
[ $rc -eq $single_rc ] || fail "merge exited $rc: $(cat "$T/err")"
python3 - "$T/single.json" "$T/merged.json" << 'PY' || fail "merged differs from the single run"
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
kb = [dict((k, v) for k, v in x.items() if k != "source") for x in b["kernels"]]
assert a["kernels"] == kb
assert {s["provenance"]["shard"]["source"] for s in b["sources"]} == {"JOB_COMPLETION_INDEX/--shard"}
PY
# the same split on every run
env JOB_COMPLETION_INDEX=3 "$CW" check --shard auto/7 -o "$T/again.json" $P > /dev/null 2>&1
python3 - "$T/k-3-of-7.json" "$T/again.json" << 'PY' || fail "shard 3/7 differs between runs"
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
assert [k["name"] for k in a["kernels"]] == [k["name"] for k in b["kernels"]]
PY

# bad values: exit 2, the message names the culprit, no report
for bad in 4/4 1/0 x auto/0 -1/3; do
    "$CW" check --shard "$bad" -o "$T/bad.json" $P > /dev/null 2> "$T/err"
    rc=$?
    [ $rc -eq 2 ] || fail "--shard $bad exited $rc"
    grep -q -- "--shard" "$T/err" || fail "--shard $bad: $(cat "$T/err")"
done
env JOB_COMPLETION_INDEX=2 "$CW" check --shard auto -o "$T/bad.json" $P > /dev/null 2> "$T/err"
[ $? -eq 2 ] && grep -q "auto/N" "$T/err" || fail "index without count: $(cat "$T/err")"
env SLURM_PROCID=5 SLURM_NTASKS=4 "$CW" check --shard auto -o "$T/bad.json" $P > /dev/null 2> "$T/err"
[ $? -eq 2 ] && grep -q "SLURM_PROCID=5" "$T/err" || fail "rank beyond count: $(cat "$T/err")"
"$CW" check -o "$T/r-%z.json" $P > /dev/null 2> "$T/err"
[ $? -eq 2 ] && grep -q "'%z'" "$T/err" || fail "unknown placeholder: $(cat "$T/err")"
env -u CW_NOPE "$CW" check -o "$T/r-%q{CW_NOPE}.json" $P > /dev/null 2> "$T/err"
[ $? -eq 2 ] && grep -q "CW_NOPE" "$T/err" || fail "unset %q variable: $(cat "$T/err")"
[ ! -e "$T/bad.json" ] || fail "a report was written for bad input"
env CW_TAG=abc SLURM_JOB_ID=42 "$CW" check -o "$T/r-%q{CW_TAG}-%j-%n.json" $P > /dev/null 2>&1
[ -f "$T/r-abc-42-1.json" ] || fail "placeholders: $(ls "$T")"

# duplicate names: a warning on stderr and a finding, still exit as before
python3 - "$ROOT" "$T/dup.json" << 'PY'
import json, sys
k = {"shader": sys.argv[1] + "/examples/kernels/saxpy.comp", "workgroups": [8, 1, 1],
     "push": {"n": 2048, "alpha": 2.0},
     "buffers": [{"binding": 0, "elements": 2048}, {"binding": 1, "elements": 2048}]}
json.dump({"kernels": [dict(k, name="same"), dict(k, name="same")]}, open(sys.argv[2], "w"))
PY
"$CW" check -o "$T/dup-report.json" "$T/dup.json" > /dev/null 2> "$T/err"
grep -q "warning: kernel 'same' has the name of the kernel" "$T/err" || fail "no duplicate warning: $(cat "$T/err")"
python3 - "$T/dup-report.json" << 'PY' || fail "duplicate finding"
import json, sys
ks = json.load(open(sys.argv[1]))["kernels"]
assert [k["plan_index"] for k in ks] == [0, 1]
assert [f["id"] for f in ks[1]["findings"]].count("kernel-name-duplicate") == 1
assert "kernel-name-duplicate" not in [f["id"] for f in ks[0]["findings"]]
PY
pass
