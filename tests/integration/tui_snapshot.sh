#!/bin/sh
# Headless TUI: --snapshot VIEW prints every view at the asked size, ASCII
# when the locale is not UTF-8, live numbers when measuring; bad views and
# bad themes are usage errors with file:line; the exit code follows the
# findings.
ROOT="${CW_TEST_ROOT:-$(pwd)}"
: "${CW:=$ROOT/build/clockwork}"
PLAN="$ROOT/tests/screen/plan.json"
export TZ=UTC LANG=C.UTF-8 LC_ALL=C.UTF-8
unset NO_COLOR COLUMNS LINES
T="$(mktemp -d)"
trap 'rm -rf "$T"' EXIT
FAILS=0
fail() { echo "FAIL: $*"; FAILS=$((FAILS + 1)); }
ok() { echo "ok: $*"; }

for size in 80x24 160x48 50x10; do
    cols=${size%x*} rows=${size#*x}
    for view in main detail source roofline device help; do
        "$CW" tui --static --snapshot "$view" --size "$size" "$PLAN" > "$T/out" 2> "$T/err"
        rc=$?
        # static: saxpy_noguard has error findings -> exit 1
        [ "$rc" = 1 ] || fail "$view $size: exit $rc, want 1 ($(cat "$T/err"))"
        n=$(wc -l < "$T/out")
        [ "$n" = "$rows" ] || fail "$view $size: $n lines, want $rows"
        # count characters, not bytes: drop UTF-8 continuation bytes first
        wide=$(LC_ALL=C sed "s/$(printf '[\200-\277]')//g" "$T/out" |
               LC_ALL=C awk -v c="$cols" 'length($0) > c' | wc -l)
        [ "$wide" = 0 ] || fail "$view $size: $wide lines wider than $cols"
        grep -q "Clockwork" "$T/out" || fail "$view $size: no header"
    done
done
ok "every view at 80x24, 160x48 and 50x10 fits"

"$CW" tui --static --snapshot main --size 80x24 "$PLAN" > "$T/main"
grep -Eq '^ saxpy +[a-z]+ +[0-9.]+(µs|ms|s) ' "$T/main" && ok "static main: predictions" ||
    fail "static main: no prediction for saxpy"
grep -q "static only" "$T/main" && ok "static main: says static only" || fail "no 'static only'"

"$CW" tui --snapshot main --size 100x30 --samples 5 --budget 0.2 "$PLAN" > "$T/live"
grep -Eq '^ saxpy +[a-z]+ +[0-9.]+(µs|ms|s) +[0-9.]+(µs|ms|s) +[0-9.]+(µs|ms|s) ' "$T/live" &&
    ok "measured snapshot: saxpy has a measured median" || { fail "no measured median"; cat "$T/live"; }
grep -q "done · 2 measured" "$T/live" && ok "measured snapshot: two kernels run, the buggy one not" ||
    fail "measured snapshot: sampling state"

"$CW" tui --static --snapshot source --size 80x24 "$PLAN" > "$T/src"
grep -q "y\[i\] = alpha \* x\[i\] + y\[i\];" "$T/src" && ok "source snapshot shows GLSL" ||
    fail "source snapshot"

LC_ALL=C LANG=C "$CW" tui --static --snapshot roofline --size 80x24 "$PLAN" > "$T/ascii"
if LC_ALL=C grep -q "$(printf '[\200-\377]')" "$T/ascii"; then
    fail "ASCII locale: non-ASCII bytes in the roofline"
else
    ok "ASCII locale: plain ASCII roofline"
fi
grep -q "FLOP/byte" "$T/ascii" || fail "ASCII roofline: no axis"

"$CW" tui --static --snapshot nosuchview "$PLAN" > /dev/null 2> "$T/err"
rc=$?
[ "$rc" = 2 ] && grep -q "unknown view 'nosuchview'" "$T/err" && ok "unknown view: exit 2" ||
    fail "unknown view: exit $rc: $(cat "$T/err")"

mkdir -p "$T/cfg/clockwork/themes"
printf 'color header black cyan\ncolor hedaer red blue\n' > "$T/cfg/clockwork/themes/bad.theme"
XDG_CONFIG_HOME="$T/cfg" "$CW" tui --static --theme bad --snapshot main "$PLAN" > /dev/null 2> "$T/err"
rc=$?
[ "$rc" = 2 ] && grep -q "bad.theme:2:.*did you mean 'header'" "$T/err" &&
    ok "bad theme: exit 2 with file:line" || fail "bad theme: exit $rc: $(cat "$T/err")"
"$CW" tui --static --theme nosuch --snapshot main "$PLAN" > /dev/null 2> "$T/err"
[ $? = 2 ] && grep -q "theme 'nosuch' not found" "$T/err" && ok "unknown theme: exit 2" ||
    fail "unknown theme: $(cat "$T/err")"
# by name when the binary sits in this tree (build*/clockwork), else by path
for th in default light high-contrast monochrome; do
    ref=$th
    [ -d "$(dirname "$CW")/../themes" ] || ref="$ROOT/themes/$th.theme"
    "$CW" tui --static --theme "$ref" --snapshot help "$PLAN" > /dev/null 2> "$T/err"
    [ $? = 1 ] || fail "theme $th: $(cat "$T/err")"
done
ok "bundled themes load"

# an installed layout, any PREFIX: PREFIX/bin/clockwork finds
# PREFIX/share/clockwork/themes
mkdir -p "$T/usr/bin" "$T/usr/share/clockwork/themes"
cp "$CW" "$T/usr/bin/clockwork"
printf 'color header red blue\n' > "$T/usr/share/clockwork/themes/installed-only.theme"
XDG_CONFIG_HOME="$T/none" "$T/usr/bin/clockwork" tui --static --theme installed-only \
    --snapshot help "$PLAN" > /dev/null 2> "$T/err"
[ $? = 1 ] && ok "installed themes found next to the binary" ||
    fail "installed theme not found: $(cat "$T/err")"

echo "$FAILS failure(s)"
[ "$FAILS" -eq 0 ]
