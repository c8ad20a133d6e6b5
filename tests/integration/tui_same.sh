#!/bin/sh
# The TUI shows the same kernel reports whether its GPU kernels are
# measured in device processes (app/devchild.c, which predict from the
# TUI's own analysis) or in the TUI's process (CW_NO_SUPERVISE=1): the
# reports it holds for examples/plan.json (bench/tui_measure_bench.c writes
# them) agree apart from timings, i.e. the measurement's numbers, the
# verdict drawn from them and the verdict's findings (ceiling-exceeded,
# far-below-roofline); the counters' names, availability and reasons agree
# too.  Every kernel has a prediction and all but the one with error
# findings (saxpy_noguard, not run) were measured in both.
ROOT="${CW_TEST_ROOT:-.}"
cd "$ROOT" || exit 1
: "${BUILD:=build}" "${CW:=$BUILD/clockwork}"
T="$(mktemp -d)"
trap 'rm -rf "$T"' EXIT INT TERM
FAILS=0
fail() { echo "FAIL: $*"; FAILS=$((FAILS + 1)); }
ok() { echo "ok: $*"; }
set -- "$BUILD"
. bench/lib.sh
if grep -q __asan_init "$CW"; then # the archives are the ASan build's
    CC=clang bench_build tui_measure_bench bench/tui_measure_bench.c -O1 -g \
        -fsanitize=address,undefined -fno-omit-frame-pointer
else
    bench_build tui_measure_bench bench/tui_measure_bench.c
fi
for mode in child inproc; do
    if [ $mode = inproc ]; then export CW_NO_SUPERVISE=1; else unset CW_NO_SUPERVISE; fi
    CW_BENCH_SAMPLES=3 CW_BENCH_BUDGET_S=0.1 timeout 300 "$BUILD/bench/tui_measure_bench" \
        examples/plan.json 1 "$T/$mode.json" > "$T/$mode.out" 2>&1 &&
        ok "$mode: the TUI's reports written" || { fail "$mode: $(tail -n 5 "$T/$mode.out")"; }
done
unset CW_NO_SUPERVISE
python3 - "$T/child.json" "$T/inproc.json" <<'PY' && ok "supervised and in-process reports agree apart from timings" || fail "they differ"
import json, sys
TIMED = {"ceiling-exceeded", "far-below-roofline"}
NUMBERS = {"samples", "median_us", "mad_us", "min_us", "max_us", "p90_us", "cold_us",
           "sample_us", "machine_load", "counters", "counted_span_us", "wait"}
def static(k):
    k = dict(k)
    m = k.pop("measurement", None) or {}
    k.pop("divergence", None)
    k["findings"] = [f for f in k.get("findings", []) if f.get("id") not in TIMED]
    k["measurement keys"] = sorted(x for x in m if x not in NUMBERS)
    k["counters"] = [(n, c.get("available"), c.get("reason")) for n, c in (m.get("counters") or {}).items()]
    k["error"] = m.get("error")
    return k
a, b = (json.load(open(p))["kernels"] for p in sys.argv[1:3])
bad = len(a) != len(b) or len(a) != 7
for ka, kb in zip(a, b):
    sa, sb = static(ka), static(kb)
    for key in sorted(set(sa) | set(sb)):
        if sa.get(key) != sb.get(key):
            bad = True
            print("  %s %s:\n    child:     %s\n    in-process: %s" % (ka["name"], key,
                  json.dumps(sa.get(key))[:300], json.dumps(sb.get(key))[:300]))
    if not (ka.get("prediction") or {}).get("time_us"):
        bad = True
        print("  %s: no prediction" % ka["name"])
    ran = [bool((k.get("measurement") or {}).get("samples")) for k in (ka, kb)]
    if ran != [ka["name"] != "saxpy_noguard"] * 2:
        bad = True
        print("  %s: measured (child, in-process) %s" % (ka["name"], ran))
sys.exit(1 if bad else 0)
PY
echo "$FAILS failure(s)"
[ "$FAILS" -eq 0 ]
