#!/bin/sh
# The real TUI in tmux at 80x24 and 160x48 on the CPU device (lavapipe):
# main view with live numbers, detail, source, roofline, device, help,
# resize (also to "too small"), quit restoring the terminal, NO_COLOR with
# no colour escapes, SIGTERM/SIGHUP/SIGINT/SIGQUIT/SIGSEGV and Ctrl-\ restoring
# the terminal, --frames.
. "${CW_TEST_ROOT:-.}/tests/screen/lib.sh"
command -v tmux >/dev/null || { echo "tmux missing (make deps)"; exit 1; }
PLAN="$ROOT/tests/screen/plan.json"
FAST="--samples 5 --budget 0.2"

# help_golden S WxH: '?' opens the help view of session S, whose rows 2 to
# H-2 at that size are tests/screen/tmux-help-WxH.txt.
help_golden() {
    keys "$1" '?'
    expect "$1" '── Keys' "$2: help view"
    golden_screen "$1" "tmux-help-$2.txt" "screen '$1' | sed -n '2,$((${2#*x} - 2))p'"
}

# ---- 80x24: live numbers, every view, resize, quit ----
start s80 80 24 "$CW" tui $FAST "$PLAN"
expect s80 'Clockwork [0-9.]+ · kernels' "80x24: main view up"
expect s80 'done · [0-9]+ measured' "80x24: sampling finished" 900
# live numbers: predicted and measured times on the saxpy row
expect s80 '^ saxpy +[a-z0-9]+ +[0-9.]+(µs|ms|s) +[0-9.]+(µs|ms|s) ' \
    "80x24: saxpy row shows predicted and measured times"
expect s80 '^ reduce +[a-z0-9]+ +[0-9.]+(µs|ms|s) +[0-9.]+(µs|ms|s) ' \
    "80x24: reduce row shows predicted and measured times"
expect s80 '^ saxpy_noguard .*[0-9]+E.*not run' \
    "80x24: the out-of-bounds kernel is flagged and not run"
golden_screen s80 tmux-main-80x24.txt \
    "screen s80 | sed -n 2p; screen s80 | sed -n '3,5p' | awk '{print \$1}'"
keys s80 Enter
expect s80 '── Verdict' "80x24: Enter opens the detail view"
expect s80 '── Prediction' "80x24: detail shows the prediction"
expect s80 'Clockwork [0-9.]+ · detail' "80x24: header names the detail view"
keys s80 Tab
expect s80 'GLSL · [0-9]+ lines' "80x24: Tab shows the GLSL source"
expect s80 'y\[i\] = alpha \* x\[i\] \+ y\[i\];' "80x24: source text visible"
keys s80 Tab
expect s80 'Roofline · FLOP/s' "80x24: roofline view"
expect s80 'FLOP/byte' "80x24: roofline x axis"
keys s80 Tab
expect s80 '── Device' "80x24: device view"
keys s80 Tab
expect s80 '^ KERNEL ' "80x24: Tab cycles back to the kernel list"
help_golden s80 80x24
keys s80 x
expect s80 '^ KERNEL ' "80x24: any key leaves help"
# resize: wide, too small, back
$TMUX_CMD resize-window -t s80 -x 160 -y 48
expect s80 '^ KERNEL +BOUND +IDEAL +PRED +MEASURED' "resize to 160x48: all columns"
help_golden s80 160x48
keys s80 Escape
$TMUX_CMD resize-window -t s80 -x 40 -y 8
expect s80 'Terminal too small: 40x8' "resize to 40x8: too-small screen"
$TMUX_CMD resize-window -t s80 -x 80 -y 24
expect s80 '^ KERNEL ' "resize back to 80x24: main view again"
keys s80 q
check_restored s80
[ "$(cat "$WORK/s80.rc" 2>/dev/null)" = 0 ] && ok "q exits 0" || fail "q exit status"

# ---- 160x48 from the start: detail in two columns, device ----
start s160 160 48 "$CW" tui $FAST "$PLAN"
expect s160 'done · [0-9]+ measured' "160x48: sampling finished" 900
expect s160 '^ saxpy +[a-z0-9]+ +[0-9.]+(µs|ms|s) +[0-9.]+(µs|ms|s) +[0-9.]+(µs|ms|s) ' \
    "160x48: saxpy row with ideal, predicted and measured"
keys s160 Enter
expect s160 '── Prediction.*── Verdict' "160x48: detail in two columns"
expect s160 '── Measurement' "160x48: measurement section"
expect s160 'median +[0-9.]+(µs|ms|s)' "160x48: measured median in the detail"
keys s160 5
expect s160 '── Counters' "160x48: device view lists counters"
keys s160 Escape
keys s160 Escape
check_restored s160

