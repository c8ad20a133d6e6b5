#!/bin/sh
# The TUI survives a crash inside the Vulkan driver (issue 17): each GPU
# kernel is measured in a child process (app/devchild.c), so a driver that
# dies on one kernel ends that child only.  The crash is injected as in
# run_crash.sh (tests/integration/vkfault/vkfault.c through LD_PRELOAD):
#   - good, crashing, good (--snapshot, the batch TUI): both good kernels
#     measured, the crashing one named with the signal on the status line
#     and in its detail, exit 4;
#   - an abort() in a dispatch (out of memory): the same, SIGABRT named;
#   - a crash while opening the device: every prediction shown, the reason
#     given, exit 4; a deadlock opening it or in a dispatch: the silent
#     child killed, the next kernel measured (CW_SUPERVISE_SILENCE_S=5);
#   - the device process's warnings (an unusable cache folder) reach the
#     status line;
#   - interactive, in a private tmux server: the TUI is still up after the
#     crash, shows the other kernels' results, q exits 0 with the terminal
#     modes restored;
#   - CW_NO_SUPERVISE=1 (measuring in-process, as before) dies of SIGSEGV:
#     the test reaches the crash.
. "${CW_TEST_ROOT:-.}/tests/screen/lib.sh"
command -v tmux >/dev/null || { echo "tmux missing (make deps)"; exit 1; }
cc -O1 -fPIC -shared -o "$WORK/libvkfault.so" "$ROOT/tests/integration/vkfault/vkfault.c" -ldl ||
    { echo "FAIL: cannot build vkfault.c"; exit 1; }
SAXPY="$ROOT/examples/kernels/saxpy.comp"
k() { printf '{"name": "%s", "shader": "%s", "workgroups": [%s, 1, 1], "push": {"n": %s, "alpha": 2.0}, "buffers": [{"binding": 0, "elements": %s}, {"binding": 1, "elements": %s}]}' \
    "$1" "$SAXPY" "$2" $(($2 * 256)) $(($2 * 256)) $(($2 * 256)); }
printf '{"kernels": [%s,\n%s,\n%s]}\n' "$(k good1 4)" "$(k crasher 7)" "$(k good2 8)" > "$WORK/plan.json"
FAULT="env LD_PRELOAD=$WORK/libvkfault.so"
# the injected SIGSEGV is the point (see run_crash.sh)
if grep -q __asan_init "$CW"; then
    FAULT="$FAULT ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}handle_segv=0"
fi
measured() { grep -Eq "^ $2 +launch .* [0-9.]+(µs|ms) +[0-9.]+% " "$1"; }
snap() { # snap NAME VIEW ENV...: the batch TUI's screen in $WORK/NAME.txt
    name=$1 view=$2
    shift 2
    $FAULT "$@" timeout 120 "$CW" tui --snapshot "$view" --size 160x30 "$WORK/plan.json" \
        > "$WORK/$name.txt" 2> "$WORK/$name.err"
}

snap unsup main VKFAULT_DISPATCH_X=7 CW_NO_SUPERVISE=1; rc=$?
[ $rc -eq 139 ] && ok "unsupervised: the injected crash kills the TUI (139)" ||
    fail "unsupervised: exit $rc, want 139 (the crash was not reached)"

snap crash main VKFAULT_DISPATCH_X=7; rc=$?
[ $rc -eq 4 ] && ok "crash: exit 4" || fail "crash: exit $rc, want 4: $(cat "$WORK/crash.err")"
for n in good1 good2; do
    measured "$WORK/crash.txt" $n && ok "crash: $n measured" ||
        { fail "crash: $n not measured"; cat "$WORK/crash.txt"; }
done
grep -Eq '^ crasher .* error .* failed' "$WORK/crash.txt" && ok "crash: crasher failed" ||
    fail "crash: crasher row: $(grep crasher "$WORK/crash.txt")"
grep -q 'crasher: the Vulkan driver crashed (killed by SIGSEGV' "$WORK/crash.txt" &&
    ok "crash: the status line names the kernel and the signal" ||
    { fail "crash: status line"; cat "$WORK/crash.txt"; }

