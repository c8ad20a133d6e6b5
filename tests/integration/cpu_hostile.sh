#!/bin/sh
# Native CPU kernels that misbehave (issue 17) and CPU kernel inputs (issue 16):
#   - run: a kernel that segfaults, aborts, divides by zero, overflows its
#     stack, calls exit(0), writes 16 KiB / 64 bytes / 1 byte past its buffer,
#     or has a crashing constructor: clockwork names the kernel and the cause,
#     exits 4, writes the report, and keeps the measurements of the good
#     kernels before and after; a kernel's printf never reaches stdout;
#     a hanging kernel is killed by the hang guard and the next one still runs.
#     All under `ulimit -v` (not for an ASan binary) and an alarm (timeout).
#   - check: a missing symbol, a data symbol, a library that is not an ELF or
#     is truncated (its segments end past the file), and
#     a bare name the system search cannot find are errors naming them (exit
#     2); "library": "libX.so" next to the plan and a system library by bare
#     name are accepted by check and loaded by run; a CPU-only plan names the
#     CPU, not llvmpipe; with no Vulkan driver check invents no device name.
set -u
. "$(dirname "$0")/../lib.sh"
test_tmpdir
SRC="$ROOT/tests/integration/cpu_hostile"
# An ASan binary reserves terabytes of address space for its shadow memory
# and cannot start under any `ulimit -v`: there the limit is left out.
vlimit() { grep -q __asan_init "$CW" || ulimit -v "$1"; }
cc -O1 -fPIC -shared -w -o "$T/libhostile.so" "$SRC/hostile.c" || fail "cannot build hostile.c"
cc -O1 -fPIC -shared -w -o "$T/libctor.so" "$SRC/ctor.c" || fail "cannot build ctor.c"
for i in 1 2 3 4; do printf 'this is not an ELF file, only text pretending to be a library\n'; done > "$T/notelf.so"
# a copy cut short: its header is fine, its segments end past the file (it
# passed check clean, and the loader died of SIGBUS in run)
head -c 3000 "$T/libhostile.so" > "$T/libtrunc.so"

# kernel NAME SYMBOL [LIBRARY]: one plan entry
kernel() {
    printf '{"name": "%s", "kind": "cpu", "library": "%s", "symbol": "%s", "args": {"n": 1000, "z": 0}, "buffers": [{"bytes": 4000}], "work": {"flops": "n", "bytes": "8*n"}, "threads": 1}' \
        "$1" "${3:-libhostile.so}" "$2"
}
{
    printf '{"kernels": [\n'
    kernel good1 good; printf ',\n'
    for s in segv aborts divzero overflow exits past16k past64 past1 chatty; do
        kernel "$s" "$s"; printf ',\n'
    done
    kernel ctor k libctor.so; printf ',\n'
    kernel good2 good
    printf ']}\n'
} > "$T/run.json"

( vlimit 1048576; cd "$T" && timeout 120 "$CW" run --samples 2 --warmup 1 --format json \
    -o "$T/run.out.json" run.json ) > "$T/stdout" 2> "$T/err"; rc=$?
[ $rc -eq 4 ] || fail "run: exit $rc, want 4: $(cat "$T/err")"
[ -s "$T/stdout" ] && fail "run: something reached stdout: $(head -3 "$T/stdout")"
grep -q KERNEL-STDOUT "$T/err" || fail "run: the kernel's printf went nowhere"
python3 - "$T/run.out.json" <<'PY' || fail "run: report"
import json, sys
k = {x["name"]: x for x in json.load(open(sys.argv[1]))["kernels"]}
want = {
    "segv": "killed by SIGSEGV: invalid memory access (unmapped address) at address 0x10",
    "aborts": "killed by SIGABRT",
    "divzero": "killed by SIGFPE: integer division by zero",
    "overflow": "killed by SIGSEGV: stack overflow",
    "exits": "called exit(0)",
    "past16k": "96 bytes past the end of buffer 0 (4000 bytes; caught by the guard page)",
    "past64": "32 bytes past the end of buffer 0 (4000 bytes; caught by the guard page)",
    "past1": "wrote past the end of buffer 0 (4000 bytes): byte 0 after its end",
    "ctor": "failed while loading, in a constructor",
}
for name, text in want.items():
    e = k[name]["measurement"].get("error") or ""
    assert text in e, (name, e)
    assert ("kernel '%s'" % name) in e, (name, e)
    assert k[name]["prediction"]["time_us"] > 0, name       # the static part stays
for name in ("good1", "good2", "chatty"):
    m = k[name]["measurement"]
    assert m.get("error") is None and m["median_us"] > 0, (name, m)
PY
grep -q "kernel 'segv' (segv in ./libhostile.so) on call 1: killed by SIGSEGV" "$T/err" ||
    fail "run: stderr does not name the kernel and the signal: $(cat "$T/err")"
echo "ok: crashing, exiting and overrunning kernels are named (exit 4); good kernels kept"

