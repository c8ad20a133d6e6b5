#!/bin/sh
# docs/plan.schema.json against the plan loader (core/plan.c):
#   - the keys the loader accepts at each level (its key tables) are the
#     schema's properties there, no more, no fewer;
#   - every plan in examples/, tests/corpus/, tests/screen/ and bench/
#     validates;
#   - a table of plans: valid ones pass both the schema and `clockwork
#     check`; invalid ones (unknown keys at every level, wrong types, sizes,
#     both/neither of bytes and elements, bad init, kind, workgroups...) fail
#     both (check: exit 2 naming the plan file).
#   - docs/plan.md names every key.
set -u
. "$(dirname "$0")/../lib.sh"
test_tmpdir
python3 -c 'import jsonschema' 2>/dev/null || fail "python3-jsonschema missing (make deps)"
cd "$ROOT" || exit 1

python3 - core/plan.c docs/plan.schema.json docs/plan.md <<'PY' || fail "schema keys vs the loader"
import json, re, sys
src = open(sys.argv[1]).read()
schema = json.load(open(sys.argv[2]))
doc = open(sys.argv[3]).read()
D = schema["definitions"]
def table(func, var="keys"):
    body = src[src.index(func):]
    m = re.search(r"static const char \*const " + var + r"\[\] = \{(.*?)\};", body, re.S)
    assert m, (func, var)
    return set(re.findall(r'"([a-z_]+)"', m.group(1)))
levels = {
    "top": (table("int plan_load_text(", "top_keys"), set(schema["properties"])),
    "gpu kernel": (table("static int parse_gpu_kernel("), set(D["gpu_kernel"]["properties"])),
    "cpu kernel": (table("static int parse_cpu_kernel("), set(D["cpu_kernel"]["properties"])),
    "cpu work": (table("static int parse_cpu_kernel(", "work_keys"),
                 set(D["cpu_kernel"]["properties"]["work"]["properties"])),
    "gpu buffer": (table("static int parse_buffers("), set(D["gpu_buffer"]["properties"])),
    "cpu buffer": (table("static int parse_buffers("), set(D["cpu_buffer"]["properties"])),
    "expect": (table("static int parse_expect("), set(D["expect"]["properties"])),
}
bad = 0
allkeys = set()
for lvl, (loader, sch) in levels.items():
    allkeys |= loader
    if loader != sch:
        bad = 1
        print(f"{lvl}: loader only {sorted(loader - sch)}, schema only {sorted(sch - loader)}")
for k in sorted(allkeys):
    if f"`{k}`" not in doc:
        bad = 1
        print(f"docs/plan.md does not name `{k}`")
sys.exit(bad)
PY

python3 - docs/plan.schema.json <<'PY' || fail "plans in the tree do not validate"
import glob, json, sys, jsonschema
s = json.load(open(sys.argv[1]))
jsonschema.Draft7Validator.check_schema(s)
v = jsonschema.Draft7Validator(s)
files = sorted(set(glob.glob("examples/**/*.json", recursive=True) + glob.glob("tests/corpus/*/plan*.json")
                   + glob.glob("tests/screen/*.json") + glob.glob("bench/**/plan*.json", recursive=True)))
assert len(files) > 20, files
bad = 0
for f in files:
    for e in v.iter_errors(json.load(open(f))):
        print(f, "/".join(map(str, e.path)), e.message[:200]); bad = 1
print(len(files), "plans validate")
sys.exit(bad)
PY

# ---- a table of plans: schema and loader agree ----
cp "$ROOT/examples/kernels/saxpy.comp" "$T/"
printf 'int k(void *const b[], const long a[]) { (void)b; (void)a; return 0; }\n' > "$T/k.c"
cc -shared -fPIC -o "$T/libk.so" "$T/k.c" || fail "cc"
G='"shader": "saxpy.comp", "workgroups": [4], "push": {"n": 1024, "alpha": 2}'
B='{"binding": 0, "elements": 1024}, {"binding": 1, "elements": 1024}'
C='"kind": "cpu", "library": "libk.so", "symbol": "k"'
n=0
while IFS='|' read -r want plan; do
    [ -z "$want" ] && continue
    n=$((n + 1))
    printf '%s\n' "$plan" | sed "s|@G|$G|; s|@B|$B|; s|@C|$C|" > "$T/p$n.json"
    python3 - docs/plan.schema.json "$T/p$n.json" <<'PY'
