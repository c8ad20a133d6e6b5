#!/bin/sh
# TUI speed: time to render the main view with 1,000 kernels (target
# < 5 ms per frame), the time from measuring a kernel to its first sample,
# and the CPU use of the idle TUI (target < 1%), with the bytes it writes
# to the terminal while nothing changes.
. "$(dirname "$0")/lib.sh"
bench_build tui_bench bench/tui_bench.c $(pkg-config --cflags ncursesw) -Itests/unit
echo "-- render the main view, 1,000 kernels (median of 200 frames)"
"$BUILD/bench/tui_bench" || exit 1

# the time from a kernel's measurement starting (the TUI's r key) to its
# first live sample, GPU kernels in the device process and in-process
bench_build tui_measure_bench bench/tui_measure_bench.c
for profile in "" h200; do
    echo
    echo "-- examples/plan.json's matmul_tiled, ${profile:-the device's} profile: to the first sample (median of 5 rounds)"
    python3 -c 'import json, sys
p = json.load(open("examples/plan.json"))
k = [k for k in p["kernels"] if k["name"] == "matmul_tiled"][0]
k["shader"] = sys.argv[1] + "/examples/kernels/matmul_tiled.comp"
json.dump({"kernels": [k]}, open(sys.argv[2], "w"))' "$(pwd)" "$BUILD/bench/tui_measure.json" || exit 1
    CW_BENCH_PROFILE=$profile "$BUILD/bench/tui_measure_bench" "$BUILD/bench/tui_measure.json" 5 | tail -n 1
    CW_BENCH_PROFILE=$profile CW_NO_SUPERVISE=1 "$BUILD/bench/tui_measure_bench" \
        "$BUILD/bench/tui_measure.json" 5 | tail -n 1
done

echo
echo "-- idle TUI: CPU use and terminal output over ${IDLE_SECONDS:=10} s"
command -v tmux >/dev/null || { echo "tmux missing: idle CPU not measured"; exit 0; }
CW="$(cd "$BUILD" && pwd)/clockwork"
SOCK="cwbench-$$"
T="$(mktemp -d)"
trap 'tmux -L "$SOCK" kill-server 2>/dev/null; rm -rf "$T"' EXIT INT TERM
HZ=$(getconf CLK_TCK)
printf '%-34s %10s %12s %10s\n' "run" "CPU %" "bytes out" "target"
idle() { # idle LABEL WAIT-REGEX ARGS...
    label=$1 want=$2
    shift 2
    tmux -L "$SOCK" -f /dev/null new-session -d -s b -x 120 -y 40 \
        "env TERM=screen-256color LANG=C.UTF-8 $CW tui $*; sleep 60"
    i=0
    until tmux -L "$SOCK" capture-pane -p -t b | grep -Eq "$want"; do
        i=$((i + 1))
        [ $i -gt 600 ] && { echo "$label: did not settle"; tmux -L "$SOCK" kill-server; return; }
        sleep 0.2
    done
    sleep 1.5 # let the last redraw and the worker's idle state settle
    shpid=$(tmux -L "$SOCK" display -p -t b '#{pane_pid}')
    pid=$(pgrep -P "$shpid" | head -n 1)
    : > "$T/out"
    tmux -L "$SOCK" pipe-pane -t b "cat >> $T/out"
    t0=$(awk '{print $14 + $15}' "/proc/$pid/stat")
    sleep "$IDLE_SECONDS"
    t1=$(awk '{print $14 + $15}' "/proc/$pid/stat")
    tmux -L "$SOCK" pipe-pane -t b
    bytes=$(wc -c < "$T/out")
    cpu=$(awk -v a="$t0" -v b="$t1" -v hz="$HZ" -v s="$IDLE_SECONDS" \
        'BEGIN { printf "%.2f", (b - a) / hz / s * 100 }')
    printf '%-34s %10s %12s %10s\n' "$label" "$cpu" "$bytes" "< 1%"
    tmux -L "$SOCK" kill-server 2>/dev/null
    sleep 0.3
}
idle "static, examples/plan.json" 'static only' --static examples/plan.json
idle "measured, then idle" 'done · [0-9]+ measured' --samples 5 --budget 0.2 \
    tests/screen/plan.json