# a kernel that never returns: the hang guard kills its process, the next runs
{
    printf '{"kernels": [\n'; kernel spin spins; printf ',\n'; kernel after good; printf ']}\n'
} > "$T/spin.json"
( vlimit 1048576; cd "$T" && timeout 60 "$CW" run --timeout 1 --samples 2 --format json \
    -o "$T/spin.out.json" spin.json ) > /dev/null 2> "$T/err"; rc=$?
[ $rc -eq 4 ] || fail "hang: exit $rc, want 4: $(cat "$T/err")"
python3 - "$T/spin.out.json" <<'PY' || fail "hang: report"
import json, sys
k = {x["name"]: x for x in json.load(open(sys.argv[1]))["kernels"]}
assert "did not return within 1 s (hang guard" in k["spin"]["measurement"]["error"], k["spin"]
assert k["after"]["measurement"]["median_us"] > 0
PY
echo "ok: a hanging kernel is killed by the hang guard; the next kernel runs"

# ---- check: inputs that run could not use are errors naming them ----
{
    printf '{"kernels": [\n'
    kernel ok good; printf ',\n'
    kernel missing no_such_fn; printf ',\n'
    kernel data data_symbol; printf ',\n'
    kernel notelf good notelf.so; printf ',\n'
    kernel nolib good libno_such_library_xyz.so; printf ',\n'
    kernel trunc good libtrunc.so; printf ',\n'
    kernel syslib cos libm.so.6
    printf ']}\n'
} > "$T/check.json"
( cd "$T" && timeout 60 "$CW" check --format json -o "$T/check.out.json" check.json ) \
    > "$T/out" 2>&1; rc=$?
[ $rc -eq 2 ] || fail "check: exit $rc, want 2: $(cat "$T/out")"
python3 - "$T/check.out.json" <<'PY' || fail "check: report"
import json, sys
r = json.load(open(sys.argv[1]))
k = {x["name"]: x for x in r["kernels"]}
def errors(n):
    return [(f["id"], f["message"]) for f in k[n]["findings"] if f["severity"] == "error"]
assert errors("ok") == [] and errors("syslib") == [], (errors("ok"), errors("syslib"))
for name, fid, text in [
        ("missing", "symbol-invalid", "symbol 'no_such_fn' is not defined in ./libhostile.so"),
        ("data", "symbol-invalid", "'data_symbol' in ./libhostile.so is a data symbol"),
        ("notelf", "library-invalid", "notelf.so is not a 64-bit little-endian ELF file"),
        ("nolib", "library-invalid", "library 'libno_such_library_xyz.so' is neither next to the plan nor found by the system search"),
        ("trunc", "library-invalid", "libtrunc.so is truncated: its loadable segment")]:
    e = errors(name)
    assert len(e) == 1 and e[0][0] == fid and text in e[0][1], (name, e)
assert "llvmpipe" not in r["device"]["name"], r["device"]      # a CPU-only plan
PY
echo "ok: check: missing / data symbol, non-ELF, unknown library are errors (exit 2)"

# run of the same plan: the bad kernels are not run; the plan-relative and
# the system library by bare name are loaded (check and run agree)
( cd "$T" && timeout 60 "$CW" run --samples 2 --warmup 1 --format json -o "$T/check.run.json" \
    check.json ) > /dev/null 2>&1; rc=$?
[ $rc -eq 2 ] || fail "run of the check plan: exit $rc, want 2"
python3 - "$T/check.run.json" <<'PY' || fail "run of the check plan: report"
import json, sys
k = {x["name"]: x for x in json.load(open(sys.argv[1]))["kernels"]}
for n in ("ok", "syslib"):
    assert k[n]["measurement"].get("error") is None and k[n]["measurement"]["median_us"] > 0, k[n]
for n in ("missing", "data", "notelf", "nolib", "trunc"):
    assert "not run" in k[n]["divergence"]["explanation"], k[n]["divergence"]
PY
echo "ok: run agrees: plan-relative and system libraries load, invalid ones are not run"

# ---- no Vulkan driver: check names no invented device ----
cat > "$T/gpu.json" <<J
{"kernels": [{"name": "saxpy_small", "shader": "$ROOT/examples/kernels/saxpy.comp",
  "workgroups": [4, 1, 1], "push": {"n": 1024, "alpha": 2.0},
  "buffers": [{"binding": 0, "elements": 1024}, {"binding": 1, "elements": 1024}]}]}
J
env VK_DRIVER_FILES=/nonexistent VK_ICD_FILENAMES=/nonexistent "$CW" check --format json \
    -o "$T/noicd.json" "$T/gpu.json" > /dev/null 2>&1; rc=$?
[ $rc -eq 0 ] || fail "no ICD: check exit $rc"
python3 - "$T/noicd.json" <<'PY' || fail "no ICD: device name"
import json, sys
d = json.load(open(sys.argv[1]))["device"]
assert not d["name"].startswith("llvmpipe"), d
assert "no Vulkan device" in d["name"], d
PY
echo "ok: no Vulkan driver: check says 'no Vulkan device', not llvmpipe"