import json, sys, jsonschema
v = jsonschema.Draft7Validator(json.load(open(sys.argv[1])))
sys.exit(0 if v.is_valid(json.load(open(sys.argv[2]))) else 3)
PY
    src=$?
    "$CW" check "$T/p$n.json" > /dev/null 2> "$T/err$n"; lrc=$?
    if [ "$want" = ok ]; then
        [ $src -eq 0 ] || fail "case $n: the schema rejects a valid plan: $(cat "$T/p$n.json")"
        [ $lrc -le 1 ] || fail "case $n: check exit $lrc on a valid plan: $(cat "$T/err$n")"
    else
        [ $src -eq 3 ] || fail "case $n: the schema accepts an invalid plan: $(cat "$T/p$n.json")"
        [ $lrc -eq 2 ] && grep -q "p$n.json" "$T/err$n" ||
            fail "case $n: check (exit $lrc) does not reject it naming the plan: $(cat "$T/err$n")"
    fi
done <<'CASES'
ok|{"kernels": [{@G, "buffers": [@B]}]}
ok|{"name": "p", "description": "d", "kernels": [{"name": "s", "kind": "gpu", "entry": "main", @G, "spec": {}, "buffers": [{"set": 0, "binding": 0, "bytes": 4096, "init": "ramp"}, {"binding": 1, "elements": 1024, "init": 1.5, "description": "y"}], "expect": {"min_efficiency": 0.5}}]}
ok|{"kernels": [{"shader": "saxpy.comp", "workgroups": [4, 1, 1], "push": {"0": 1024, "@4": 2.0}, "buffers": [@B]}]}
ok|{"kernels": [{@C, "args": {"n": 4}, "buffers": [{"bytes": 16}, {"elements": 4, "init": "zero"}], "work": {"flops": "2*n", "bytes": "8*n"}, "threads": 1, "expect": {"min_efficiency": 0}}]}
bad|{"kernels": []}
bad|{"kernel": [{@G, "buffers": [@B]}]}
bad|{"kernels": [{@G, "buffers": [@B], "workgroup": [1]}]}
bad|{"kernels": [{@G, "buffers": [{"binding": 0, "elements": 1024, "size": 4}, {"binding": 1, "elements": 1024}]}]}
bad|{"kernels": [{@G, "buffers": [{"binding": 0, "elements": 1024, "bytes": 4096}, {"binding": 1, "elements": 1024}]}]}
bad|{"kernels": [{@G, "buffers": [{"binding": 0}, {"binding": 1, "elements": 1024}]}]}
bad|{"kernels": [{@G, "buffers": [{"elements": 1024}, {"binding": 1, "elements": 1024}]}]}
bad|{"kernels": [{@G, "buffers": [{"binding": 0, "elements": -1}, {"binding": 1, "elements": 1024}]}]}
bad|{"kernels": [{@G, "buffers": [{"binding": 0, "elements": 1024, "init": "ones"}, {"binding": 1, "elements": 1024}]}]}
bad|{"kernels": [{"shader": "saxpy.comp", "workgroups": [4, 1, 1, 1], "buffers": [@B]}]}
bad|{"kernels": [{"shader": "saxpy.comp", "workgroups": [0], "buffers": [@B]}]}
bad|{"kernels": [{"shader": "saxpy.comp", "workgroups": "4", "buffers": [@B]}]}
bad|{"kernels": [{"shader": "saxpy.comp", "buffers": [@B]}]}
bad|{"kernels": [{@G, "push": {"n": "many"}, "buffers": [@B]}]}
bad|{"kernels": [{@G, "kind": "fpga", "buffers": [@B]}]}
bad|{"kernels": [{@G, "entry": "", "buffers": [@B]}]}
bad|{"kernels": [{@G, "buffers": [@B], "expect": {"min_efficiency": 2}}]}
bad|{"kernels": [{@G, "buffers": [@B], "expect": {"efficiency": 0.5}}]}
bad|{"kernels": [{@C, "args": {"n": 1.5}}]}
bad|{"kernels": [{@C, "work": {"flops": "1", "time": "2"}}]}
bad|{"kernels": [{@C, "threads": -1}]}
bad|{"kernels": [{@C, "shader": "saxpy.comp"}]}
bad|{"kernels": [{"kind": "cpu", "library": "libk.so"}]}
CASES
[ $n -gt 20 ] || fail "only $n cases"
echo "ok: $n plans, schema and loader agree"