# ---- colours: escapes with a theme, none with NO_COLOR ----
start col 80 24 "$CW" tui --static "$PLAN"
expect col '^ saxpy ' "colour: static main view"
if screen_esc col | grep -Eq "$(printf '\033')\\[(3[0-7]|4[0-7]|9[0-7]|10[0-7]|38;|48;)"; then
    ok "colour: the default theme emits colour escapes"
else
    fail "colour: no colour escapes with the default theme"
fi
keys col t
expect col 'theme (light|high-contrast|monochrome) ' "t cycles to the next theme"
keys col q
check_restored col
start nocol 80 24 "env NO_COLOR=1 $CW tui --static $PLAN"
expect nocol '^ saxpy ' "NO_COLOR: main view"
if screen_esc nocol | grep -Eq "$(printf '\033')\\[([0-9;]*;)?(3[0-7]|4[0-7]|9[0-7]|10[0-7]|38|48)[;m]"; then
    fail "NO_COLOR: colour escapes found"
    screen_esc nocol | cat -v | head -5
else
    ok "NO_COLOR: no colour escapes"
fi
keys nocol q
check_restored nocol
start nocol2 80 24 "$CW" tui --static --no-color "$PLAN"
expect nocol2 '^ saxpy ' "--no-color: main view"
if screen_esc nocol2 | grep -Eq "$(printf '\033')\\[([0-9;]*;)?(3[0-7]|4[0-7]|9[0-7]|10[0-7]|38|48)[;m]"; then
    fail "--no-color: colour escapes found"
else
    ok "--no-color: no colour escapes"
fi
keys nocol2 q
check_restored nocol2

# an 8-colour terminal: 256-colour and bright entries degrade to the 8
CW_TERM=screen start col8 80 24 "$CW" tui --static --theme "$ROOT/themes/light.theme" "$PLAN"
expect col8 '^ saxpy ' "8 colours: main view"
esc=$(screen_esc col8)
if printf '%s' "$esc" | grep -Eq "$(printf '\033')\\[([0-9;]*;)?(38;5|48;5|9[0-7]|10[0-7])[;m]"; then
    fail "8 colours: 256-colour or bright escapes found"
elif printf '%s' "$esc" | grep -Eq "$(printf '\033')\\[([0-9;]*;)?3[0-7][;m]"; then
    ok "8 colours: only the 8 base colours"
else
    fail "8 colours: no colour at all"
fi
keys col8 q
check_restored col8

# ---- stderr chatter (here the Vulkan loader's) stays off the screen and
# is shown after exit ----
start chat 80 24 "env VK_LOADER_DEBUG=all $CW tui --samples 3 --budget 0.1 $PLAN"
expect chat 'done · [0-9]+ measured' "stderr: TUI runs with a chatty loader" 900
if screen chat | grep -q 'LAYER:\|INFO:'; then
    fail "stderr: loader messages on the screen"
else
    ok "stderr: nothing from stderr on the screen"
fi
keys chat q
check_restored chat
expect chat 'LAYER:' "stderr: replayed after exit"

# ---- signals restore the terminal ----
for sig in TERM HUP INT QUIT SEGV; do
    start "sig$sig" 80 24 "$CW" tui --static "$PLAN"
    expect "sig$sig" '^ saxpy ' "SIG$sig: running"
    pid=$(child_pid "sig$sig")
    if [ -n "$pid" ]; then
        kill -"$sig" "$pid"
        check_restored "sig$sig"
        case $sig in HUP) n=1 ;; INT) n=2 ;; QUIT) n=3 ;; SEGV) n=11 ;; *) n=15 ;; esac
        want=$((128 + n))
        [ "$(cat "$WORK/sig$sig.rc" 2>/dev/null)" = "$want" ] &&
            ok "SIG$sig: dies of the signal after restoring (status $want)" ||
            fail "SIG$sig: exit status $(cat "$WORK/sig$sig.rc" 2>/dev/null), want $want"
    else
        fail "SIG$sig: no pid"
    fi
done

# ---- Ctrl-\ from the keyboard: SIGQUIT through the terminal (isig) ----
start ctlq 80 24 "$CW" tui --static "$PLAN"
expect ctlq '^ saxpy ' "Ctrl-\\: running"
keys ctlq -H 1c
check_restored ctlq
[ "$(cat "$WORK/ctlq.rc" 2>/dev/null)" = 131 ] &&
    ok "Ctrl-\\: restores the terminal, then dies of SIGQUIT (status 131)" ||
    fail "Ctrl-\\: exit status $(cat "$WORK/ctlq.rc" 2>/dev/null), want 131"

# ---- --frames N quits by itself ----
start frames 80 24 "$CW" tui --static --frames 3 "$PLAN"
check_restored frames
[ "$(cat "$WORK/frames.rc" 2>/dev/null)" = 0 ] && ok "--frames exits 0" || fail "--frames exit status"

echo "$FAILS failure(s)"
[ "$FAILS" -eq 0 ]
