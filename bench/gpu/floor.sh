#!/bin/sh
# The timing floor against a bare harness: the same dispatches timed by
# `clockwork run` and by bench/gpu/tsbare.c (timestamps around one dispatch,
# nothing else), side by side.  On a GPU the runner must agree with the
# bare harness within FLOOR_MAX_DIFF_US (default 0.5 us); exit 1 otherwise.
# On the CPU device (lavapipe) the table is printed and not judged: there a
# dispatch is host work and the spread between samples is tens of us.
#   sh bench/gpu/floor.sh [BUILD] [clockwork run args]
# Builds tsbare and the SPIR-V into BUILD/bench when they are missing
# (needs cc and glslc); a GPU machine gets them prebuilt in BUILD/bench.
BUILD=${1:-build}
[ $# -gt 0 ] && shift
CW=${CW:-$BUILD/clockwork}
OUTDIR=${FLOOR_OUT:-$BUILD/floor}
MAXD=${FLOOR_MAX_DIFF_US:-0.5}
N=${FLOOR_SAMPLES:-200}
HERE=$(dirname "$0")
B=$BUILD/bench
mkdir -p "$B" "$OUTDIR"
if [ ! -x "$B/tsbare" ]; then
    ${CC:-cc} -std=c11 -O2 -Wall -o "$B/tsbare" "$HERE/tsbare.c" -lvulkan || exit 1
fi
for k in empty:"$HERE/kernels/empty.comp" copy:"$HERE/../accuracy/kernels/copy.comp"; do
    n=${k%%:*}; src=${k#*:}
    [ -s "$B/$n.spv" ] || glslc -fshader-stage=comp "$src" -o "$B/$n.spv" || exit 1
done
# the bare harness: kernel spv gx gy gz nbuf elems push...
{
    echo "empty_1x64 $(TSBARE_SAMPLES=$N "$B/tsbare" "$B/empty.spv" 1 1 1 0 0)"
    echo "copy_1x256 $(TSBARE_SAMPLES=$N "$B/tsbare" "$B/copy.spv" 1 1 1 2 256 256)"
    echo "copy_8192x256 $(TSBARE_SAMPLES=$N "$B/tsbare" "$B/copy.spv" 8192 1 1 2 2097152 2097152)"
} > "$OUTDIR/tsbare.txt" || exit 1
"$CW" run --samples "$N" --warmup 20 --format json -o "$OUTDIR/floor-run.json" \
    "$@" "$HERE/tiny-plan.json" > /dev/null
rc=$?
[ $rc -le 3 ] || { echo "clockwork run failed (exit $rc)"; exit 1; }
python3 - "$OUTDIR/tsbare.txt" "$OUTDIR/floor-run.json" "$MAXD" <<'PY'
import json, sys
bare = {}
for line in open(sys.argv[1]):
    f = line.split()
    bare[f[0]] = (float(f[1]), float(f[2]), float(f[5]), " ".join(f[7:]))
rep = json.load(open(sys.argv[2]))
maxd = float(sys.argv[3])
dev = rep.get("device", {})
cpu = "llvmpipe" in str(dev) or dev.get("type") == "cpu"
print("timing floor: clockwork run vs the bare timestamp harness (bench/gpu/tsbare.c)")
print("device: %s" % next(iter(bare.values()))[3])
print("%-15s %10s %10s %10s %10s %9s" % ("kernel", "bare_med", "run_med", "bare_min",
                                        "run_min", "diff_us"))
worst = 0.0
for k in rep["kernels"]:
    m = k.get("measurement") or {}
    if k["name"] not in bare or "median_us" not in m:
        print("%-15s missing" % k["name"]); worst = 1e9; continue
    b = bare[k["name"]]
    d = m["median_us"] - b[0]
    worst = max(worst, abs(d))
    print("%-15s %10.3f %10.3f %10.3f %10.3f %+9.3f" % (k["name"], b[0], m["median_us"],
                                                     b[1], m["min_us"], d))
print("back-to-back timestamps (bare): %.3f us" % next(iter(bare.values()))[2])
if cpu:
    print("CPU device: not judged (limit %.2f us applies to GPUs)" % maxd)
    sys.exit(0)
print("largest |diff| %.3f us, limit %.2f us: %s" % (worst, maxd, "ok" if worst <= maxd else "FAIL"))
sys.exit(0 if worst <= maxd else 1)
PY