# ---- a prediction beyond --timeout is said before running, with both numbers ----
cat > "$T/long.json" <<'J'
{"kernels": [
 {"name": "huge", "kind": "cpu", "library": "libhostile.so", "symbol": "spins", "args": {"n": 100000},
  "buffers": [{"bytes": 64}], "work": {"flops": "n*n*n*10"}, "threads": 1},
 {"name": "after", "kind": "cpu", "library": "libhostile.so", "symbol": "good", "args": {"n": 10},
  "buffers": [{"bytes": 64}], "threads": 1}]}
J
( cd "$T" && timeout 60 "$CW" run --timeout 2 --samples 2 --format json -o "$T/long.out.json" long.json ) \
    > /dev/null 2> "$T/err"; rc=$?
[ $rc -eq 4 ] || fail "predicted beyond --timeout: exit $rc, want 4: $(cat "$T/err")"
grep -q "huge: not run: the kernel is predicted to take .* longer than the hang guard's --timeout of 2 s" \
    "$T/err" || fail "predicted beyond --timeout: message: $(cat "$T/err")"
grep -q "never ends" "$T/err" && fail "predicted beyond --timeout: blamed on an endless loop"
python3 -c "import json,sys; k={x['name']: x for x in json.load(open(sys.argv[1]))['kernels']}; assert k['after']['measurement']['median_us'] > 0" \
    "$T/long.out.json" || fail "predicted beyond --timeout: the next kernel did not run"
echo "ok: a kernel predicted beyond --timeout is not run and the message gives both numbers"

# a kernel that forks a sleeper (holding the result socket open) and then
# crashes: the crash is seen at once, not after the timeout, and the sleeper
# goes with the kernel's process group
{ printf '{"kernels": [\n'; kernel forker forker; printf ']}\n'; } > "$T/fork.json"
t0=$(date +%s)
( cd "$T" && timeout 60 "$CW" run --timeout 20 --samples 2 --format json -o "$T/fork.out.json" fork.json ) \
    > /dev/null 2> "$T/err"; rc=$?
t1=$(date +%s)
[ $rc -eq 4 ] || fail "forker: exit $rc, want 4: $(cat "$T/err")"
grep -q "forker.*killed by SIGSEGV" "$T/err" || fail "forker: cause: $(cat "$T/err")"
[ $((t1 - t0)) -lt 15 ] || fail "forker: took $((t1 - t0)) s: the dead kernel looked hung"
echo "ok: a kernel's forked child holding the socket does not hide its crash"

# a kernel that writes garbage on every descriptor forever (the result
# socket included): stopped and named, well inside the timeout
{ printf '{"kernels": [\n'; kernel spew spew; printf ',\n'; kernel after good; printf ']}\n'; } > "$T/spew.json"
t0=$(date +%s)
( cd "$T" && timeout 60 "$CW" run --timeout 20 --samples 2 --format json -o "$T/spew.out.json" spew.json ) \
    > /dev/null 2> "$T/err"; rc=$?
t1=$(date +%s)
[ $rc -eq 4 ] || fail "spew: exit $rc, want 4: $(cat "$T/err")"
grep -q "spew.*wrote something other than a result on Clockwork's socket" "$T/err" ||
    fail "spew: cause: $(cat "$T/err")"
[ $((t1 - t0)) -lt 15 ] || fail "spew: took $((t1 - t0)) s"
python3 -c "import json,sys; k={x['name']: x for x in json.load(open(sys.argv[1]))['kernels']}; assert k['after']['measurement']['median_us'] > 0" \
    "$T/spew.out.json" || fail "spew: the next kernel did not run"
echo "ok: a kernel scribbling on the result socket is stopped and named"

# the same scribbler beside a GPU kernel: run's supervised device process
# talks to its parent over a pipe the kernel must not reach
printf '{"kernels": [{"name": "saxpy_small", "shader": "%s", "workgroups": [4, 1, 1], "push": {"n": 1024, "alpha": 2.0}, "buffers": [{"binding": 0, "elements": 1024}, {"binding": 1, "elements": 1024}]},\n%s]}\n' \
    "$ROOT/examples/kernels/saxpy.comp" "$(kernel spew spew)" > "$T/mixed.json"
( cd "$T" && timeout 120 "$CW" run --timeout 20 --samples 2 --format json -o "$T/mixed.out.json" mixed.json ) \
    > /dev/null 2> "$T/err"; rc=$?
[ $rc -eq 4 ] || fail "mixed: exit $rc, want 4: $(cat "$T/err")"
python3 -c "import json,sys; k={x['name']: x for x in json.load(open(sys.argv[1]))['kernels']}; assert k['saxpy_small']['measurement']['median_us'] > 0 and 'socket' in k['spew']['measurement']['error']" \
    "$T/mixed.out.json" || fail "mixed: report"
echo "ok: a scribbling CPU kernel beside a GPU kernel: the run and its report survive"