snap abort main VKFAULT_ABORT_X=7; rc=$?
[ $rc -eq 4 ] && ok "abort: exit 4" || fail "abort: exit $rc, want 4"
grep -q 'crasher: the Vulkan driver crashed (killed by SIGABRT: Aborted, or memory ran out)' \
    "$WORK/abort.txt" && ok "abort: the kernel named" || { fail "abort: status line"; cat "$WORK/abort.txt"; }
measured "$WORK/abort.txt" good2 && ok "abort: the next kernel measured" || fail "abort: good2"

snap open main VKFAULT_CREATE_DEVICE=1; rc=$?
[ $rc -eq 4 ] && ok "crash opening: exit 4" || fail "crash opening: exit $rc, want 4"
[ "$(grep -Ec '^ (good1|crasher|good2) +launch +[0-9.]+µs +[0-9.]+µs ' "$WORK/open.txt")" = 3 ] &&
    ok "crash opening: every prediction shown" || { fail "crash opening: predictions"; cat "$WORK/open.txt"; }
grep -q 'crashed (killed by SIGSEGV: .*) while opening the device' "$WORK/open.txt" &&
    ok "crash opening: the reason shown" || { fail "crash opening: reason"; cat "$WORK/open.txt"; }

snap hang main VKFAULT_HANG_X=7 CW_SUPERVISE_SILENCE_S=5; rc=$?
[ $rc -eq 4 ] && ok "driver deadlock: exit 4" || fail "driver deadlock: exit $rc, want 4"
measured "$WORK/hang.txt" good2 && ok "driver deadlock: the next kernel measured" ||
    { fail "driver deadlock: good2"; cat "$WORK/hang.txt"; }
snap hangopen detail VKFAULT_CREATE_DEVICE=hang CW_SUPERVISE_SILENCE_S=5; rc=$?
[ $rc -eq 4 ] && ok "deadlock opening: exit 4" || fail "deadlock opening: exit $rc, want 4"
grep -q 'no progress for 5 s while opening the device' "$WORK/hangopen.txt" &&
    ok "deadlock opening: named" || { fail "deadlock opening"; cat "$WORK/hangopen.txt"; }

# the device process's warnings reach the status line (its stderr would
# have drawn over the screen): an unusable shader-cache folder
snap cachewarn main MESA_SHADER_CACHE_DIR=/proc/clockwork-no-cache
grep -q "warning: the driver's shader cache folder /proc/clockwork-no-cache is not usable" \
    "$WORK/cachewarn.txt" && ok "device warning: on the status line" ||
    { fail "device warning not shown"; cat "$WORK/cachewarn.txt"; }

# interactive: the TUI outlives the crash and quits cleanly
live_t0=$(date +%s.%N)
start live 160 30 "$FAULT VKFAULT_DISPATCH_X=7 $CW tui $WORK/plan.json"
# up to two minutes, returning as soon as the text is there: the crash comes
# after good1's sampling, named 0.4-0.7 s after the start in a normal build
# (1.1-1.2 s under ASan in a warm worktree), but `make asan` on a fresh clone
# took 31.4 s (2026-12-01 17:40 UTC, load 0.6: good1 sampled 1000 times) and
# failed at the default 30 s wait; the time printed below says which it was
expect live 'crasher: the Vulkan driver crashed' "live: the crash is named on the status line" 600
expect live '^ good2 +launch .* [0-9.]+(µs|ms) +[0-9.]+% ' "live: the kernel after the crash measured" 600
echo "live: the crash and good2 were on the screen $(awk -v a="$live_t0" -v b="$(date +%s.%N)" \
    'BEGIN { printf "%.1f", b - a }') s after the start (load $(cut -d' ' -f1 /proc/loadavg))"
measured_live=$(screen live | grep -Ec '^ good1 +launch .* [0-9.]+(µs|ms) +[0-9.]+% ')
[ "$measured_live" = 1 ] && ok "live: the kernel before the crash still shown" || fail "live: good1 lost"
pid=$(child_pid live)
[ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && ok "live: the TUI is still running" ||
    fail "live: the TUI is gone"
keys live q
check_restored live
[ "$(cat "$WORK/live.rc" 2>/dev/null)" = 0 ] && ok "live: q exits 0" ||
    fail "live: exit status $(cat "$WORK/live.rc" 2>/dev/null), want 0"

echo "$FAILS failure(s)"
[ "$FAILS" -eq 0 ]
