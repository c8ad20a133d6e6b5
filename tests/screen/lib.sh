# tests/screen/lib.sh - tmux harness for the TUI's screen tests (sourced).
#
# A private tmux server per test (tmux -L cwtest-PID, no config file), the
# environment pinned (TERM, locale, TZ, no NO_COLOR/COLUMNS/LINES), waits
# with bounded retries, and the server killed on every exit path.
SOCK="cwtest-$$"
TMUX_CMD="tmux -L $SOCK -f /dev/null"
ROOT="${CW_TEST_ROOT:-$(pwd)}"
: "${CW:=$ROOT/build/clockwork}"
WORK="$(mktemp -d)"
cleanup() {
    $TMUX_CMD kill-server 2>/dev/null
    rm -rf "$WORK"
}
trap cleanup EXIT INT TERM HUP
export TZ=UTC LANG=C.UTF-8 LC_ALL=C.UTF-8
unset NO_COLOR COLUMNS LINES TMUX
FAILS=0

fail() { echo "FAIL: $*"; FAILS=$((FAILS + 1)); }
ok() { echo "ok: $*"; }

# start NAME COLS ROWS COMMAND... : a detached session running COMMAND
# under sh, with TERM pinned (screen-256color, or $CW_TERM); $WORK/NAME.rc gets its exit status and
# $WORK/NAME.stty.before/after the terminal modes around it.
start() {
    name=$1 cols=$2 rows=$3
    shift 3
    # the wrapper shell shares the terminal's process group: it must outlive
    # a Ctrl-\ meant for the TUI (an interactive shell would ignore it too)
    cat > "$WORK/$name.sh" <<INNER
trap '' QUIT
stty -g > "$WORK/$name.stty.before"
$*
rc=\$?
stty -g > "$WORK/$name.stty.after"
echo \$rc > "$WORK/$name.rc.tmp" && mv "$WORK/$name.rc.tmp" "$WORK/$name.rc"
echo "EXITED-$name"
sleep 600
INNER
    $TMUX_CMD new-session -d -s "$name" -x "$cols" -y "$rows" \
        "env TERM=${CW_TERM:-screen-256color} sh $WORK/$name.sh"
}

screen() { $TMUX_CMD capture-pane -p -t "$1"; }
screen_esc() { $TMUX_CMD capture-pane -p -e -t "$1"; }
keys() { n=$1; shift; $TMUX_CMD send-keys -t "$n" "$@"; }

# Waits end as soon as the screen matches, so their limits only matter when
# something is wrong: they are generous because CI runs this suite under
# ASan on a shared 2-core machine, where one TUI start has taken over 30 s.
# CW_TEST_WAIT_SCALE multiplies every limit (default 3).
WAIT_SCALE=${CW_TEST_WAIT_SCALE:-3}

# wait_for NAME REGEX [TRIES]: poll the screen every 0.2 s, TRIES x the scale
wait_for() {
    tries=$(( ${3:-150} * WAIT_SCALE ))
    while [ "$tries" -gt 0 ]; do
        if screen "$1" | grep -Eq -- "$2"; then
            return 0
        fi
        sleep 0.2
        tries=$((tries - 1))
    done
    echo "--- screen of $1 while waiting for /$2/:"
    screen "$1"
    return 1
}

expect() { # expect NAME REGEX WHAT [TRIES]
    if wait_for "$1" "$2" "${4:-150}"; then ok "$3"; else fail "$3"; fi
}

# The pid of the program the session's shell runs (its only child).
child_pid() {
    shpid=$($TMUX_CMD display -p -t "$1" '#{pane_pid}')
    pgrep -P "$shpid" | head -n 1
}

# check_restored NAME: exit status recorded (last, after the modes, and
# renamed into place: seeing it means both mode files are complete; every
# runner script must keep that order, see start_a in faults_tui.sh),
# terminal modes as before, alternate screen left.
check_restored() {
    i=0
    # an ASan build's exit (leak check, lavapipe's teardown) takes seconds
    while [ ! -f "$WORK/$1.rc" ] && [ $i -lt $((200 * WAIT_SCALE)) ]; do sleep 0.1; i=$((i + 1)); done
    [ -f "$WORK/$1.rc" ] || { fail "$1: the program did not exit"; return; }
    if cmp -s "$WORK/$1.stty.before" "$WORK/$1.stty.after"; then
        ok "$1: terminal modes restored"
    else
        fail "$1: terminal modes differ after exit"
        echo "before: $(cat "$WORK/$1.stty.before")"
        echo "after:  $(cat "$WORK/$1.stty.after")"
    fi
    alt=$($TMUX_CMD display -p -t "$1" '#{alternate_on}')
    [ "$alt" = 0 ] && ok "$1: alternate screen left" || fail "$1: still on the alternate screen"
    wait_for "$1" "EXITED-$1" 20 >/dev/null && ok "$1: shell output visible again" ||
        fail "$1: shell output not visible after exit"
}

# golden_screen NAME FILE COMMAND: compare what COMMAND prints (run with
# eval, usually a capture of part of the screen) with tests/screen/FILE,
# capturing again for up to 10 s while it differs: a capture taken just
# after a view's first line appeared can catch the rest of it half drawn.
golden_screen() {
    g="$ROOT/tests/screen/$2"
    if [ "${CW_UPDATE_GOLDEN:-0}" != 1 ]; then
        tries=$((50 * WAIT_SCALE))
        while [ "$tries" -gt 0 ]; do
            printf '%s\n' "$(eval "$3")" | cmp -s "$g" - && break
            sleep 0.2
            tries=$((tries - 1))
        done
    fi
    golden "$1" "$2" "$(eval "$3")"
}

# golden NAME FILE TEXT: compare with tests/screen/FILE (CW_UPDATE_GOLDEN=1
# rewrites it)
golden() {
    g="$ROOT/tests/screen/$2"
    if [ "${CW_UPDATE_GOLDEN:-0}" = 1 ]; then
        printf '%s\n' "$3" > "$g"
        ok "$1: golden $2 rewritten"
    elif printf '%s\n' "$3" | diff -u "$g" - ; then
        ok "$1: matches $2"
    else
        fail "$1: differs from $2"
    fi
}
