#!/bin/sh
# Signals reaching the TUI while it is busy measuring (tui_tmux.sh covers an
# idle --static TUI): SIGINT, SIGTERM and SIGHUP during live sampling, and
# SIGTERM from the detail view, all in loop mode (l) so that the worker
# is measuring when the signal comes.  Each time: the process is gone (no
# orphaned worker), it died of the signal, the terminal modes are those it
# started with (stty -g before/after, and `stty -a` shows icanon and echo),
# and the alternate screen was left.  Also: the TUI with no Vulkan driver
# (predictions shown, the reason on the status line, q exits 0).  A private
# tmux server, killed on exit.
. "${CW_TEST_ROOT:-.}/tests/screen/lib.sh"
command -v tmux >/dev/null || { echo "tmux missing (make deps)"; exit 1; }
PLAN="$ROOT/tests/screen/plan.json"

# start_a NAME COMMAND...: start() (lib.sh) that also saves `stty -a` after
# the program, read from the pane's own terminal.  The exit status is
# written last and renamed into place (check_restored and cooked read the
# modes as soon as it exists: written first, it let them read a
# stty.after that did not exist yet, the "modes differ" seen under load)
start_a() {
    name=$1
    shift
    cat > "$WORK/$name.sh" <<INNER
stty -g > "$WORK/$name.stty.before"
$*
rc=\$?
stty -g > "$WORK/$name.stty.after"
stty -a > "$WORK/$name.stty.a"
echo \$rc > "$WORK/$name.rc.tmp" && mv "$WORK/$name.rc.tmp" "$WORK/$name.rc"
echo "EXITED-$name"
sleep 600
INNER
    $TMUX_CMD new-session -d -s "$name" -x 80 -y 24 "env TERM=screen-256color sh $WORK/$name.sh"
}

# cooked NAME: after the program, stty -a shows icanon, echo and isig on
cooked() {
    a=$(cat "$WORK/$1.stty.a" 2>/dev/null)
    [ -n "$a" ] || { fail "$1: no stty -a"; return; }
    for m in icanon echo isig; do
        if echo "$a" | tr ' ;' '\n\n' | grep -qx -- "-$m"; then
            fail "$1: $m off after exit"
        elif echo "$a" | tr ' ;' '\n\n' | grep -qx -- "$m"; then
            ok "$1: $m on"
        else
            fail "$1: stty -a lacks $m"
        fi
    done
}

for sig in INT TERM HUP; do
    name="live$sig"
    start_a "$name" "$CW" tui --samples 200 --budget 30 "$PLAN"
    expect "$name" '^ saxpy ' "SIG$sig: TUI up"
    # loop mode: the worker measures round after round until the signal
    keys "$name" l
    expect "$name" 'loop' "SIG$sig: loop mode, measuring"
    sleep 0.5
    pid=$(child_pid "$name")
    [ -n "$pid" ] || { fail "SIG$sig: no pid"; continue; }
    kill -"$sig" "$pid"
    check_restored "$name"
    i=0
    while kill -0 "$pid" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
    kill -0 "$pid" 2>/dev/null && fail "SIG$sig: process $pid still alive" ||
        ok "SIG$sig: process gone"
    case $sig in HUP) n=1 ;; INT) n=2 ;; *) n=15 ;; esac
    [ "$(cat "$WORK/$name.rc" 2>/dev/null)" = $((128 + n)) ] &&
        ok "SIG$sig: died of the signal" ||
        fail "SIG$sig: exit status $(cat "$WORK/$name.rc" 2>/dev/null), want $((128 + n))"
    cooked "$name"
done

# SIGTERM with the detail view open (a different curses state)
start_a detail "$CW" tui --samples 200 --budget 30 "$PLAN"
expect detail '^ saxpy ' "detail: TUI up"
keys detail l
keys detail Enter
expect detail '── Verdict' "detail: view open"
pid=$(child_pid detail)
if [ -n "$pid" ]; then
    kill -TERM "$pid"
    check_restored detail
    cooked detail
else
    fail "detail: no pid"
fi

# no Vulkan driver: the TUI still shows every prediction, says why nothing
# is measured, and quits cleanly
start_a noicd "env VK_DRIVER_FILES=/nonexistent VK_ICD_FILENAMES=/nonexistent" \
    "$CW" tui "$PLAN"
expect noicd '^ saxpy +[a-z]+ +[0-9.]+(µs|ms|s) ' "no ICD: saxpy predicted"
expect noicd 'no measurement: no usable Vulkan driver' "no ICD: the reason on the status line"
keys noicd q
check_restored noicd
[ "$(cat "$WORK/noicd.rc" 2>/dev/null)" = 0 ] && ok "no ICD: q exits 0" || fail "no ICD: exit status"

echo "$FAILS failure(s)"
[ "$FAILS" -eq 0 ]
